package udfs

import (
	"context"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
)

// Screen is `:udfs`: one row per registered function, and under the list
// the jobs that call the function under the cursor.
type Screen struct {
	env  *kit.Env
	udfs []api.UDFView

	list          kit.List
	loads         kit.Refresher
	load          kit.Loading
	width, height int
}

// LoadedMsg is Load's answer; Seq is the request's identity.
type LoadedMsg struct {
	Seq  int
	UDFs []api.UDFView
	Err  error
}

// Load lists the registered functions.
func Load(c kit.Call, seq int) tea.Cmd {
	return func() tea.Msg {
		msg := LoadedMsg{Seq: seq}
		msg.Err = c.With(func(ctx context.Context) (err error) {
			msg.UDFs, err = c.Svc.UDFs(ctx)
			return err
		})
		if msg.Err != nil {
			msg.Err = fmt.Errorf("list functions: %w", msg.Err)
		}
		return msg
	}
}

// New opens `:udfs`; its Cmd loads them.
func New(e *kit.Env) (*Screen, tea.Cmd) {
	m := &Screen{env: e, loads: kit.NewRefresher(e, func(seq int) tea.Cmd { return Load(e.Call(), seq) })}
	return m, m.loads.Refresh()
}

// Title implements kit.Screen.
func (m *Screen) Title() string { return "UDFs" }

// Capturing implements kit.Screen: nothing takes the keyboard.
func (m *Screen) Capturing() bool { return false }

// ShortHelp implements kit.Screen.
func (m *Screen) ShortHelp() []key.Binding { return []key.Binding{m.env.Keys.Nav.Refresh} }

// FullHelp implements kit.Screen.
func (m *Screen) FullHelp() [][]key.Binding { return Help(m.env.Keys) }

// Help is the view's keys, for its `?` help and the README's keymap.
func Help(k kit.KeyMap) [][]key.Binding {
	return [][]key.Binding{k.Nav.Bindings(), {k.Nav.Refresh}}
}

func (m *Screen) page() int { return max(min(len(m.udfs), (m.height-2)/2), 1) }

// Update implements kit.Screen.
func (m *Screen) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case LoadedMsg:
		current, again := m.loads.Done(msg.Seq)
		if !current {
			return m, nil
		}
		keep, flash := m.load.Take("load:udfs", msg.Err)
		if keep {
			m.udfs = msg.UDFs
			m.list.Fit(len(m.udfs), m.page())
		}
		return m, tea.Batch(again, flash)
	case tea.KeyPressMsg:
		k := m.env.Keys
		if m.list.Key(k, msg, len(m.udfs), m.page()) {
			return m, nil
		}
		if key.Matches(msg, k.Nav.Refresh) {
			return m, m.loads.Refresh()
		}
	}
	return m, nil
}

// View implements kit.Screen.
func (m *Screen) View() string {
	st := m.env.Styles
	w, h := m.width, m.height
	if w <= 0 || h <= 0 {
		return ""
	}
	inner := w - 2
	var lines []string
	if text, show := m.load.Placeholder(st, len(m.udfs), "loading functions…",
		"no functions registered yet", "palink udf add NAME --class C --language java --jar PATH"); show {
		lines = kit.Centered(text, inner, h-2)
	} else {
		lines = Lines(st, m.udfs, m.list.Cursor, m.list.Offset, inner, h-2)
	}
	return kit.Box(st, st.Title.Render(m.Title()), kit.Plural(len(m.udfs), "function"), lines, w, h)
}

// Lines renders the list and the cursor's function in depth (pure): a
// header, a row per function, the cursor's row reversed; then where it
// lives and the jobs that call it, in the rows left.
func Lines(st *kit.Styles, us []api.UDFView, cursor, offset, w, h int) []string {
	out := []string{st.ColumnHeader.Render(fmt.Sprintf("  %-14s %-7s %-28s %-24s %-22s %s", "NAME", "LANG", "CLASS", "ARTIFACT", "SIGNATURE", "JOBS"))}
	page := max(min(len(us), h/2-1), 1)
	offset = kit.ScrollTo(cursor, offset, page, len(us))
	for i := offset; i < min(offset+page, len(us)); i++ {
		u := us[i]
		sig := u.Signature
		if sig == "" {
			sig = kit.NoValue
		}
		row := fmt.Sprintf("%-14s %-7s %-28s %-24s %-22s %s", kit.Truncate(u.Name, 14), u.Language, kit.Truncate(u.Class, 28),
			kit.Truncate(u.Where(), 24), kit.Truncate(sig, 22), jobNames(u.Jobs))
		if i == cursor {
			out = append(out, st.Cursor.Render(kit.Fit("▸ "+kit.Truncate(row, max(w-2, 1)), w)))
		} else {
			out = append(out, "  "+kit.Truncate(row, max(w-2, 1)))
		}
	}
	if cursor < 0 || cursor >= len(us) {
		return out
	}
	u := us[cursor]
	out = append(out, "", " "+st.Title.Render(u.Name)+st.Dim.Render(" · "+kit.Truncate(string(u.Language)+" "+u.Class+" from "+u.Where(), max(w-4-len(u.Name), 10))))
	if u.Signature != "" {
		out = append(out, "  "+kit.Truncate("signature "+u.Signature, max(w-2, 1)))
	}
	if len(u.Jobs) == 0 {
		return append(out, "  "+st.Dim.Render("no job calls it"))
	}
	out = append(out, st.ColumnHeader.Render(fmt.Sprintf("  %-28s %s", "JOB", "STATE")))
	for _, j := range u.Jobs {
		if len(out) >= h {
			break
		}
		out = append(out, kit.Truncate(fmt.Sprintf("  %-28s %s", kit.Truncate(j.JobName, 28), st.JobState(j.State, "").Render(j.State.String())), w))
	}
	return out
}

// jobNames are the jobs that call a function, "-" for none.
func jobNames(us []api.UDFUse) string {
	if len(us) == 0 {
		return kit.NoValue
	}
	names := make([]string, len(us))
	for i, u := range us {
		names[i] = u.JobName
	}
	return strings.Join(names, ", ")
}
