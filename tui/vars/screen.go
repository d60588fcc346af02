package vars

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

// Screen is `:vars [CLUSTER]`: the variables the cluster's jobs see, one
// row each, and the cursor's in depth under the list.
type Screen struct {
	env           *kit.Env
	cluster       string
	list          kit.Table[model.Variable]
	role          kit.Role
	width, height int
}

// LoadedMsg is Load's answer; Seq is the request's identity.
type LoadedMsg struct {
	Seq     int
	Cluster string
	Vars    []model.Variable
	Err     error
}

// Load lists the variables the jobs of cluster see.
func Load(c kit.Call[Service], cluster string, seq int) tea.Cmd {
	vars := func(ctx context.Context) ([]model.Variable, error) { return c.Service.Vars(ctx, cluster) }
	return kit.Get(c, "list the variables of cluster "+cluster, vars, func(vs []model.Variable, err error) tea.Msg {
		return LoadedMsg{Seq: seq, Cluster: cluster, Vars: vs, Err: err}
	})
}

// New opens `:vars` on a cluster; its Cmd loads the variables and who the
// user is.
func New(e *kit.Env, cluster string) (*Screen, tea.Cmd) {
	m := &Screen{env: e, cluster: cluster}
	m.list = kit.NewTable(e, kit.TableOf[model.Variable]{
		Key:    "load:vars",
		Load:   func(seq int) tea.Cmd { return Load(call(e), cluster, seq) },
		ID:     varID,
		Page:   m.page,
		Filter: "name, value",
		Match:  func(v model.Variable) []string { return []string{v.Name, v.Shown()} },
		Noun:   "variable",
	})
	c := call(e)
	return m, tea.Batch(m.list.Refresh(), kit.LoadRole(c, c.Service.WhoAmI))
}

func varID(v model.Variable) string { return v.Cluster + "/" + v.Name }

// Title implements kit.Screen.
func (m *Screen) Title() string { return "Variables @" + m.cluster }

// Capturing implements kit.Screen: the filter's prompt has the keyboard.
func (m *Screen) Capturing() bool { return m.list.Capturing() }

// Back implements kit.Backer: esc clears a filter before it leaves.
func (m *Screen) Back() (tea.Cmd, bool) { return m.list.Back() }

// ShortHelp implements kit.Screen.
func (m *Screen) ShortHelp() []key.Binding {
	k := m.env.Keys
	return m.list.ShortHelp(k.Catalog.SetVar, k.Catalog.EditVar, k.Catalog.UnsetVar, k.Nav.Filter, k.Nav.Refresh)
}

// FullHelp implements kit.Screen.
func (m *Screen) FullHelp() [][]key.Binding { return Help(m.env.Keys) }

// Help is the view's keys, for its `?` help and the keymap (docs/keys.md).
func Help(k kit.KeyMap) [][]key.Binding {
	return [][]key.Binding{k.Nav.Bindings(), {k.Catalog.SetVar, k.Catalog.EditVar, k.Catalog.UnsetVar, k.Nav.Filter, k.Nav.Refresh}}
}

func (m *Screen) page() int { return max(min(len(m.list.Rows()), (m.height-2)/2), 1) }

// UpdateKeys implements kit.KeyUpdater: the keys that change variables
// are the role table's to give (SetVar, RemoveVar), and editing or
// unsetting needs a row.
func (m *Screen) UpdateKeys(k *kit.KeyMap) {
	a := kit.AllKeys.Catalog
	if ok, why := m.role.May("SetVar"); !ok {
		k.Block(&k.Catalog.SetVar, a.SetVar, why)
		k.Block(&k.Catalog.EditVar, a.EditVar, why)
	}
	if ok, why := m.role.May("RemoveVar"); !ok {
		k.Block(&k.Catalog.UnsetVar, a.UnsetVar, why)
	}
	if _, ok := m.list.Selected(); !ok {
		k.Block(&k.Catalog.EditVar, a.EditVar, "no variable to change")
		k.Block(&k.Catalog.UnsetVar, a.UnsetVar, "no variable to unset")
	}
}

