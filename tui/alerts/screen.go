package alerts

import (
	"cmp"
	"context"
	"fmt"
	"strings"
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
	env    *kit.Env
	alerts []model.Alert // every alert loaded
	rows   []model.Alert // those the filter lets through

	filter kit.Filter
	// silencing is the alert the footer's prompt asks a silence for.
	silence   textinput.Model
	silencing *model.Alert

	// undo is the last acknowledgement or silence, while u can take it
	// back; undoSeq numbers the offers, so an old one's end is ignored.
	undo    *undoOffer
	undoSeq int

	list          kit.List
	loaded        bool
	loads         kit.Refresher
	err           error
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
func Load(c kit.Call, f api.AlertFilter, seq int) tea.Cmd {
	return func() tea.Msg {
		var as []model.Alert
		err := c.With(func(ctx context.Context) (err error) {
			as, err = c.Svc.Alerts(ctx, f)
			return err
		})
		if err != nil {
			err = fmt.Errorf("list alerts: %w", err)
		}
		return LoadedMsg{Seq: seq, Alerts: as, Err: err}
	}
}

// New opens `:alerts`; open finds a job by id for enter (the jobs
// table's). Its Cmd loads the alerts.
func New(e *kit.Env, open func(id string) (api.JobView, bool)) (*Screen, tea.Cmd) {
	m := &Screen{env: e, open: open, filter: kit.NewFilter(e.Styles, "rule, job, state, value"),
		loads: kit.NewRefresher(e, func(seq int) tea.Cmd { return Load(e.Call(), api.AlertFilter{}, seq) })}
	return m, m.load()
}

func (m *Screen) load() tea.Cmd { return m.loads.Refresh() }

// Title implements kit.Screen.
func (m *Screen) Title() string { return "Alerts" }

// Capturing implements kit.Screen: the filter's or the silence's prompt
// has the keyboard.
func (m *Screen) Capturing() bool { return m.filter.Active() || m.silencing != nil }

// Back implements kit.Backer: esc clears a filter before it leaves.
func (m *Screen) Back() (tea.Cmd, bool) {
	if m.filter.Clear() {
		m.refilter()
		return nil, true
	}
	return nil, false
}

// ShortHelp implements kit.Screen.
func (m *Screen) ShortHelp() []key.Binding {
	if m.filter.Active() {
		return m.filter.ShortHelp(m.env.Keys)
	}
	if m.silencing != nil {
		return []key.Binding{m.env.Keys.Form.Confirm, m.env.Keys.Form.Cancel}
	}
	return shortHelp(m.env.Keys)
}

// refilter makes the rows from the alerts; the cursor stays on its alert
// (rule and job), wherever new ones list.
func (m *Screen) refilter() {
	prev := m.rows
	m.rows = nil
	for _, a := range m.alerts {
		if m.filter.Match(a.State.String(), a.Severity, a.Rule, a.JobName, a.Cluster, a.Value) {
			m.rows = append(m.rows, a)
		}
	}
	m.list.Cursor = kit.Follow(prev, m.list.Cursor, m.rows, model.Alert.Key)
	m.list.Fit(len(m.rows), m.page())
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
		current, again := m.loads.Done(msg.Seq)
		if !current {
			return m, nil
		}
		flash := kit.LoadFlash("load:alerts", msg.Err, m.err != nil)
		if msg.Err != nil {
			m.err = msg.Err
			return m, tea.Batch(again, flash)
		}
		m.err, m.loaded, m.alerts = nil, true, msg.Alerts
		m.refilter()
		return m, tea.Batch(again, flash)
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
		if m.filter.Active() {
			cmd, changed := m.filter.Update(m.env.Keys, msg, m.width)
			if changed {
				m.refilter()
				m.list.Cursor, m.list.Offset = 0, 0 // a new filter: its first match
			}
			return m, cmd
		}
		kp, ok := msg.(tea.KeyPressMsg)
		if !ok {
			return m, nil
		}
		k := m.env.Keys
		if m.list.Key(k, kp, len(m.rows), m.page()) {
			return m, nil
		}
		if cmd, ok := m.actKey(kp); ok {
			return m, cmd
		}
		switch {
		case key.Matches(kp, k.Nav.Filter):
			return m, m.filter.Open(m.width)
		case key.Matches(kp, k.Nav.Refresh):
			return m, m.load()
		case key.Matches(kp, k.Nav.Enter):
			if m.list.Cursor >= len(m.rows) {
				return m, nil
			}
			a := m.rows[m.list.Cursor]
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
	for _, a := range m.alerts {
		if a.State == model.AlertFiring {
			firing++
		}
	}
	note := fmt.Sprintf("%d firing · %d resolved", firing, len(m.alerts)-firing)
	var lines []string
	switch {
	case !m.loaded && m.err != nil:
		lines = kit.Centered(st.LoadFailed(m.err), inner, h-2)
	case !m.loaded:
		lines = kit.Centered(st.Dim.Render("loading alerts…"), inner, h-2)
	case len(m.alerts) == 0:
		lines = kit.Centered(st.Dim.Render("no alerts: every rule is quiet")+"\n"+st.Dim.Render("rules live in the config's alerts section"), inner, h-2)
	case len(m.rows) == 0:
		lines = kit.Centered(st.Dim.Render("no alert matches — esc clears the filter"), inner, h-2)
	default:
		lines = alertLines(st, m.rows, m.list.Cursor, m.list.Offset, inner, h-2, m.env.Now)
	}
	if m.silencing != nil && len(lines) > 0 {
		lines[len(lines)-1] = " " + m.silence.View()
	}
	title := st.Title.Render(m.Title())
	if f := m.filter.Title(st); f != "" {
		title += " " + f
	}
	return kit.Box(st, title, note, lines, w, h)
}

// alertColumns picks the columns a width allows; the value, which says
// what is wrong, takes the rest (severity shows in the state's colour too,
// and how long it fires is SINCE's age on a narrow screen).
func alertColumns(w int) (job, rule int, cluster, severity, dur, handled bool) {
	job, rule = 20, 16
	cluster, severity, dur, handled = w >= 150, w >= 135, w >= 70, w >= 100
	if w < 100 {
		job, rule = 16, 12
	}
	return
}

// alertLines renders the list (pure): a header row and one row per
// alert, the cursor row reversed.
func alertLines(st *kit.Styles, as []model.Alert, cursor, offset, w, h int, now time.Time) []string {
	jw, rw, withCluster, withSeverity, withDur, withHandled := alertColumns(w)
	head := fmt.Sprintf("  %-9s ", "STATE")
	if withSeverity {
		head += fmt.Sprintf("%-9s ", "SEVERITY")
	}
	head += fmt.Sprintf("%-*s %-*s ", rw, "RULE", jw, "JOB")
	if withCluster {
		head += fmt.Sprintf("%-9s ", "CLUSTER")
	}
	head += fmt.Sprintf("%-7s ", "SINCE")
	if withDur {
		head += fmt.Sprintf("%-7s ", "FOR")
	}
	if withHandled {
		head += fmt.Sprintf("%-*s ", handledWidth, "HANDLED")
	}
	head += "VALUE"
	out := []string{st.ColumnHeader.Render(head)}
	// The cursor's whole story goes under the list when its value is cut:
	// enter opens the job, so the value must be readable here.
	var story []string
	if cursor >= 0 && cursor < len(as) {
		a := as[cursor]
		text := cmp.Or(a.Message, a.Value)
		hand := handledText(a, now)
		if kit.Width(text) > max(w-valueAt(w), 10) || a.Message != "" && a.Message != a.Value || hand != "" {
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
	for i := offset; i < min(offset+page, len(as)); i++ {
		a := as[i]
		state := fmt.Sprintf("%-9s", a.State)
		dur := a.ResolvedAt.Sub(a.Since)
		if a.State == model.AlertFiring {
			dur = now.Sub(a.Since)
		}
		sevText := fmt.Sprintf("%-9s", a.Severity)
		row := fmt.Sprintf("%s ", state)
		if withSeverity {
			row += sevText + " "
		}
		row += fmt.Sprintf("%-*s %-*s ", rw, kit.Truncate(a.Rule, rw), jw, kit.Truncate(a.JobName, jw))
		if withCluster {
			row += fmt.Sprintf("%-9s ", kit.Truncate(a.Cluster, 9))
		}
		row += fmt.Sprintf("%-7s ", kit.Since(now, a.Since))
		if withDur {
			row += fmt.Sprintf("%-7s ", kit.Age(dur))
		}
		if withHandled {
			row += kit.Fit(handledCell(a, now), handledWidth) + " "
		}
		used := kit.Width(row) + 2
		row += kit.Truncate(a.Value, max(w-used, 10))
		if i == cursor {
			out = append(out, st.Cursor.Render(kit.Fit("▸ "+row, w)))
			continue
		}
		// Colour the state, and the severity of what fires.
		styled := st.StateFinal.Render(state)
		if a.State == model.AlertFiring {
			styled = st.AlertFiring.Render(state)
		}
		rest := strings.TrimPrefix(row, state)
		if withSeverity && a.State == model.AlertFiring && a.Severity == "critical" {
			rest = " " + st.Error.Render(sevText) + strings.TrimPrefix(rest, " "+sevText)
		}
		out = append(out, "  "+styled+rest)
	}
	return append(out, story...)
}

// valueAt is where the VALUE column starts in a list w cells wide.
func valueAt(w int) int {
	jw, rw, withCluster, withSeverity, withDur, withHandled := alertColumns(w)
	at := 2 + 10 + rw + 1 + jw + 1 + 8
	if withSeverity {
		at += 10
	}
	if withCluster {
		at += 10
	}
	if withDur {
		at += 8
	}
	if withHandled {
		at += handledWidth + 1
	}
	return at
}

// handledWidth is the HANDLED column's: "✓ alice ⏸ 59m".
const handledWidth = 16

// shortHelp is the footer's keys.
func shortHelp(k kit.KeyMap) []key.Binding {
	return []key.Binding{k.Nav.Enter, k.Alerts.Ack, k.Alerts.Silence, k.Alerts.Undo, k.Alerts.Unsilence, k.Nav.Filter, k.Nav.Refresh}
}

// Help is the view's keys, for its `?` help and the README's keymap.
func Help(k kit.KeyMap) [][]key.Binding {
	return [][]key.Binding{append(k.Nav.Bindings(), k.Nav.Enter), {k.Alerts.Ack, k.Alerts.Silence, k.Alerts.Unsilence, k.Alerts.Undo},
		{k.Nav.Filter, k.Nav.Refresh}}
}
