package projects

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

// pollEvery is how often a build view looks at its build: the log grows
// on screen at this pace.
const pollEvery = 250 * time.Millisecond

// BuildScreen is one build of a project, started from `:projects`: the
// phase it is in, the commit, the time it has taken, and its log as it
// comes. x (or ctrl-c, or esc) asks before cancelling, which kills the
// build's process group and records nothing.
type BuildScreen struct {
	env     *kit.Env
	project model.Project
	run     *buildRun
	cancel  context.CancelFunc
	id      int
	started time.Time

	snap       runSnap
	ticks      int
	polling    bool // a BuildStatus request is in flight
	cancelled  bool
	confirming bool
	doIt       bool // the confirmation's focused button; false keeps building
	scroll     int  // lines above the tail; 0 follows the log
	width      int
	height     int
}

// buildTickMsg is a build view's poll; ID is the view's.
type buildTickMsg struct{ ID int }

// buildStatusMsg is the service's BuildStatus, for a build that runs in
// an agent; ID is the view's.
type buildStatusMsg struct {
	ID     int
	Status api.BuildStatus
	Err    error
}

// statusEvery is how many ticks pass between two BuildStatus requests
// of a build that runs in an agent: its log comes once a second.
const statusEvery = 4

// BuiltMsg says a build started from the TUI ended, for every screen: the
// projects view reloads its artifacts.
type BuiltMsg struct {
	Project  string
	Artifact model.Artifact
	Err      error
}

// NewBuild opens the build view of p and starts the build through the
// service, in a goroutine of its own: the view polls what it shares with
// it, so a long build never holds the event loop.
func NewBuild(e *kit.Env, p model.Project) (*BuildScreen, tea.Cmd) {
	ctx, cancel := context.WithCancel(e.Ctx)
	m := &BuildScreen{env: e, project: p, cancel: cancel, id: e.NextSeq(), started: e.Clock(),
		run: &buildRun{clock: e.Clock}}
	run, svc := m.run, call(e).Service
	req := api.BuildRequest{Project: p.Name, Log: run, Progress: run.progress}
	start := func() tea.Msg {
		go func() { run.finish(svc.BuildProject(ctx, req)) }()
		return nil
	}
	return m, tea.Batch(start, m.tick())
}

func (m *BuildScreen) tick() tea.Cmd {
	id := m.id
	return m.env.After(pollEvery, func(time.Time) tea.Msg { return buildTickMsg{ID: id} })
}

// Title implements kit.Screen.
func (m *BuildScreen) Title() string { return "Build " + m.project.Name }

// Capturing implements kit.Screen: the confirmation takes every key.
func (m *BuildScreen) Capturing() bool { return m.confirming }

// Running reports a build not yet ended.
func (m *BuildScreen) Running() bool { return !m.snap.done }

// ShortHelp implements kit.Screen.
func (m *BuildScreen) ShortHelp() []key.Binding {
	k := m.env.Keys
	if m.confirming {
		return []key.Binding{k.Form.Toggle, k.Form.Confirm, k.Form.Cancel}
	}
	if m.Running() && !m.cancelled {
		return []key.Binding{k.Build.Cancel, k.Nav.Up, k.Nav.Down, k.Nav.Bottom}
	}
	return []key.Binding{k.Nav.Up, k.Nav.Down, k.Global.Back}
}

// FullHelp implements kit.Screen.
func (m *BuildScreen) FullHelp() [][]key.Binding { return BuildHelp(m.env.Keys) }

// BuildHelp is the build view's keys, for its `?` help and the keymap
// keymap.
func BuildHelp(k kit.KeyMap) [][]key.Binding {
	return [][]key.Binding{{k.Build.Cancel}, {k.Nav.Up, k.Nav.Down, k.Nav.PageUp, k.Nav.PageDown, k.Nav.Top, k.Nav.Bottom}}
}

// Close implements kit.Closer: a build view taken off the stack other
// than by esc (which asks) cancels its build.
func (m *BuildScreen) Close() { m.cancel() }

// Back implements kit.Backer: esc on a running build asks to cancel it.
func (m *BuildScreen) Back() (tea.Cmd, bool) { return m.ask() }

// Interrupt implements kit.Interrupter: so does ctrl-c.
func (m *BuildScreen) Interrupt() (tea.Cmd, bool) { return m.ask() }

