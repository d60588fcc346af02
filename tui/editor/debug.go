package editor

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/kit"
)

// A debug run starts from the editor (ctrl-d): a small form asks which
// file feeds which source table (remembered per job for the session), then
// the run screen streams the rows the sinks receive, with each row's lookup
// latency and a progress bar. The run itself is api.Debugger's, in this
// process: the TUI never imports the runner.

// debugInput is what the form holds: TABLE=FILE lines and a row limit.
type debugInput struct {
	data  string
	limit string
}

// Debugging is what the editor's debug runs are given where the session
// is wired: the debugger that runs them, and what the form may offer
// beside it, sample files of source tables and stand-ins of user
// functions. Each nil means not in this palink: no debug runs, no sample
// filled in, no stand-in offered.
type Debugging struct {
	Debugger api.Debugger
	Samples  api.DebugSamples
	StandIns api.DebugStandIns
}

// DebugRuns is what the editor keeps across its screens for debug runs:
// what it was given to run them with, and per job id the inputs last
// given to a run, for this session.
type DebugRuns struct {
	with   Debugging
	inputs map[string]debugInput
}

// NewDebugRuns is a session's debug runs with d.
func NewDebugRuns(d Debugging) *DebugRuns {
	return &DebugRuns{with: d, inputs: map[string]debugInput{}}
}

// debug opens the form of a debug run of the editor's text (saved or not:
// a debug run is how edits are tried before they are saved).
func (m *Screen) debug() tea.Cmd {
	switch {
	case m.runs.with.Debugger == nil:
		return kit.Flash(kit.FlashWarn, "debug runs are not available in this palink")
	case m.job.Kind != model.KindSQL:
		return kit.Flash(kit.FlashWarn, m.job.Name+" is a JAR job: debug runs are for SQL jobs")
	}
	in, ok := m.runs.inputs[m.job.ID]
	if !ok {
		in = debugInput{data: debugTemplate(m.buf.Text(), m.runs.with.Samples, m.runs.with.StandIns, m.injected.tables)}
	}
	// The run gets the cluster's catalog and variables, as a deploy does:
	// the script may use tables it does not define.
	base := api.DebugRequest{SQL: m.buf.Text(), File: m.job.Name, Catalog: m.assets.tables, Vars: m.assets.vars}
	if o := m.sqlOptions(); !o.Version.IsZero() {
		// What the cluster's release lacks refuses the run, as its check does.
		base.FlinkVersion, base.Target = o.Version.String(), o.Target
	}
	return kit.Send(kit.PushMsg{Screen: newDebugForm(m.env, m.runs, m.job, base, in)})
}

// debugForm asks for the data files of a run.
type debugForm struct {
	env  *kit.Env
	runs *DebugRuns
	job  api.JobView
	// base is the run without its inputs: the script, and the cluster's
	// catalog and variables.
	base  api.DebugRequest
	data  textarea.Model
	limit textinput.Model
	focus int // 0 data, 1 limit
	err   error

	width, height int
}

func newDebugForm(e *kit.Env, runs *DebugRuns, j api.JobView, base api.DebugRequest, in debugInput) *debugForm {
	ta := textarea.New()
	ta.Placeholder = "orders=/path/to/orders.jsonl"
	ta.ShowLineNumbers = false
	ta.SetStyles(e.Styles.Area)
	ta.SetVirtualCursor(true)
	ta.SetValue(in.data)
	ta.Focus()
	li := textinput.New()
	li.Prompt = ""
	li.Placeholder = "0 (all rows)"
	li.SetStyles(e.Styles.Input)
	li.SetVirtualCursor(true)
	li.SetValue(in.limit)
	return &debugForm{env: e, runs: runs, job: j, base: base, data: ta, limit: li}
}

func (f *debugForm) Title() string             { return f.job.Name + " · debug run" }
func (f *debugForm) Capturing() bool           { return true }
func (f *debugForm) ShortHelp() []key.Binding  { return debugFormShort(f.env.Keys) }
func (f *debugForm) FullHelp() [][]key.Binding { return [][]key.Binding{debugFormShort(f.env.Keys)} }

