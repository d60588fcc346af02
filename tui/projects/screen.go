package projects

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/kit"
)

// Screen is `:projects`: one row per project with its newest artifact, and
// under the list the artifacts of the project under the cursor, newest
// first.
type Screen struct {
	env           *kit.Env
	list          kit.Table[model.Project]
	artifacts     map[string][]model.Artifact
	width, height int
}

// LoadedMsg is Load's answer; Seq is the request's identity.
type LoadedMsg struct {
	Seq       int
	Projects  []model.Project
	Artifacts map[string][]model.Artifact
	Err       error
}

// Load lists the projects and each one's artifacts.
func Load(c kit.Call[Service], seq int) tea.Cmd {
	return func() tea.Msg {
		msg := LoadedMsg{Seq: seq, Artifacts: map[string][]model.Artifact{}}
		msg.Err = c.With(func(ctx context.Context) error {
			ps, err := c.Service.Projects(ctx)
			if err != nil {
				return err
			}
			msg.Projects = ps
			for _, p := range ps {
				as, err := c.Service.Artifacts(ctx, p.Name)
				if err != nil {
					return err
				}
				msg.Artifacts[p.Name] = as
			}
			return nil
		})
		if msg.Err != nil {
			msg.Err = fmt.Errorf("list projects: %w", msg.Err)
		}
		return msg
	}
}

// New opens `:projects`; its Cmd loads them.
func New(e *kit.Env) (*Screen, tea.Cmd) {
	m := &Screen{env: e}
	m.list = kit.NewTable(e, kit.TableOf[model.Project]{
		Key:  "load:projects",
		Load: func(seq int) tea.Cmd { return Load(call(e), seq) },
		ID:   func(p model.Project) string { return p.Name },
		Page: m.page,
	})
	return m, m.list.Refresh()
}

// Title implements kit.Screen.
func (m *Screen) Title() string { return "Projects" }

// Capturing implements kit.Screen: nothing takes the keyboard.
func (m *Screen) Capturing() bool { return false }

// ShortHelp implements kit.Screen.
func (m *Screen) ShortHelp() []key.Binding {
	return []key.Binding{m.env.Keys.Build.Start, m.env.Keys.Nav.Refresh}
}

// FullHelp implements kit.Screen.
func (m *Screen) FullHelp() [][]key.Binding { return Help(m.env.Keys) }

// Help is the view's keys, for its `?` help and the keymap (docs/keys.md).
func Help(k kit.KeyMap) [][]key.Binding {
	return [][]key.Binding{k.Nav.Bindings(), {k.Build.Start, k.Nav.Refresh}}
}

func (m *Screen) page() int { return max(min(len(m.list.Rows()), (m.height-2)/2), 1) }

// Update implements kit.Screen.
func (m *Screen) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case LoadedMsg:
		keep, cmd := m.list.Loaded(msg.Seq, msg.Projects, msg.Err)
		if keep {
			m.artifacts = msg.Artifacts
		}
		return m, cmd
	case BuiltMsg:
		return m, m.list.Refresh()
	case tea.KeyPressMsg:
		if cmd, ok := m.list.Update(msg, m.width); ok {
			return m, cmd
		}
		k := m.env.Keys
		if why, refused := k.Refused(msg, kit.AllKeys.Build.Start); refused {
			return m, kit.Flash(kit.FlashWarn, why)
		}
		if p, ok := m.list.Selected(); ok && key.Matches(msg, k.Build.Start) {
			s, init := NewBuild(m.env, p)
			return m, kit.Send(kit.PushMsg{Screen: s, Init: init})
		}
	}
	return m, nil
}

// View implements kit.Screen.
func (m *Screen) View() string {
	st := m.env.Styles
	return m.list.Box(st, st.Title.Render(m.Title()), kit.Plural(len(m.list.Rows()), "project"), m.width, m.height,
		func(w, h int) []string {
			return Lines(st, m.list.Rows(), m.artifacts, m.list.Cursor(), m.list.Offset(), w, h, m.env.Now)
		},
		"loading projects…", "no projects yet", "palink project add NAME --repo URL --build CMD --artifact GLOB")
}

// columns are the list's: a project, the ref it builds and its newest
// artifact (version, commit, age), then its repository as far as the row
// reaches.
func columns(arts map[string][]model.Artifact, now time.Time) kit.Columns[model.Project] {
	return kit.Columns[model.Project]{
		{Title: "PROJECT", Width: 16, Cell: func(p model.Project) string { return p.Name }},
		{Title: "REF", Width: 10, Cell: func(p model.Project) string { return cmp.Or(p.Ref, "HEAD") }},
		{Title: "NEWEST", Width: 22, Cell: func(p model.Project) string {
			as := arts[p.Name]
			if len(as) == 0 {
				return kit.NoValue
			}
			a := as[len(as)-1]
			return fmt.Sprintf("v%d %.7s %s", a.Version, a.Commit, kit.Ago(now, a.BuiltAt))
		}},
		{Title: "REPOSITORY", Cell: func(p model.Project) string { return p.Repo }},
	}
}

// artifactColumns are the cursor's project's artifacts, newest first.
func artifactColumns(now time.Time) kit.Columns[model.Artifact] {
	return kit.Columns[model.Artifact]{
		{Title: "VER", Width: 5, Cell: func(a model.Artifact) string { return fmt.Sprintf("v%d", a.Version) }},
		{Title: "COMMIT", Width: 8, Cell: func(a model.Artifact) string { return fmt.Sprintf("%.7s", a.Commit) }},
		{Title: "SIZE", Width: 10, Cell: func(a model.Artifact) string { return kit.Bytes(a.Size) }},
		{Title: "BUILT", Width: 10, Cell: func(a model.Artifact) string { return kit.Ago(now, a.BuiltAt) }},
		{Title: "BY", Width: 8, Cell: func(a model.Artifact) string { return a.BuiltBy }},
		{Title: "SUBJECT", Cell: func(a model.Artifact) string { return a.Subject }},
	}
}

// Lines renders the list and the cursor's artifacts (pure): a header, a
// row per project, the cursor's row reversed; then its artifacts in the
// rows left.
func Lines(st *kit.Styles, ps []model.Project, arts map[string][]model.Artifact, cursor, offset, w, h int, now time.Time) []string {
	page := max(min(len(ps), h/2-1), 1)
	offset = kit.ScrollTo(cursor, offset, page, len(ps))
	out := columns(arts, now).Lines(st, ps, cursor, offset, offset+page, w)
	if cursor < 0 || cursor >= len(ps) {
		return out
	}
	p := ps[cursor]
	out = append(out, "", " "+st.Title.Render("Artifacts of "+p.Name)+st.Dim.Render(" · "+kit.Truncate(p.Build+" → "+p.Artifact, max(w-20-len(p.Name), 10))))
	as := slices.Clone(arts[p.Name])
	if len(as) == 0 {
		return append(out, "  "+st.Dim.Render("none yet: palink project build "+p.Name))
	}
	slices.Reverse(as)
	return append(out, artifactColumns(now).Lines(st, as, -1, 0, min(len(as), max(h-len(out)-1, 0)), w)...)
}