func (m *BuildScreen) ask() (tea.Cmd, bool) {
	if !m.Running() || m.cancelled {
		return nil, false
	}
	if m.env.ReadOnly() {
		return kit.Flash(kit.FlashWarn, "read-only: builds cannot be cancelled"), true
	}
	m.confirming, m.doIt = true, false
	return nil, true
}

// Update implements kit.Screen.
func (m *BuildScreen) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case buildTickMsg:
		if msg.ID != m.id || m.snap.done {
			return m, nil
		}
		m.snap = m.run.snapshot()
		if !m.snap.done {
			m.ticks++
			return m, tea.Batch(m.tick(), m.askStatus())
		}
		m.confirming = false
		return m, tea.Batch(kit.Send(BuiltMsg{Project: m.project.Name, Artifact: m.snap.art, Err: m.snap.err}), m.flash())
	case buildStatusMsg:
		if msg.ID == m.id {
			m.polling = false
			if msg.Err == nil && msg.Status.Running {
				m.run.adopt(msg.Status)
			}
		}
	case tea.KeyPressMsg:
		return m, m.key(msg)
	}
	return m, nil
}

// askStatus asks the service how the build stands when nothing streams
// here: the build runs in an agent. At most one request is in flight.
func (m *BuildScreen) askStatus() tea.Cmd {
	if m.polling || (m.snap.phase != "" && !m.snap.remote) || m.ticks%statusEvery != 1 {
		return nil
	}
	m.polling = true
	c, id, project := call(m.env), m.id, m.project.Name
	return func() tea.Msg {
		msg := buildStatusMsg{ID: id}
		msg.Err = c.With(func(ctx context.Context) (err error) {
			msg.Status, err = c.Service.BuildStatus(ctx, project)
			return err
		})
		return msg
	}
}

func (m *BuildScreen) flash() tea.Cmd {
	s := m.snap
	switch {
	case m.cancelled:
		return kit.Flash(kit.FlashWarn, fmt.Sprintf("build of %s cancelled: nothing recorded", m.project.Name))
	case s.err != nil:
		return kit.Flash(kit.FlashError, s.err.Error())
	}
	if s.art.Unchanged {
		return kit.Flash(kit.FlashInfo, fmt.Sprintf("built %s: unchanged, same commit %.7s and sha256 as v%d", m.project.Name, s.art.Commit, s.art.Version))
	}
	return kit.Flash(kit.FlashInfo, fmt.Sprintf("built %s v%d at %.7s", m.project.Name, s.art.Version, s.art.Commit))
}

func (m *BuildScreen) key(msg tea.KeyPressMsg) tea.Cmd {
	k := m.env.Keys
	if m.confirming {
		switch {
		case key.Matches(msg, k.Form.Cancel):
			m.confirming = false
		case key.Matches(msg, k.Form.Toggle):
			m.doIt = !m.doIt
		case key.Matches(msg, k.Form.Confirm):
			m.confirming = false
			if m.doIt && m.Running() {
				m.cancelled = true
				m.cancel()
				return kit.Flash(kit.FlashInfo, fmt.Sprintf("cancelling the build of %s…", m.project.Name))
			}
		}
		return nil
	}
	lines, page := len(m.snap.lines), max(m.logRows(), 1)
	switch {
	case key.Matches(msg, k.Build.Cancel):
		cmd, _ := m.ask()
		return cmd
	case key.Matches(msg, k.Nav.Up):
		m.scroll++
	case key.Matches(msg, k.Nav.Down):
		m.scroll--
	case key.Matches(msg, k.Nav.PageUp):
		m.scroll += page
	case key.Matches(msg, k.Nav.PageDown):
		m.scroll -= page
	case key.Matches(msg, k.Nav.Top):
		m.scroll = lines
	case key.Matches(msg, k.Nav.Bottom):
		m.scroll = 0
	}
	m.scroll = max(min(m.scroll, lines-page), 0)
	return nil
}

// logRows is the log's part of the view: what the head leaves.
func (m *BuildScreen) logRows() int { return m.height - 2 - 6 }

// View implements kit.Screen.
func (m *BuildScreen) View() string {
	st := m.env.Styles
	w, h := m.width, m.height
	if w <= 0 || h <= 0 {
		return ""
	}
	inner := w - 2
	end := m.env.Now
	if m.snap.done {
		end = m.snap.ended
	}
	lines := BuildLines(st, BuildState{Project: m.project, Snap: m.snap, Cancelled: m.cancelled, Elapsed: end.Sub(m.started)}, inner)
	if m.confirming {
		lines = append(lines[:1], m.confirmLines(inner)...)
	}
	rows := max(h-2-len(lines), 0)
	log := m.snap.lines
	stop := max(len(log)-m.scroll, 0)
	for _, l := range log[max(stop-rows, 0):stop] {
		lines = append(lines, " "+kit.Truncate(l, max(inner-1, 1)))
	}
	return kit.Box(st, st.Title.Render(m.Title()), m.note(), lines, w, h)
}