func (f *debugForm) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	k := f.env.Keys
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		f.width, f.height = msg.Width, msg.Height
		f.data.SetWidth(max(f.width-6, 20))
		f.data.SetHeight(max(f.height-10, 3))
		f.limit.SetWidth(20)
		return f, nil
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.Form.Cancel):
			return f, kit.Send(kit.PopMsg{})
		case key.Matches(msg, k.Debug.Run):
			in := debugInput{data: f.data.Value(), limit: f.limit.Value()}
			d, err := parseDebugInput(in)
			if err != nil {
				f.err = err
				return f, nil
			}
			f.runs.inputs[f.job.ID] = in
			r := f.base
			r.Data, r.Samples, r.Limit, r.StandIns = d.files, d.samples, d.limit, debugStandIns(in)
			s := newDebugScreen(f.env, f.runs.with.Debugger, f.job, r)
			_, size := s.Update(tea.WindowSizeMsg{Width: f.width, Height: f.height})
			return s, tea.Batch(size, s.start())
		case key.Matches(msg, k.Form.NextField), key.Matches(msg, k.Form.PrevField):
			f.focus = 1 - f.focus
			if f.focus == 1 {
				f.data.Blur()
				return f, f.limit.Focus()
			}
			f.limit.Blur()
			return f, f.data.Focus()
		}
		return f, f.toField(msg)
	case tea.PasteMsg:
		return f, f.toField(msg)
	}
	return f, nil
}

func (f *debugForm) toField(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	if f.focus == 0 {
		f.data, cmd = f.data.Update(msg)
	} else {
		f.limit, cmd = f.limit.Update(msg)
	}
	f.err = nil
	return cmd
}

func (f *debugForm) View() string {
	st := f.env.Styles
	if f.width <= 0 || f.height <= 0 {
		return ""
	}
	label := func(i int, s string) string {
		if f.focus == i {
			return st.Bold.Render("▸ " + s)
		}
		return "  " + st.Label.Render(s)
	}
	lines := []string{
		st.Dim.Render("  Runs the editor's SQL here, against these files and the real lookup databases; sinks are captured."),
		"",
		label(0, "data: one TABLE=FILE a line (JSON lines, or .csv with a header)"),
	}
	for _, l := range strings.Split(f.data.View(), "\n") {
		lines = append(lines, "  "+l)
	}
	lines = append(lines, "", label(1, "row limit per sink ")+" "+f.limit.View(), "")
	if f.err != nil {
		lines = append(lines, "  "+st.Error.Render("✖ "+f.err.Error()))
	} else {
		lines = append(lines, st.Dim.Render("  ctrl+d runs · tab switches field · esc cancels"))
	}
	return kit.Box(st, st.Title.Render("Debug run of "+f.job.Name), "", lines, f.width, f.height)
}

// Messages of a run. run is the screen's run id: a rerun drops the
// messages of the run before.
type debugStartedMsg struct {
	run int
	ch  <-chan api.DebugEvent
	err error
}

type debugEventsMsg struct {
	run    int
	ch     <-chan api.DebugEvent
	events []api.DebugEvent
	closed bool
}

func startDebugCmd(ctx context.Context, d api.Debugger, r api.DebugRequest, run int) tea.Cmd {
	return func() tea.Msg {
		ch, err := d.Debug(ctx, r)
		return debugStartedMsg{run: run, ch: ch, err: err}
	}
}

// readDebugCmd waits for the next events and takes every one already
// waiting, so that a fast run costs a redraw per batch, not per row.
func readDebugCmd(ch <-chan api.DebugEvent, run int) tea.Cmd {
	return func() tea.Msg {
		ev, ok := <-ch
		if !ok {
			return debugEventsMsg{run: run, ch: ch, closed: true}
		}
		evs := []api.DebugEvent{ev}
		for len(evs) < 512 {
			select {
			case ev, ok := <-ch:
				if !ok {
					return debugEventsMsg{run: run, ch: ch, events: evs, closed: true}
				}
				evs = append(evs, ev)
			default:
				return debugEventsMsg{run: run, ch: ch, events: evs}
			}
		}
		return debugEventsMsg{run: run, ch: ch, events: evs}
	}
}

