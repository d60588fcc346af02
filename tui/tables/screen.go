package tables

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/kit"
)

// Screen is `:tables [CLUSTER]`.
type Screen struct {
	env           *kit.Env
	cluster       string
	list          kit.Table[model.CatalogTable]
	role          kit.Role
	drafts        map[string]draft // edits not saved, by table (edit.go)
	width, height int
}

// LoadedMsg is Load's answer; Seq is the request's identity.
type LoadedMsg struct {
	Seq     int
	Cluster string
	Tables  []model.CatalogTable
	Err     error
}

// Load lists the catalog tables of a cluster.
func Load(c kit.Call[Service], cluster string, seq int) tea.Cmd {
	tables := func(ctx context.Context) ([]model.CatalogTable, error) { return c.Service.Tables(ctx, cluster) }
	return kit.Get(c, "list the tables of cluster "+cluster, tables, func(ts []model.CatalogTable, err error) tea.Msg {
		return LoadedMsg{Seq: seq, Cluster: cluster, Tables: ts, Err: err}
	})
}

// New opens `:tables` on a cluster; its Cmd loads the tables.
func New(e *kit.Env, cluster string) (*Screen, tea.Cmd) {
	m := &Screen{env: e, cluster: cluster}
	m.list = kit.NewTable(e, kit.TableOf[model.CatalogTable]{
		Key:  "load:tables",
		Load: func(seq int) tea.Cmd { return Load(call(e), cluster, seq) },
		ID:   func(t model.CatalogTable) string { return t.Name },
		Page: m.page,
	})
	c := call(e)
	return m, tea.Batch(m.list.Refresh(), kit.LoadRole(c, c.Service.WhoAmI))
}

// Title implements kit.Screen.
func (m *Screen) Title() string { return "Tables @" + m.cluster }

// Capturing implements kit.Screen.
func (m *Screen) Capturing() bool { return false }

// ShortHelp implements kit.Screen.
func (m *Screen) ShortHelp() []key.Binding {
	return []key.Binding{m.env.Keys.Catalog.EditTable, m.env.Keys.Nav.Refresh}
}

// FullHelp implements kit.Screen.
func (m *Screen) FullHelp() [][]key.Binding { return Help(m.env.Keys) }

// Help is the view's keys, for its `?` help and the keymap (docs/keys.md).
func Help(k kit.KeyMap) [][]key.Binding {
	return [][]key.Binding{k.Nav.Bindings(), {k.Catalog.EditTable, k.Nav.Refresh}}
}

// UpdateKeys implements kit.KeyUpdater: editing is the role table's to
// give (PutTable), and needs a table.
func (m *Screen) UpdateKeys(k *kit.KeyMap) {
	a := kit.AllKeys.Catalog
	if ok, why := m.role.May("PutTable"); !ok {
		k.Block(&k.Catalog.EditTable, a.EditTable, why)
	} else if _, ok := m.list.Selected(); !ok {
		k.Block(&k.Catalog.EditTable, a.EditTable, "no table to edit")
	}
}

func (m *Screen) page() int { return max(m.height-3, 1) }

// Update implements kit.Screen.
func (m *Screen) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case LoadedMsg:
		if msg.Cluster != m.cluster {
			return m, nil
		}
		_, cmd := m.list.Loaded(msg.Seq, msg.Tables, msg.Err)
		return m, cmd
	case kit.ChangeMsg:
		if msg.Change.Kind == api.Resync {
			return m, m.list.Refresh()
		}
	case kit.RoleMsg:
		m.role = msg.Role
	}
	if cmd, ok := m.editMsg(msg); ok {
		return m, cmd
	}
	cmd, handled := m.list.Update(msg, m.width)
	if kp, ok := msg.(tea.KeyPressMsg); ok && !handled {
		k := m.env.Keys
		if key.Matches(kp, k.Catalog.EditTable) {
			return m, m.edit()
		}
		if why, ok := k.Refused(kp, kit.AllKeys.Catalog.EditTable); ok && why != "" {
			return m, kit.Flash(kit.FlashWarn, why)
		}
	}
	return m, cmd
}

// View implements kit.Screen.
func (m *Screen) View() string {
	st := m.env.Styles
	note := fmt.Sprintf("%d tables · injected into the SQL jobs that use them", len(m.list.Rows()))
	return m.list.Box(st, st.Title.Render(m.Title()), note, m.width, m.height,
		func(w, h int) []string {
			return Lines(st, m.list.Rows(), m.list.Cursor(), m.list.Offset(), w, h, m.env.Now, m.drafts)
		},
		"loading tables…", "no catalog tables on "+m.cluster, "palink table add NAME --sql FILE, or table import NAME --jdbc URL")
}

// connector is a CREATE TABLE's 'connector' option, for the list.
func connector(sql string) string {
	_, rest, ok := strings.Cut(sql, "'connector'")
	if !ok {
		return "-"
	}
	_, rest, ok = strings.Cut(rest, "'")
	if !ok {
		return "-"
	}
	v, _, _ := strings.Cut(rest, "'")
	return v
}

// columns are the list's for a list w cells wide: a narrow one keeps
// less of a table's name.
func columns(w int, now time.Time) kit.Columns[model.CatalogTable] {
	name := 18
	if w < 70 {
		name = 14
	}
	return kit.Columns[model.CatalogTable]{
		{Title: "NAME", Width: name, Cell: func(t model.CatalogTable) string { return t.Name }},
		{Title: "VER", Width: 4, Cell: func(t model.CatalogTable) string { return fmt.Sprintf("v%d", t.Version) }},
		{Title: "CONNECTOR", Width: 12, Cell: func(t model.CatalogTable) string { return connector(t.SQL) }},
		{Title: "BY", Width: 8, Cell: func(t model.CatalogTable) string { return t.Author }},
		{Title: "UPDATED", Width: 7, Cell: func(t model.CatalogTable) string { return kit.Since(now, t.CreatedAt) }},
		{Title: "NOTE", Cell: func(t model.CatalogTable) string { return t.Note }},
	}
}

// Lines renders the list (pure): a header row, one row per table, the
// cursor row reversed, and the cursor table's definition under it as far
// as the height allows; above it, why an edit of it is not saved, and
// where it is kept (drafts, by table).
func Lines(st *kit.Styles, ts []model.CatalogTable, cursor, offset, w, h int, now time.Time, drafts map[string]draft) []string {
	page := max(min(len(ts), (h-1)/2), 1)
	offset = kit.ScrollTo(cursor, offset, page, len(ts))
	out := columns(w, now).Lines(st, ts, cursor, offset, offset+page, w)
	if cursor < 0 || cursor >= len(ts) {
		return out
	}
	room := h - len(out) - 1
	if room < 2 {
		return out
	}
	out = append(out, "")
	if d, ok := drafts[ts[cursor].Name]; ok {
		for _, l := range kit.Wrap("✖ your edit is not saved: "+d.why, max(w-2, 10)) {
			out = append(out, " "+st.Error.Render(l))
		}
		out = append(out, " "+st.Dim.Render(kit.Truncate("e edits it again · kept in "+d.file.shown, max(w-2, 1))), "",
			" "+st.Title.Render(fmt.Sprintf("v%d as saved", ts[cursor].Version)))
		room = h - len(out)
	}
	for _, l := range strings.Split(ts[cursor].SQL, "\n") {
		if room <= 0 {
			break
		}
		out = append(out, " "+st.Dim.Render(kit.Truncate(l, w-2)))
		room--
	}
	if len(out) > h {
		out = out[:h]
	}
	return out
}
