package alerts

import (
	"cmp"
	"context"
	"fmt"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/kit"
)

// Screen is `:alerts`: firing alerts first, newest first, then the
// ones resolved within the last day, each with its rule, job, since and
// value; enter opens the job.
type Screen struct {
	env  *kit.Env
	list kit.Table[model.Alert]
	// silencing is the alert the footer's prompt asks a silence for.
	silence   textinput.Model
	silencing *model.Alert

	// undo is the last acknowledgement or silence, while u can take it
	// back; undoSeq numbers the offers, so an old one's end is ignored.
	undo    *undoOffer
	undoSeq int

	width, height int
	// open finds a job to open by id (the jobs table's).
	open func(id string) (api.JobView, bool)
}

// LoadedMsg is Load's answer; Seq is the request's identity.
type LoadedMsg struct {
	Seq    int
	Alerts []model.Alert
	Err    error
}

// Load lists the alerts that f selects.
func Load(c kit.Call[Service], f api.AlertFilter, seq int) tea.Cmd {
	alerts := func(ctx context.Context) ([]model.Alert, error) { return c.Service.Alerts(ctx, f) }
	return kit.Get(c, "list alerts", alerts, func(as []model.Alert, err error) tea.Msg {
		return LoadedMsg{Seq: seq, Alerts: as, Err: err}
	})
}

// New opens `:alerts`; open finds a job by id for enter (the jobs
// table's). Its Cmd loads the alerts.
func New(e *kit.Env, open func(id string) (api.JobView, bool)) (*Screen, tea.Cmd) {
	m := &Screen{env: e, open: open}
	m.list = kit.NewTable(e, kit.TableOf[model.Alert]{
		Key:    "load:alerts",
		Load:   func(seq int) tea.Cmd { return Load(call(e), api.AlertFilter{}, seq) },
		ID:     model.Alert.Key,
		Page:   m.page,
		Filter: "rule, job, state, value",
		Match: func(a model.Alert) []string {
			return []string{a.State.String(), a.Severity, a.Rule, a.JobName, a.Cluster, a.Value}
		},
		Noun: "alert",
	})
	return m, m.load()
}

func (m *Screen) load() tea.Cmd { return m.list.Refresh() }

// Title implements kit.Screen.
func (m *Screen) Title() string { return "Alerts" }

// Capturing implements kit.Screen: the filter's or the silence's prompt
// has the keyboard.
func (m *Screen) Capturing() bool { return m.list.Capturing() || m.silencing != nil }

// Back implements kit.Backer: esc clears a filter before it leaves.
func (m *Screen) Back() (tea.Cmd, bool) { return m.list.Back() }

// ShortHelp implements kit.Screen.
func (m *Screen) ShortHelp() []key.Binding {
	if m.silencing != nil && !m.list.Capturing() {
		return []key.Binding{m.env.Keys.Form.Confirm, m.env.Keys.Form.Cancel}
	}
	return m.list.ShortHelp(shortHelp(m.env.Keys)...)
}

// FullHelp implements kit.Screen.
func (m *Screen) FullHelp() [][]key.Binding { return Help(m.env.Keys) }
func (m *Screen) page() int                 { return max(m.height-3, 1) }

// Update implements kit.Screen.
func (m *Screen) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case LoadedMsg:
		_, cmd := m.list.Loaded(msg.Seq, msg.Alerts, msg.Err)
		return m, cmd
	case kit.ChangeMsg:
		if k := msg.Change.Kind; k == api.AlertsChanged || k == api.Resync {
			return m, m.load()
		}
	case actedMsg:
		return m, m.acted(msg)
	case undoExpiredMsg:
		if m.undo != nil && m.undo.seq == msg.seq {
			m.undo = nil
		}
	case tea.KeyPressMsg, tea.PasteMsg:
		if m.silencing != nil {
			return m, m.silenceKey(msg)
		}
		if cmd, ok := m.list.Update(msg, m.width); ok {
			return m, cmd
		}
		kp, ok := msg.(tea.KeyPressMsg)
		if !ok {
			return m, nil
		}
		if cmd, ok := m.actKey(kp); ok {
			return m, cmd
		}
		if a, ok := m.list.Selected(); ok && key.Matches(kp, m.env.Keys.Nav.Enter) {
			if j, ok := m.open(a.JobID); ok {
				return m, kit.Send(kit.OpenDetailMsg{Job: j})
			}
			return m, kit.Flash(kit.FlashWarn, fmt.Sprintf("job %s is not in the jobs table", a.JobName))
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
	firing := 0
	for _, a := range m.list.Items() {
		if a.State == model.AlertFiring {
			firing++
		}
	}
	note := fmt.Sprintf("%d firing · %d resolved", firing, len(m.list.Items())-firing)
	var lines []string
	if text, show := m.list.Placeholder(st, "loading alerts…",
		"no alerts: every rule is quiet", "rules live in the config's alerts section"); show {
		lines = kit.Centered(text, inner, h-2)
	} else {
		lines = alertLines(st, m.list.Rows(), m.list.Cursor(), m.list.Offset(), inner, h-2, m.env.Now)
	}
	if m.silencing != nil && len(lines) > 0 {
		lines[len(lines)-1] = " " + m.silence.View()
	}
	return kit.Box(st, m.list.Title(st, m.Title()), note, lines, w, h)
}