// maxDebugRows bounds the rows a run screen keeps; `palink debug --out`
// keeps them all.
const maxDebugRows = 10000

// debugScreen is one debug run, live.
type debugScreen struct {
	env      *kit.Env
	debugger api.Debugger
	job      api.JobView
	req      api.DebugRequest

	run     int
	cancel  context.CancelFunc
	running bool
	stopped bool // the user cancelled
	done    bool // the finished event came
	err     error

	sources []api.DebugSource
	// injected are the catalog tables the run was given ("orders@v3"),
	// sampled the tables read from Kafka.
	injected []string
	sampled  []api.DebugSample
	sinks    []api.DebugSink
	lookups  []api.DebugLookup
	// skipped are what sources' ignore-parse-errors passed over.
	skipped []api.DebugSkipped
	read    map[string]int64
	elapsed time.Duration

	rows      []api.DebugRow
	total     int  // rows received, also those not kept
	changelog bool // a row was an update or a delete: rows show their kind
	// final shows the tables the updating sinks end up holding instead of
	// the changelog they received (f, once the run is done).
	final     bool
	widths    map[string][]int
	latencies []time.Duration
	p50, p99  time.Duration

	// The rows on screen scroll by hand: they stream in while the view
	// follows them, and following is being at the last page.
	offset        int
	follow        bool
	width, height int
}

func newDebugScreen(e *kit.Env, d api.Debugger, j api.JobView, r api.DebugRequest) *debugScreen {
	return &debugScreen{env: e, debugger: d, job: j, req: r, follow: true, widths: map[string][]int{}}
}

// start begins a run, cancelling the one before, if any.
func (m *debugScreen) start() tea.Cmd {
	if m.cancel != nil {
		m.cancel()
	}
	ctx, cancel := context.WithCancel(m.env.Ctx)
	m.run, m.cancel = m.env.NextSeq(), cancel
	m.running, m.stopped, m.done, m.err = true, false, false, nil
	m.sources, m.sinks, m.lookups, m.read, m.elapsed = nil, nil, nil, map[string]int64{}, 0
	m.injected, m.sampled = nil, nil
	m.rows, m.total, m.widths, m.latencies, m.p50, m.p99 = nil, 0, map[string][]int{}, nil, 0, 0
	m.offset, m.follow, m.final = 0, true, false
	return startDebugCmd(ctx, m.debugger, m.req, m.run)
}

func (m *debugScreen) Title() string   { return m.job.Name + " · debug run" }
func (m *debugScreen) Capturing() bool { return m.running }

func (m *debugScreen) ShortHelp() []key.Binding  { return debugShort(m.env.Keys, m.running) }
func (m *debugScreen) FullHelp() [][]key.Binding { return debugFull(m.env.Keys) }

// Interrupt is ctrl-c: it cancels a run instead of quitting.
func (m *debugScreen) Interrupt() (tea.Cmd, bool) {
	if !m.running {
		return nil, false
	}
	m.stop()
	return nil, true
}

func (m *debugScreen) stop() {
	if m.cancel != nil && m.running {
		m.cancel()
		m.stopped = true
	}
}

func (m *debugScreen) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case debugStartedMsg:
		if msg.run != m.run {
			return m, nil
		}
		if msg.err != nil {
			m.running, m.err = false, msg.err
			return m, nil
		}
		return m, readDebugCmd(msg.ch, msg.run)
	case debugEventsMsg:
		if msg.run != m.run {
			return m, nil
		}
		for _, ev := range msg.events {
			m.apply(ev)
		}
		m.percentiles()
		if msg.closed {
			m.running = false
			if m.cancel != nil {
				m.cancel()
			}
			if !m.done && m.err == nil && !m.stopped {
				m.err = fmt.Errorf("debug run of %s ended without a result", m.job.Name)
			}
			return m, nil
		}
		return m, readDebugCmd(msg.ch, msg.run)
	case tea.KeyPressMsg:
		return m, m.key(msg)
	}
	return m, nil
}

