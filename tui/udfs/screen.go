package udfs

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
)

// Screen is `:udfs`: one row per registered function, and under the list
// the jobs that call the function under the cursor.
type Screen struct {
	env           *kit.Env
	list          kit.Table[api.UDFView]
	width, height int
}

// LoadedMsg is Load's answer; Seq is the request's identity.
type LoadedMsg struct {
	Seq  int
	UDFs []api.UDFView
	Err  error
}

// Load lists the registered functions.
func Load(c kit.Call[Service], seq int) tea.Cmd {
	return kit.Get(c, "list functions", c.Service.UDFs, func(us []api.UDFView, err error) tea.Msg {
		return LoadedMsg{Seq: seq, UDFs: us, Err: err}
	})
}

// New opens `:udfs`; its Cmd loads them.
func New(e *kit.Env) (*Screen, tea.Cmd) {
	m := &Screen{env: e}
	m.list = kit.NewTable(e, kit.TableOf[api.UDFView]{
		Key:  "load:udfs",
		Load: func(seq int) tea.Cmd { return Load(call(e), seq) },
		ID:   func(u api.UDFView) string { return u.Name },
		Page: m.page,
	})
	return m, m.list.Refresh()
}

// Title implements kit.Screen.
func (m *Screen) Title() string { return "UDFs" }

// Capturing implements kit.Screen: nothing takes the keyboard.
func (m *Screen) Capturing() bool { return false }

// ShortHelp implements kit.Screen.
func (m *Screen) ShortHelp() []key.Binding {
	return []key.Binding{m.env.Keys.Catalog.Callers, m.env.Keys.Nav.Refresh}
}

// FullHelp implements kit.Screen.
func (m *Screen) FullHelp() [][]key.Binding { return Help(m.env.Keys) }

// Help is the view's keys, for its `?` help and the keymap (docs/keys.md).
func Help(k kit.KeyMap) [][]key.Binding {
	return [][]key.Binding{k.Nav.Bindings(), {k.Catalog.Callers, k.Nav.Refresh}}
}

func (m *Screen) page() int { return max(min(len(m.list.Rows()), (m.height-2)/2), 1) }

// Update implements kit.Screen.
func (m *Screen) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case LoadedMsg:
		_, cmd := m.list.Loaded(msg.Seq, msg.UDFs, msg.Err)
		return m, cmd
	}
	cmd, handled := m.list.Update(msg, m.width)
	if kp, ok := msg.(tea.KeyPressMsg); ok && !handled && key.Matches(kp, m.env.Keys.Catalog.Callers) {
		return m, m.openCallers()
	}
	return m, cmd
}

// openCallers opens the jobs table on the jobs that call the cursor's
// function, as the registry said at the last load.
func (m *Screen) openCallers() tea.Cmd {
	u, ok := m.list.Selected()
	if !ok {
		return nil
	}
	if len(u.Jobs) == 0 {
		return kit.Flash(kit.FlashInfo, "no job calls "+u.Name)
	}
	ids := make([]string, len(u.Jobs))
	for i, j := range u.Jobs {
		ids[i] = j.JobID
	}
	return kit.Send(kit.OpenJobsMsg{Label: "calling " + u.Name, IDs: ids})
}

// View implements kit.Screen.
func (m *Screen) View() string {
	st := m.env.Styles
	return m.list.Box(st, st.Title.Render(m.Title()), kit.Plural(len(m.list.Rows()), "function"), m.width, m.height,
		func(w, h int) []string { return Lines(st, m.list.Rows(), m.list.Cursor(), m.list.Offset(), w, h) },
		"loading functions…", "no functions registered yet", "palink udf add NAME --class C --language java --jar PATH")
}

// columns are the list's: where a function lives and what it takes, and
// the jobs that call it, as far as the row reaches.
var columns = kit.Columns[api.UDFView]{
	{Title: "NAME", Width: 14, Cell: func(u api.UDFView) string { return u.Name }},
	{Title: "LANG", Width: 7, Cell: func(u api.UDFView) string { return string(u.Language) }},
	{Title: "CLASS", Width: 28, Cell: func(u api.UDFView) string { return u.Class }},
	{Title: "ARTIFACT", Width: 24, Cell: api.UDFView.Where},
	{Title: "SIGNATURE", Width: 22, Cell: func(u api.UDFView) string { return kit.OrDash(u.Signature) }},
	{Title: "JOBS", Cell: func(u api.UDFView) string { return jobNames(u.Jobs) }},
}

// callers are the jobs under the list: the ones that call the function.
var callers = kit.Columns[api.UDFUse]{
	{Title: "JOB", Width: 28, Cell: func(j api.UDFUse) string { return j.JobName }},
	{Title: "STATE", Cell: func(j api.UDFUse) string { return j.State.String() },
		Style: func(st *kit.Styles, j api.UDFUse, s string) string { return st.JobState(j.State, "").Render(s) }},
}

// Lines renders the list and the cursor's function in depth (pure): a
// header, a row per function, the cursor's row reversed; then where it
// lives and the jobs that call it, in the rows left.
func Lines(st *kit.Styles, us []api.UDFView, cursor, offset, w, h int) []string {
	page := max(min(len(us), h/2-1), 1)
	offset = kit.ScrollTo(cursor, offset, page, len(us))
	out := columns.Lines(st, us, cursor, offset, offset+page, w)
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
	out = append(out, callers.Lines(st, u.Jobs, -1, 0, min(len(u.Jobs), max(h-len(out)-1, 0)), w)...)
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
