package projects

import (
	"context"
	"fmt"
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
	env       *kit.Env
	projects  []model.Project
	artifacts map[string][]model.Artifact

	list          kit.List
	loads         kit.Refresher
	load          kit.Loading
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
func Load(c kit.Call, seq int) tea.Cmd {
	return func() tea.Msg {
		msg := LoadedMsg{Seq: seq, Artifacts: map[string][]model.Artifact{}}
		msg.Err = c.With(func(ctx context.Context) error {
			ps, err := c.Svc.Projects(ctx)
			if err != nil {
				return err
			}
			msg.Projects = ps
			for _, p := range ps {
				as, err := c.Svc.Artifacts(ctx, p.Name)
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
	m := &Screen{env: e, loads: kit.NewRefresher(e, func(seq int) tea.Cmd { return Load(e.Call(), seq) })}
	return m, m.loads.Refresh()
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

// Help is the view's keys, for its `?` help and the README's keymap.
func Help(k kit.KeyMap) [][]key.Binding {
	return [][]key.Binding{k.Nav.Bindings(), {k.Build.Start, k.Nav.Refresh}}
}

func (m *Screen) page() int { return max(min(len(m.projects), (m.height-2)/2), 1) }

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
		keep, flash := m.load.Take("load:projects", msg.Err)
		if keep {
			m.projects, m.artifacts = msg.Projects, msg.Artifacts
			m.list.Fit(len(m.projects), m.page())
		}
		return m, tea.Batch(again, flash)
	case BuiltMsg:
		return m, m.loads.Refresh()
	case tea.KeyPressMsg:
		k := m.env.Keys
		if m.list.Key(k, msg, len(m.projects), m.page()) {
			return m, nil
		}
		if why, refused := k.Refused(msg, kit.AllKeys.Build.Start); refused {
			return m, kit.Flash(kit.FlashWarn, why)
		}
		if key.Matches(msg, k.Build.Start) && m.list.Cursor >= 0 && m.list.Cursor < len(m.projects) {
			s, init := NewBuild(m.env, m.projects[m.list.Cursor])
			return m, kit.Send(kit.PushMsg{Screen: s, Init: init})
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
	if text, show := m.load.Placeholder(st, len(m.projects), "loading projects…",
		"no projects yet", "palink project add NAME --repo URL --build CMD --artifact GLOB"); show {
		lines = kit.Centered(text, inner, h-2)
	} else {
		lines = Lines(st, m.projects, m.artifacts, m.list.Cursor, m.list.Offset, inner, h-2, m.env.Now)
	}
	return kit.Box(st, st.Title.Render(m.Title()), kit.Plural(len(m.projects), "project"), lines, w, h)
}

// Lines renders the list and the cursor's artifacts (pure): a header, a
// row per project, the cursor's row reversed; then its artifacts in the
// rows left.
func Lines(st *kit.Styles, ps []model.Project, arts map[string][]model.Artifact, cursor, offset, w, h int, now time.Time) []string {
	out := []string{st.ColumnHeader.Render(fmt.Sprintf("  %-16s %-10s %-22s %s", "PROJECT", "REF", "NEWEST", "REPOSITORY"))}
	page := max(min(len(ps), h/2-1), 1)
	offset = kit.ScrollTo(cursor, offset, page, len(ps))
	for i := offset; i < min(offset+page, len(ps)); i++ {
		p := ps[i]
		newest := kit.NoValue
		if as := arts[p.Name]; len(as) > 0 {
			a := as[len(as)-1]
			newest = fmt.Sprintf("v%d %.7s %s", a.Version, a.Commit, kit.Ago(now, a.BuiltAt))
		}
		ref := p.Ref
		if ref == "" {
			ref = "HEAD"
		}
		row := fmt.Sprintf("%-16s %-10s %-22s %s", kit.Truncate(p.Name, 16), kit.Truncate(ref, 10), kit.Truncate(newest, 22), p.Repo)
		if i == cursor {
			out = append(out, st.Cursor.Render(kit.Fit("▸ "+kit.Truncate(row, max(w-2, 1)), w)))
		} else {
			out = append(out, "  "+kit.Truncate(row, max(w-2, 1)))
		}
	}
	if cursor < 0 || cursor >= len(ps) {
		return out
	}
	p := ps[cursor]
	out = append(out, "", " "+st.Title.Render("Artifacts of "+p.Name)+st.Dim.Render(" · "+kit.Truncate(p.Build+" → "+p.Artifact, max(w-20-len(p.Name), 10))))
	as := arts[p.Name]
	if len(as) == 0 {
		return append(out, "  "+st.Dim.Render("none yet: palink project build "+p.Name))
	}
	out = append(out, st.ColumnHeader.Render(fmt.Sprintf("  %-5s %-8s %-10s %-10s %-8s %s", "VER", "COMMIT", "SIZE", "BUILT", "BY", "SUBJECT")))
	for i := len(as) - 1; i >= 0 && len(out) < h; i-- {
		a := as[i]
		row := fmt.Sprintf("  %-5s %-8.7s %-10s %-10s %-8s %s", fmt.Sprintf("v%d", a.Version), a.Commit, kit.Bytes(a.Size),
			kit.Ago(now, a.BuiltAt), kit.Truncate(a.BuiltBy, 8), a.Subject)
		out = append(out, kit.Truncate(row, w))
	}
	return out
}