func (m *debugScreen) key(msg tea.KeyPressMsg) tea.Cmd {
	k := m.env.Keys
	switch {
	case m.running && key.Matches(msg, k.Debug.Cancel):
		m.stop()
		return nil
	case !m.running && key.Matches(msg, k.Debug.Again):
		return m.start()
	case key.Matches(msg, k.Debug.Final):
		if !m.done || !m.updating() {
			return kit.Flash(kit.FlashInfo, "no sink received updates: what it received is its table")
		}
		m.final = !m.final
		m.offset, m.follow = 0, !m.final
		return nil
	}
	page := max(m.tableHeight()-1, 1)
	n := max(len(m.shown())-page, 0) + 1
	if kit.ListNav(k, msg, &m.offset, n, page) {
		m.follow = m.offset >= n-1
	}
	return nil
}

// apply takes one event into the screen's state.
func (m *debugScreen) apply(ev api.DebugEvent) {
	switch ev.Kind {
	case api.DebugStarted:
		m.sources, m.sinks, m.lookups = ev.Sources, ev.Sinks, ev.Lookups
		m.injected, m.sampled = ev.Injected, ev.Sampled
	case api.DebugProgress:
		m.read, m.elapsed = ev.Read, ev.Elapsed
	case api.DebugRowReceived:
		r := *ev.Row
		m.total++
		if r.Kind != "" && r.Kind != "+I" {
			m.changelog = true
		}
		if r.Lookup > 0 {
			m.latencies = append(m.latencies, r.Lookup)
		}
		if len(m.rows) < maxDebugRows {
			m.rows = append(m.rows, r)
			w := m.widths[r.Sink]
			for i, v := range r.Values {
				if i >= len(w) {
					w = append(w, 0)
				}
				w[i] = max(w[i], min(kit.Width(v), 40))
			}
			m.widths[r.Sink] = w
		}
	case api.DebugFinished:
		m.done = true
		if ev.Read != nil {
			m.read = ev.Read
		}
		m.elapsed = ev.Elapsed
		if len(ev.Sinks) > 0 {
			m.sinks = ev.Sinks
		}
		if len(ev.Lookups) > 0 {
			m.lookups = ev.Lookups
		}
		m.skipped = ev.Skipped
		if ev.Err != nil && !m.stopped {
			m.err = ev.Err
		}
	}
}

func (m *debugScreen) percentiles() {
	if len(m.latencies) == 0 {
		return
	}
	s := slices.Clone(m.latencies)
	slices.Sort(s)
	m.p50 = s[min(len(s)-1, len(s)/2)]
	m.p99 = s[min(len(s)-1, len(s)*99/100)]
}

// updating says a sink received updates or deletes, so its final table
// differs from its changelog.
func (m *debugScreen) updating() bool {
	for _, s := range m.sinks {
		if s.Updating {
			return true
		}
	}
	return false
}

// shown are the rows on screen: the changelog as it streamed in, or each
// sink's final table (an append-only sink's rows are its table).
func (m *debugScreen) shown() []api.DebugRow {
	if !m.final {
		return m.rows
	}
	var out []api.DebugRow
	for _, s := range m.sinks {
		if !s.Updating {
			for _, r := range m.rows {
				if r.Sink == s.Name {
					out = append(out, r)
				}
			}
			continue
		}
		for _, vals := range s.Final {
			out = append(out, api.DebugRow{Sink: s.Name, Values: vals})
		}
	}
	return out
}

// tableHeight is the rows left for the table under the head lines.
func (m *debugScreen) tableHeight() int { return max(m.height-len(m.headLines()), 1) }