// Update implements kit.Screen.
func (m *Screen) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case LoadedMsg:
		if msg.Cluster != m.cluster {
			return m, nil
		}
		_, cmd := m.list.Loaded(msg.Seq, msg.Vars, msg.Err)
		return m, cmd
	case kit.RoleMsg:
		m.role = msg.Role
	case setMsg:
		if msg.err == nil && msg.screen == m.cluster {
			return m, m.list.Refresh()
		}
	case unsetMsg:
		if msg.screen != m.cluster {
			return m, nil
		}
		if msg.err != nil {
			return m, kit.Flash(kit.FlashError, msg.err.Error())
		}
		return m, tea.Batch(m.list.Refresh(), kit.Flash(kit.FlashInfo, "unset "+describe(msg.ref.Name, msg.ref.Cluster)))
	case kit.ChangeMsg:
		if msg.Change.Kind == api.Resync {
			return m, m.list.Refresh()
		}
	case tea.KeyPressMsg, tea.PasteMsg:
		if cmd, ok := m.list.Update(msg, m.width); ok {
			if key.Matches(asKey(msg), m.env.Keys.Nav.Refresh) {
				c := call(m.env)
				cmd = tea.Batch(cmd, kit.LoadRole(c, c.Service.WhoAmI))
			}
			return m, cmd
		}
		if kp, ok := msg.(tea.KeyPressMsg); ok {
			return m, m.key(kp)
		}
	}
	return m, nil
}

func asKey(msg tea.Msg) tea.KeyPressMsg {
	k, _ := msg.(tea.KeyPressMsg)
	return k
}

func (m *Screen) key(msg tea.KeyPressMsg) tea.Cmd {
	k := m.env.Keys
	switch {
	case key.Matches(msg, k.Catalog.SetVar):
		return kit.Send(kit.OpenDialogMsg{Dialog: newForm(m.env, m.cluster, nil)})
	case key.Matches(msg, k.Catalog.EditVar):
		if v, ok := m.list.Selected(); ok {
			return kit.Send(kit.OpenDialogMsg{Dialog: newForm(m.env, m.cluster, &v)})
		}
	case key.Matches(msg, k.Catalog.UnsetVar):
		if v, ok := m.list.Selected(); ok {
			return kit.Send(kit.OpenDialogMsg{Dialog: m.confirmUnset(v)})
		}
	}
	if why, ok := k.Refused(msg, kit.AllKeys.Catalog.SetVar, kit.AllKeys.Catalog.EditVar, kit.AllKeys.Catalog.UnsetVar); ok && why != "" {
		return kit.Flash(kit.FlashWarn, why)
	}
	return nil
}

// confirmUnset asks before v goes: what the jobs that write it get then.
func (m *Screen) confirmUnset(v model.Variable) kit.Dialog {
	after := "Jobs of every cluster that write ${" + v.Name + "} and have no variable of their own are refused at their next deploy."
	if v.Cluster != "" {
		after = "Jobs of " + v.Cluster + " that write ${" + v.Name + "} get the variable of every cluster, if there is one; else they are refused at their next deploy."
	}
	ref := api.VarRef{Cluster: v.Cluster, Name: v.Name}
	return kit.NewConfirm(m.env, "Unset "+describe(v.Name, v.Cluster)+"?", []string{"Now " + v.Shown() + ".", after},
		"Unset", unsetCmd(call(m.env), m.cluster, ref))
}

// describe names a variable with its scope: "${db_pass} of cluster prod".
func describe(name, cluster string) string {
	if cluster == "" {
		return "${" + name + "} of every cluster"
	}
	return "${" + name + "} of cluster " + cluster
}

// unsetMsg is RemoveVar's answer; screen is the cluster of the view that
// asked.
type unsetMsg struct {
	screen string
	ref    api.VarRef
	err    error
}

func unsetCmd(c kit.Call[Service], screen string, ref api.VarRef) tea.Cmd {
	return func() tea.Msg {
		err := c.With(func(ctx context.Context) error { return c.Service.RemoveVar(ctx, ref) })
		if err != nil {
			err = fmt.Errorf("unset %s: %w", describe(ref.Name, ref.Cluster), err)
		}
		return unsetMsg{screen: screen, ref: ref, err: err}
	}
}

