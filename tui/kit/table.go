package kit

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// TableOf says what a Table lists and how it loads.
type TableOf[T any] struct {
	// Key is the cause of the loads' flashes ("load:udfs").
	Key string
	// Load makes the Cmd of load seq, whose answer the screen hands to
	// Table.Loaded.
	Load func(seq int) tea.Cmd
	// ID is an item's identity, which the cursor follows.
	ID func(T) string
	// Page is the rows a page key moves by and the cursor keeps on screen.
	Page func() int
	// Filter is the `/` prompt's placeholder, "" for a list without a
	// filter; Match is the text of an item it looks in (the cells as
	// shown), and Noun names an item where none matches ("command").
	Filter string
	Match  func(T) []string
	Noun   string
}

// Table is a list view's state, the same for every list screen (`:udfs`,
// `:projects`, `:tables`, `:cmd`, `:alerts`, the cluster's applications):
// the items loaded, those its filter lets through, the cursor on one of
// them, and where its loads stand. The cursor follows its item by id
// across reloads and filtering (Follow), so a key acts on what the user
// chose; one load is in flight at a time (Refresher); a failed reload
// keeps the rows (Loading). The screen draws the rows (Columns.Lines) and
// what goes around them.
type Table[T any] struct {
	env    *Env
	of     TableOf[T]
	loads  Refresher
	load   Loading
	filter Filter
	cur    List
	items  []T // every item loaded, in order
	rows   []T // those the filter lets through
}

// NewTable makes the state of a list over e; its first Refresh loads it.
func NewTable[T any](e *Env, of TableOf[T]) Table[T] {
	t := Table[T]{env: e, of: of, loads: NewRefresher(e, of.Load)}
	if of.Filter != "" {
		t.filter = NewFilter(e.Styles, of.Filter)
	}
	return t
}

// Refresh loads the items, or once more after the load in flight.
func (t *Table[T]) Refresh() tea.Cmd { return t.loads.Refresh() }

// Loaded takes the answer of load seq. A late answer is dropped; a
// current one shows its items (keep), or its error: in place of the rows
// on a first load, in the flash on a reload. cmd is the flash and the
// load asked for meanwhile.
func (t *Table[T]) Loaded(seq int, items []T, err error) (keep bool, cmd tea.Cmd) {
	current, again := t.loads.Done(seq)
	if !current {
		return false, nil
	}
	keep, flash := t.load.Take(t.of.Key, err)
	if keep {
		t.Set(items)
	}
	return keep, tea.Batch(again, flash)
}

// Reset forgets the items and the load in flight, for a screen that
// moves on to other data (another cluster); the filter stays.
func (t *Table[T]) Reset() {
	t.loads.Drop()
	t.load = Loading{}
	t.items, t.rows, t.cur = nil, nil, List{}
}

// Set replaces the items; the cursor stays on its item.
func (t *Table[T]) Set(items []T) {
	t.items = items
	t.refilter()
}

// refilter makes the rows from the items, the cursor following its item.
func (t *Table[T]) refilter() {
	prev := t.rows
	t.rows = nil
	for _, it := range t.items {
		if t.of.Match == nil || t.filter.Match(t.of.Match(it)...) {
			t.rows = append(t.rows, it)
		}
	}
	t.cur.Cursor = Follow(prev, t.cur.Cursor, t.rows, t.of.ID)
	t.Fit()
}

// Down moves the cursor to the next row, if there is one (a mark's
// "& next").
func (t *Table[T]) Down() {
	t.cur.Cursor = Clamp(t.cur.Cursor+1, 0, len(t.rows)-1)
	t.cur.Offset = ScrollTo(t.cur.Cursor, t.cur.Offset, t.of.Page(), len(t.rows))
}

// Fit keeps the cursor on a row, and on screen (after a resize).
func (t *Table[T]) Fit() { t.cur.Fit(len(t.rows), t.of.Page()) }

// Items are every item loaded; Rows those the filter lets through.
func (t *Table[T]) Items() []T { return t.items }

// Rows are the items the filter lets through, as listed.
func (t *Table[T]) Rows() []T { return t.rows }