func (m *BuildScreen) note() string {
	switch s := m.snap; {
	case !s.done && m.cancelled:
		return "cancelling"
	case !s.done:
		return "running"
	case m.cancelled:
		return "cancelled"
	case s.err != nil:
		return "failed"
	}
	return "succeeded"
}

func (m *BuildScreen) confirmLines(w int) []string {
	st := m.env.Styles
	keep, stop := st.ButtonFocused, st.Button
	if m.doIt {
		keep, stop = st.Button, st.ButtonDanger
	}
	return []string{
		" " + st.DialogTitle.Render("Cancel the build of "+m.project.Name+"?"),
		" " + kit.Truncate("Its process group is killed; no artifact is recorded.", max(w-1, 1)),
		"   " + keep.Render("Keep building") + "   " + stop.Render("Cancel build"),
	}
}

// BuildState is what BuildLines draws.
type BuildState struct {
	Project   model.Project
	Snap      runSnap
	Cancelled bool
	Elapsed   time.Duration
}

// phases are a build's, in order.
var phases = []model.BuildPhase{model.PhaseFetch, model.PhaseCheckout, model.PhaseBuild, model.PhaseCollect}

// BuildLines renders the head of a build view (pure): the phases with the
// one under way marked, the commit and the time taken, and the outcome
// once there is one; a rule then separates the log.
func BuildLines(st *kit.Styles, b BuildState, w int) []string {
	s := b.Snap
	cur := -1
	for i, p := range phases {
		if p == s.phase {
			cur = i
		}
	}
	var parts []string
	for i, p := range phases {
		switch {
		case s.done && s.err == nil, i < cur:
			parts = append(parts, st.StateRunning.Render("✓ "+string(p)))
		case i == cur && s.done:
			parts = append(parts, st.Error.Render("✗ "+string(p)))
		case i == cur:
			parts = append(parts, st.Bold.Render("● "+string(p)))
		default:
			parts = append(parts, st.Dim.Render("○ "+string(p)))
		}
	}
	phaseLine := " " + strings.Join(parts, "  ")
	if cur < 0 && !s.done {
		phaseLine = " " + st.Dim.Render("starting…")
	}
	ref := b.Project.Ref
	if ref == "" {
		ref = "HEAD"
	}
	info := fmt.Sprintf(" commit %s · ref %s · %s %s", kit.OrDash(short(s.commit)), ref, elapsedWord(s.done), kit.Age(max(b.Elapsed, 0)))
	if s.remote {
		info += " · in the agent"
	}
	var outcome string
	switch {
	case b.Cancelled && s.done:
		outcome = st.Warn.Render("cancelled: the build was killed with its process group; nothing recorded")
	case b.Cancelled:
		outcome = st.Warn.Render("cancelling…")
	case s.done && s.err != nil:
		// A failure's reason (and where its log is kept) is worth three lines.
		var out []string
		for i, l := range kit.Wrap("✗ "+s.err.Error(), max(w-3, 10)) {
			if i == 3 {
				break
			}
			if i > 0 {
				l = "  " + l
			}
			out = append(out, " "+st.Error.Render(l))
		}
		return append([]string{kit.Truncate(phaseLine, w), kit.Truncate(info, w)}, append(out, st.ColumnHeader.Render(kit.Fit(" LOG", w)))...)
	case s.done:
		a := s.art
		outcome = st.StateRunning.Render(fmt.Sprintf("✓ v%d %s", a.Version, a.File)) +
			fmt.Sprintf(" · %s · sha256 %.12s · palink job create --project %s", kit.Bytes(a.Size), a.SHA256, b.Project.Name)
	default:
		outcome = st.Dim.Render(b.Project.Build)
	}
	return []string{kit.Truncate(phaseLine, w), kit.Truncate(info, w), " " + kit.Truncate(outcome, max(w-1, 1)),
		st.ColumnHeader.Render(kit.Fit(" LOG", w))}
}

func elapsedWord(done bool) string {
	if done {
		return "took"
	}
	return "elapsed"
}

func short(commit string) string {
	if len(commit) > 12 {
		return commit[:12]
	}
	return commit
}