// View implements kit.Screen.
func (m *Screen) View() string {
	st := m.env.Styles
	note := kit.Plural(len(m.list.Items()), "variable") + " · ${name} in the SQL of " + m.cluster + "'s jobs"
	if ok, why := m.role.May("SetVar"); !ok && m.role.Known {
		note = kit.Plural(len(m.list.Items()), "variable") + " · " + st.Dim.Render("read-only: "+why)
	}
	return m.list.Box(st, m.list.Title(st, m.Title()), note, m.width, m.height,
		func(w, h int) []string {
			return Lines(st, m.list.Rows(), m.list.Cursor(), m.list.Offset(), w, h, m.env.Now)
		},
		"loading variables…", "no variables for "+m.cluster, "a sets one (an admin's), or palink var set NAME VALUE --cluster "+m.cluster)
}

// columns are the list's. A secret's value is its Shown form, whatever
// the service sent: masked, with where it comes from.
func columns(now time.Time) kit.Columns[model.Variable] {
	type v = model.Variable
	return kit.Columns[v]{
		{Title: "NAME", Fit: true, Width: 8, Max: 24, Cell: func(v v) string { return v.Name }},
		{Title: "CLUSTER", Fit: true, Width: 7, Max: 14, Cell: func(v v) string { return scope(v.Cluster) }},
		{Title: "VALUE", Flex: true, Min: 12, Cell: model.Variable.Shown,
			Style: func(st *kit.Styles, v v, s string) string {
				if v.Secret() {
					return st.Dim.Render(s)
				}
				return s
			}},
		{Title: "BY", Width: 8, Drop: 2, Cell: func(v v) string { return v.Author }},
		{Title: "UPDATED", Width: 7, Drop: 1, Cell: func(v v) string { return kit.Since(now, v.UpdatedAt) }},
	}
}

// scope is a variable's cluster in the list: "*" for every cluster's, as
// `palink var list` says.
func scope(cluster string) string {
	if cluster == "" {
		return "*"
	}
	return cluster
}

// Lines renders the list (pure): a header, a row per variable, the
// cursor's reversed; then the cursor's variable in depth, as far as the
// height allows.
func Lines(st *kit.Styles, vs []model.Variable, cursor, offset, w, h int, now time.Time) []string {
	page := max(min(len(vs), h/2-1), 1)
	offset = kit.ScrollTo(cursor, offset, page, len(vs))
	out := columns(now).Lines(st, vs, cursor, offset, offset+page, w)
	if cursor < 0 || cursor >= len(vs) {
		return out
	}
	v := vs[cursor]
	out = append(out, "", " "+st.Title.Render("${"+v.Name+"}")+st.Dim.Render(kit.Truncate(" · "+strings.TrimPrefix(describe(v.Name, v.Cluster), "${"+v.Name+"} "), max(w-4-len(v.Name), 1))))
	var about string
	switch {
	case v.SecretEnv != "":
		about = "secret: read from the environment variable " + v.SecretEnv + " of the process that deploys, when a job deploys"
	case v.SecretFile != "":
		about = "secret: read from the file " + v.SecretFile + " when a job deploys"
	case v.SecretCmd != "":
		// Only the program: a command line may carry a token of its own.
		about = "secret: the output of a command (" + program(v.SecretCmd) + " …), run when a job deploys"
	default:
		about = "= " + v.Value
	}
	if v.Secret() {
		about += "; palink never keeps or shows the value"
	}
	for _, l := range kit.Wrap(about, max(w-3, 10)) {
		out = append(out, "  "+l)
	}
	if v.Author != "" {
		out = append(out, "  "+st.Dim.Render(kit.Truncate("set by "+v.Author+" "+kit.Ago(now, v.UpdatedAt), max(w-3, 1))))
	}
	if len(out) > h {
		out = out[:h]
	}
	return out
}

// program is a command line's first word.
func program(cmd string) string {
	if f := strings.Fields(cmd); len(f) > 0 {
		return f[0]
	}
	return ""
}