// Cursor is the selected row's index in Rows; Offset the first on screen.
func (t *Table[T]) Cursor() int { return t.cur.Cursor }

// Offset is the first row on screen.
func (t *Table[T]) Offset() int { return t.cur.Offset }

// Selected is the item under the cursor, if any.
func (t *Table[T]) Selected() (T, bool) {
	if t.cur.Cursor < 0 || t.cur.Cursor >= len(t.rows) {
		var none T
		return none, false
	}
	return t.rows[t.cur.Cursor], true
}

// IsLoaded reports that a load brought items.
func (t *Table[T]) IsLoaded() bool { return t.load.Loaded }

// Err is the last load's error, nil when it succeeded.
func (t *Table[T]) Err() error { return t.load.Err }

// Busy reports a load in flight.
func (t *Table[T]) Busy() bool { return t.loads.Busy() }

// Update takes the keys (and pastes) that every list shares: the open
// filter prompt's, the moves, `/` and ctrl+r. handled is false for a
// message the screen has to take itself.
func (t *Table[T]) Update(msg tea.Msg, width int) (cmd tea.Cmd, handled bool) {
	k := t.env.Keys
	if t.filter.Active() {
		switch msg.(type) {
		case tea.KeyPressMsg, tea.PasteMsg:
			cmd, changed := t.filter.Update(k, msg, width)
			if changed {
				t.refilter()
				t.cur = List{} // a new filter: its first match
			}
			return cmd, true
		}
	}
	kp, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, false
	}
	switch {
	case t.cur.Key(k, kp, len(t.rows), t.of.Page()):
		return nil, true
	case t.of.Filter != "" && key.Matches(kp, k.Nav.Filter):
		return t.filter.Open(width), true
	case key.Matches(kp, k.Nav.Refresh):
		return t.Refresh(), true
	}
	return nil, false
}

// Capturing reports that the filter's prompt has the keyboard.
func (t *Table[T]) Capturing() bool { return t.filter.Active() }

// Back clears a kept filter, for kit.Backer: esc does that before it
// leaves the view.
func (t *Table[T]) Back() (tea.Cmd, bool) {
	if t.of.Filter != "" && t.filter.Clear() {
		t.refilter()
		return nil, true
	}
	return nil, false
}

// ShortHelp is the footer: the filter prompt's keys while it is open,
// else keys.
func (t *Table[T]) ShortHelp(keys ...key.Binding) []key.Binding {
	if t.filter.Active() {
		return t.filter.ShortHelp(t.env.Keys)
	}
	return keys
}

// Filtered reports that a filter narrows the rows.
func (t *Table[T]) Filtered() bool { return t.filter.Text() != "" }

// Title is the box's title: name, then the filter's prompt or text.
func (t *Table[T]) Title(st *Styles, name string) string {
	title := st.Title.Render(name)
	if t.of.Filter == "" {
		return title
	}
	if f := t.filter.Title(st); f != "" {
		title += " " + f
	}
	return title
}

// Box frames a list view w×h: its rows as draw lays them out in the
// inner w×h (the list and whatever goes under it), or the placeholder
// (Placeholder) in their place, centered.
func (t *Table[T]) Box(st *Styles, title, note string, w, h int, draw func(w, h int) []string, loading string, empty ...string) string {
	if w <= 0 || h <= 0 {
		return ""
	}
	var lines []string
	if text, show := t.Placeholder(st, loading, empty...); show {
		lines = Centered(text, w-2, h-2)
	} else {
		lines = draw(w-2, h-2)
	}
	return Box(st, title, note, lines, w, h)
}

// Placeholder is what the list shows in place of its rows, dimmed: the
// first load's error, loading, empty (a line each) when nothing is
// loaded, or that the filter lets none through; show is false when there
// are rows to draw.
func (t *Table[T]) Placeholder(st *Styles, loading string, empty ...string) (text string, show bool) {
	if text, show := t.load.Placeholder(st, len(t.items), loading, empty...); show {
		return text, true
	}
	if len(t.rows) == 0 {
		return st.Dim.Render("no " + t.of.Noun + " matches — esc clears the filter"), true
	}
	return "", false
}