// alertColumns are the columns a list w cells wide allows; the value,
// which says what is wrong, takes the rest (severity shows in the state's
// colour too, and how long it fires is SINCE's age on a narrow screen).
func alertColumns(w int, now time.Time) kit.Columns[model.Alert] {
	type a = model.Alert
	job, rule := 20, 16
	if w < 100 {
		job, rule = 16, 12
	}
	var cols kit.Columns[a]
	add := func(show bool, c kit.Column[a]) {
		if show {
			cols = append(cols, c)
		}
	}
	add(true, kit.Column[a]{Title: "STATE", Width: 9, Cell: func(a a) string { return a.State.String() },
		Style: func(st *kit.Styles, a a, s string) string {
			if a.State == model.AlertFiring {
				return st.AlertFiring.Render(s)
			}
			return st.StateFinal.Render(s)
		}})
	add(w >= 135, kit.Column[a]{Title: "SEVERITY", Width: 9, Cell: func(a a) string { return a.Severity },
		Style: func(st *kit.Styles, a a, s string) string {
			if a.State == model.AlertFiring && a.Severity == "critical" {
				return st.Error.Render(s)
			}
			return s
		}})
	add(true, kit.Column[a]{Title: "RULE", Width: rule, Cell: func(a a) string { return a.Rule }})
	add(true, kit.Column[a]{Title: "JOB", Width: job, Cell: func(a a) string { return a.JobName }})
	add(w >= 150, kit.Column[a]{Title: "CLUSTER", Width: 9, Cell: func(a a) string { return a.Cluster }})
	add(true, kit.Column[a]{Title: "SINCE", Width: 7, Cell: func(a a) string { return kit.Since(now, a.Since) }})
	add(w >= 70, kit.Column[a]{Title: "FOR", Width: 7, Cell: func(a a) string {
		if a.State == model.AlertFiring {
			return kit.Age(now.Sub(a.Since))
		}
		return kit.Age(a.ResolvedAt.Sub(a.Since))
	}})
	add(w >= 100, kit.Column[a]{Title: "HANDLED", Width: handledWidth, Cell: func(a a) string { return handledCell(a, now) }})
	add(true, kit.Column[a]{Title: "VALUE", Cell: func(a a) string { return a.Value }})
	return cols
}

// alertLines renders the list (pure): a header row and one row per
// alert, the cursor row reversed.
func alertLines(st *kit.Styles, as []model.Alert, cursor, offset, w, h int, now time.Time) []string {
	cols := alertColumns(w, now)
	// The cursor's whole story goes under the list when its value is cut:
	// enter opens the job, so the value must be readable here.
	var story []string
	if cursor >= 0 && cursor < len(as) {
		a := as[cursor]
		text := cmp.Or(a.Message, a.Value)
		hand := handledText(a, now)
		valueAt := kit.Gutter + cols.Lay(nil, w-kit.Gutter).At(len(cols)-1)
		if kit.Width(text) > max(w-valueAt, 10) || a.Message != "" && a.Message != a.Value || hand != "" {
			if hand != "" {
				text += "\n" + hand
			}
			story = append([]string{""}, kit.Wrap(text, w-2)...)
			for i := 1; i < len(story); i++ {
				story[i] = " " + st.Dim.Render(story[i])
			}
		}
	}
	page := max(h-1, 1)
	if len(as)+len(story) <= page {
		page -= len(story)
	} else {
		story = nil
	}
	offset = kit.ScrollTo(cursor, offset, page, len(as))
	return append(cols.Lines(st, as, cursor, offset, offset+page, w), story...)
}

// handledWidth is the HANDLED column's: "✓ alice ⏸ 59m".
const handledWidth = 16

// shortHelp is the footer's keys.
func shortHelp(k kit.KeyMap) []key.Binding {
	return []key.Binding{k.Nav.Enter, k.Alerts.Ack, k.Alerts.Silence, k.Alerts.Undo, k.Alerts.Unsilence, k.Nav.Filter, k.Nav.Refresh}
}

// Help is the view's keys, for its `?` help and the keymap (docs/keys.md).
func Help(k kit.KeyMap) [][]key.Binding {
	return [][]key.Binding{append(k.Nav.Bindings(), k.Nav.Enter), {k.Alerts.Ack, k.Alerts.Silence, k.Alerts.Unsilence, k.Alerts.Undo},
		{k.Nav.Filter, k.Nav.Refresh}}
}
