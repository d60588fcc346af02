package tui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/cluster"
	"github.com/palink/palink/tui/commands"
	"github.com/palink/palink/tui/create"
	"github.com/palink/palink/tui/detail"
	"github.com/palink/palink/tui/diagnose"
	"github.com/palink/palink/tui/editor"
	"github.com/palink/palink/tui/jobs"
	"github.com/palink/palink/tui/kit"
	"github.com/palink/palink/tui/logview"
	"github.com/palink/palink/tui/metrics"
)

// Model is the root of the TUI: it owns the terminal size, the global keys,
// the screen stack (the jobs view at the bottom), the dialog over it, the
// `:` command line, the header and the flash line, the change stream, and
// the action flow (plan → confirm → act) that every screen starts with a
// message.
type Model struct {
	env  *kit.Env
	opts Options
	// wall is the time of day the header's clock shows (Options.Wall).
	wall time.Time
	// keys is every key; updateKeys makes env.Keys from it.
	keys kit.KeyMap

	stack  []kit.Screen
	jobs   *jobs.Screen
	dialog kit.Dialog
	cmd    commandLine
	flash  kit.FlashLine
	// runs is the editor's debug runs: kept here, between editors.
	runs *editor.DebugRuns

	clusters     []api.ClusterStatus
	clustersErr  error
	clusterLoads kit.Refresher
	// lead is who leads the store, read again every leadEvery ticks: on
	// etcd, the header names the leader's host, or says that etcd does
	// not answer.
	lead      api.Leadership
	leadLoads kit.Refresher
	ticks     int

	stream  stream
	actions actionFlow
	// obs declares the jobs on screen and counts firing alerts (observe.go).
	obs observeState

	width, height int
}

var _ tea.Model = (*Model)(nil)

// New builds the TUI over svc. It does no I/O: Init returns the Cmds that
// load the jobs and the clusters and open the change stream, all bound to
// ctx; cancelling ctx ends the stream.
func New(ctx context.Context, svc api.Service, opts Options) *Model {
	if opts.User == "" {
		opts.User = envUser(opts.Environ)
	}
	e := newEnv(ctx, svc, opts)
	if opts.Wall == nil {
		opts.Wall = e.Clock
	}
	table := jobs.New(e, opts.Scope)
	e.JobName = func(id string) string {
		if j, ok := table.Job(id); ok {
			return j.Name
		}
		return id
	}
	m := &Model{
		env:          e,
		opts:         opts,
		wall:         opts.Wall(),
		stack:        []kit.Screen{table},
		jobs:         table,
		cmd:          newCommandLine(e),
		runs:         editor.NewDebugRuns(opts.debugging()),
		stream:       newStream(e),
		obs:          newObserveState(e),
		clusterLoads: kit.NewRefresher(e, func(seq int) tea.Cmd { return loadClustersCmd(call(e), seq) }),
		leadLoads:    kit.NewRefresher(e, func(seq int) tea.Cmd { return loadLeadCmd(call(e), seq) }),
	}
	m.actions = newActionFlow(e, &m.flash)
	m.keys = kit.NewKeyMap()
	m.updateKeys()
	return m
}

// Run opens the TUI on the terminal (or opts.Input/Output) and blocks until
// the user quits or ctx is done.
func Run(ctx context.Context, svc api.Service, opts Options) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // ends the watch stream and any call still in flight
	popts := []tea.ProgramOption{tea.WithContext(ctx)}
	if opts.Input != nil {
		popts = append(popts, tea.WithInput(opts.Input))
	}
	if opts.Output != nil {
		popts = append(popts, tea.WithOutput(opts.Output))
	}
	env := opts.Environ
	if env == nil {
		env = os.Environ()
	}
	popts = append(popts, tea.WithEnvironment(env))
	if noColor(env) {
		// The terminal library reads NO_COLOR as a boolean; no-color.org
		// says any non-empty value.
		popts = append(popts, tea.WithColorProfile(colorprofile.ASCII))
		opts.noColor = true
	}
	if opts.Width > 0 && opts.Height > 0 {
		popts = append(popts, tea.WithWindowSize(opts.Width, opts.Height))
	}
	_, err := tea.NewProgram(New(ctx, svc, opts), popts...).Run()
	if err != nil && errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return nil // the caller cancelled: a normal end
	}
	if err != nil {
		return fmt.Errorf("run tui: %w", err)
	}
	return nil
}

// Init starts the first loads, the change stream and the clock.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{
		m.jobs.Load(),
		m.loadClusters(),
		m.leadLoads.Refresh(),
		m.stream.start(),
		m.obs.firingLoads.Refresh(),
		tickCmd(m.env.After, m.env.Clock, m.opts.Wall),
	}
	if m.opts.Theme == ThemeAuto {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	return tea.Batch(cmds...)
}

func (m *Model) loadClusters() tea.Cmd { return m.clusterLoads.Refresh() }

// leadEvery is how many clock ticks (seconds) pass between two reads of
// who leads: within an election's TTL, so a failover shows in the header
// about when it happens.
const leadEvery = 3

// takeLead keeps who leads the store. A palink that cannot read etcd keeps
// the leader it knew, and says in the header and the flash that what it
// shows may be stale and that its actions cannot be written.
func (m *Model) takeLead(msg leadLoadedMsg) tea.Cmd {
	if msg.err != nil {
		// An agent from before Leadership, or a failed call: nothing new.
		return nil
	}
	unreachable := msg.lead.Unreachable != ""
	was := m.lead.Unreachable != ""
	if unreachable {
		known := m.lead
		m.lead = msg.lead
		if m.lead.Leader == nil {
			m.lead.Leader = known.Leader
		}
	} else {
		m.lead = msg.lead
	}
	switch {
	case unreachable && !was:
		return m.flash.Show(m.env.After, kit.FlashMsg{Level: kit.FlashError, Key: "lead:etcd",
			Text: msg.lead.Unreachable + ": showing what was read last; no action is taken until etcd answers"}, nil)
	case !unreachable && was:
		m.flash.ClearKey("lead:etcd")
	}
	return nil
}

func (m *Model) top() kit.Screen { return m.stack[len(m.stack)-1] }

// bodySize is the area screens draw in: all but the header, footer and flash.
func (m *Model) bodySize() tea.WindowSizeMsg {
	return tea.WindowSizeMsg{Width: m.width, Height: max(m.height-3, 1)}
}

func (m *Model) push(s kit.Screen, init tea.Cmd) tea.Cmd {
	m.stack = append(m.stack, s)
	_, cmd := s.Update(m.bodySize())
	return tea.Batch(init, cmd)
}

func (m *Model) pop() {
	if len(m.stack) > 1 {
		m.popTo(len(m.stack) - 1)
	}
}

// popTo takes the screens above the first n off the stack, closing those
// that hold requests (kit.Closer).
func (m *Model) popTo(n int) {
	for _, s := range m.stack[n:] {
		if c, ok := s.(kit.Closer); ok {
			c.Close()
		}
	}
	m.stack = m.stack[:n]
}

// setFlash shows a flash of the session's: it stays when the screen
// changes (an action's outcome, a lost connection).
func (m *Model) setFlash(level kit.FlashLevel, text string) tea.Cmd {
	return m.flash.Set(m.env.After, level, text)
}

// flashHere shows a flash about the screen on top, which goes when that
// screen is left.
func (m *Model) flashHere(level kit.FlashLevel, text string) tea.Cmd {
	return m.flash.Show(m.env.After, kit.FlashMsg{Level: level, Text: text}, m.top())
}

// Update routes a message: keys to the dialog, the command line or the top
// screen; everything else to the root's own state and then to every screen.
// Whatever it changed on screen, it then declares the jobs on screen to the
// service (observe.go), so that only those are measured.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	if b, ok := msg.(changesMsg); ok {
		cmd = m.changes(b)
	} else {
		pre := m.obs.update(msg, m.stream.gen)
		cmd = tea.Batch(pre, m.update(msg))
	}
	m.flash.Leave(m.top()) // a flash about a screen goes with it
	m.jobs.HoldOrder(m.dialog != nil)
	m.updateKeys()
	return m, tea.Batch(cmd, m.obs.declare(m.env, m.stack))
}

// changes takes a burst of changes as it takes each (a kit.ChangeMsg, to
// the root and then every screen), and reads on once: the frame after it
// shows them all.
func (m *Model) changes(b changesMsg) tea.Cmd {
	if b.gen != m.stream.gen {
		return nil
	}
	cmds := make([]tea.Cmd, 0, 3*len(b.changes)+1)
	for _, c := range b.changes {
		one := kit.ChangeMsg{Gen: b.gen, Change: c}
		cmds = append(cmds, m.obs.update(one, m.stream.gen), m.onChange(c), m.broadcast(one))
	}
	return tea.Batch(append(cmds, m.stream.next())...)
}

// updateKeys makes the keymap of the moment, which every screen matches
// keys with and the footer and the help show: every key, less what
// read-only refuses (asked with --read-only, or the service's say, which
// can change), less what the screen on top blocks for its state.
func (m *Model) updateKeys() {
	k := m.keys
	k.SetReadOnly(m.env.ReadOnly())
	if s, ok := m.top().(kit.KeyUpdater); ok {
		s.UpdateKeys(&k)
	}
	m.env.Keys = k
}

// update routes a message: what only the root takes (keys, intents, its
// own results) goes no further; a result or a change is the root's first,
// then every screen's and the dialog's.
func (m *Model) update(msg tea.Msg) tea.Cmd {
	if cmd, taken := m.route(msg); taken {
		return cmd
	}
	cmd, keep := m.take(msg)
	if !keep {
		return cmd
	}
	return tea.Batch(cmd, m.broadcast(msg))
}

// route handles the messages that are the root's alone: keys go to what
// has the keyboard, intents open what they ask for.
func (m *Model) route(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return m.handleKey(msg), true
	case tea.PasteMsg:
		switch {
		case m.dialog != nil:
			var cmd tea.Cmd
			m.dialog, cmd = m.dialog.Update(msg)
			return cmd, true
		case m.cmd.active:
			return m.cmd.Update(msg), true
		}
		var cmd tea.Cmd
		m.stack[len(m.stack)-1], cmd = m.top().Update(msg)
		return cmd, true
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		return m.broadcast(m.bodySize()), true
	case tea.BackgroundColorMsg:
		if m.opts.Theme == ThemeAuto {
			m.setStyles(msg.IsDark(), m.env.Styles.NoColor)
		}
		return nil, true
	case tea.ColorProfileMsg:
		// A terminal without colour (NO_COLOR, or one that has none) gets
		// the styles that say with attributes what colour said.
		if noColor := msg.Profile == colorprofile.ASCII; noColor != m.env.Styles.NoColor {
			m.setStyles(m.env.Styles.Dark, noColor)
		}
		return nil, true
	case watchStartedMsg:
		if msg.gen != m.stream.gen {
			return nil, true
		}
		if msg.err != nil {
			return tea.Batch(m.flash.Show(m.env.After, kit.FlashMsg{Level: kit.FlashError, Text: msg.err.Error(), Key: "watch"}, nil), m.stream.started(msg)), true
		}
		m.flash.ClearKey("watch")
		return m.stream.started(msg), true
	case watchEndedMsg:
		if msg.gen != m.stream.gen || m.env.Ctx.Err() != nil {
			return nil, true
		}
		m.stream.live = false
		return m.stream.retry(), true
	case watchRetryMsg:
		if msg.gen != m.stream.gen {
			return nil, true
		}
		// Reload too: changes made while the stream was down are lost.
		return tea.Batch(m.stream.start(), m.jobs.Load(), m.loadClusters()), true
	case kit.FlashMsg:
		return m.flash.Show(m.env.After, msg, m.top()), true
	case kit.ClearFlashMsg:
		m.flash.ClearKey(msg.Key)
		return nil, true
	case kit.FlashExpiredMsg:
		m.flash.Expire(msg.ID)
		return nil, true
	case kit.PushMsg:
		return m.push(msg.Screen, msg.Init), true
	case kit.PopMsg:
		m.pop()
		return nil, true
	case kit.OpenDetailMsg:
		return m.push(detail.New(m.env, msg.Job, msg.Tab)), true
	case kit.OpenRawMsg:
		return m.push(detail.NewRaw(m.env, msg.Job)), true
	case kit.OpenCommandLogMsg:
		return m.push(commands.NewLog(m.env, msg.Cmd), nil), true
	case kit.OpenHelpMsg:
		return m.push(newHelpScreen(m.env, msg.Of), nil), true
	case kit.OpenLogMsg:
		if msg.Find != (api.LogQuery{}) {
			return m.push(logview.NewAt(m.env, msg.JobID, msg.JobName, msg.Source, msg.Find)), true
		}
		return m.push(logview.New(m.env, msg.JobID, msg.JobName, msg.Source)), true
	case kit.OpenTextLogMsg:
		return m.push(logview.NewText(m.env, msg.JobID, msg.JobName, msg.Title, msg.Text)), true
	case kit.OpenDiagMsg:
		return m.push(diagnose.Open(m.env, msg)), true
	case kit.OpenMetricsMsg:
		return m.push(metrics.New(m.env, msg)), true
	case kit.OpenEditorMsg:
		return m.openEditor(msg.Job), true
	case kit.OpenVersionsMsg:
		return m.push(editor.NewVersions(m.env, msg.Job)), true
	case kit.OpenCreateMsg:
		if m.env.ReadOnly() {
			return m.flashHere(kit.FlashWarn, "read-only: creating jobs is disabled"), true
		}
		return m.push(create.New(m.env, m.clusterNames(), m.jobs.Scope()), nil), true
	case kit.OpenJobsMsg:
		m.popTo(1)
		m.jobs.Narrow(msg.Label, msg.IDs)
		return nil, true
	case kit.OpenDialogMsg:
		m.dialog = msg.Dialog
		return nil, true
	case kit.AdoptMsg:
		if m.env.ReadOnly() {
			return m.flashHere(kit.FlashWarn, "read-only: adopting is disabled"), true
		}
		m.dialog = cluster.NewAdopt(m.env, msg.Cluster, msg.App)
		return nil, true
	case commandLineMsg:
		return m.runCommand(msg.line), true
	case kit.StartActionMsg:
		return m.openDialog(m.actions.start(msg)), true
	case plannedMsg:
		return m.openDialog(m.actions.planned(msg)), true
	case confirmedMsg:
		return m.actions.confirmed(msg), true
	}
	return nil, false
}

// openDialog opens d, when there is one, over the screen.
func (m *Model) openDialog(d kit.Dialog, cmd tea.Cmd) tea.Cmd {
	if d != nil {
		m.dialog = d
	}
	return cmd
}

// take is the root's part in a message every screen gets: the clock, the
// clusters, a change, an action's or a form's outcome. keep is false for a
// message to drop (an answer or a change no longer awaited).
func (m *Model) take(msg tea.Msg) (cmd tea.Cmd, keep bool) {
	switch msg := msg.(type) {
	case tickMsg:
		m.env.Now, m.wall = msg.now, msg.wall
		if m.ticks++; m.ticks%leadEvery == 0 {
			return tea.Batch(tickCmd(m.env.After, m.env.Clock, m.opts.Wall), m.leadLoads.Refresh()), true
		}
		return tickCmd(m.env.After, m.env.Clock, m.opts.Wall), true
	case leadLoadedMsg:
		current, next := m.leadLoads.Done(msg.seq)
		if !current {
			return nil, false
		}
		return tea.Batch(next, m.takeLead(msg)), true
	case clustersLoadedMsg:
		current, next := m.clusterLoads.Done(msg.seq)
		if !current {
			return nil, false
		}
		if msg.err != nil {
			m.clustersErr = msg.err
			return tea.Batch(next, m.flash.Show(m.env.After, kit.FlashMsg{Level: kit.FlashError, Text: msg.err.Error(), Key: "load:clusters"}, nil)), true
		}
		m.flash.ClearKey("load:clusters")
		m.clustersErr, m.clusters = nil, msg.clusters
		return next, true
	case kit.ChangeMsg:
		if msg.Gen != m.stream.gen {
			return nil, false
		}
		return tea.Batch(m.stream.next(), m.onChange(msg.Change)), true
	case kit.ActedMsg:
		return m.actions.acted(msg), true
	case kit.CreatedMsg:
		if msg.Err != nil {
			return m.setFlash(kit.FlashError, msg.Err.Error()), true
		}
		return m.setFlash(kit.FlashInfo, fmt.Sprintf("created job %s on %s (%s) — r submits it", msg.Job.Name, msg.Job.Cluster, msg.Job.State)), true
	case kit.AdoptedMsg:
		if msg.Err != nil {
			return m.setFlash(kit.FlashError, msg.Err.Error()), true
		}
		return m.setFlash(kit.FlashInfo, fmt.Sprintf("adopted %s as job %s (%s)", msg.Req.AppID, msg.Job.Name, msg.Job.State)), true
	case kit.AdoptedAllMsg:
		if msg.Err != nil {
			return m.setFlash(kit.FlashError, msg.Err.Error()), true
		}
		return m.setFlash(kit.FlashInfo, "adopted "+kit.Plural(len(msg.Res.Adopted), "application")+" on "+msg.Req.Cluster), true
	}
	return nil, true
}

// broadcast gives a message to every screen on the stack, and to the dialog.
func (m *Model) broadcast(msg tea.Msg) tea.Cmd {
	var cmds []tea.Cmd
	if m.dialog != nil {
		var cmd tea.Cmd
		m.dialog, cmd = m.dialog.Update(msg)
		cmds = append(cmds, cmd)
	}
	for i, s := range m.stack {
		var cmd tea.Cmd
		m.stack[i], cmd = s.Update(msg)
		cmds = append(cmds, cmd)
	}
	return tea.Batch(cmds...)
}

// onChange keeps the root's own state current: cluster health, and the
// flash for commands this session issued when they end.
func (m *Model) onChange(c api.Change) tea.Cmd {
	switch c.Kind {
	case api.ClusterChanged:
		if c.Cluster != nil {
			i := slices.IndexFunc(m.clusters, func(s api.ClusterStatus) bool { return s.Name == c.Cluster.Name })
			if i >= 0 {
				m.clusters[i] = *c.Cluster
			} else {
				m.clusters = append(m.clusters, *c.Cluster)
			}
		}
	case api.CommandChanged:
		return m.actions.ended(c.Command)
	case api.Resync:
		return m.loadClusters()
	}
	return nil
}

func (m *Model) clusterNames() []string {
	names := make([]string, 0, len(m.clusters))
	for _, c := range m.clusters {
		names = append(names, c.Name)
	}
	return names
}

// setStyles restyles the TUI for a background (dark) and a terminal with
// or without colour.
func (m *Model) setStyles(dark, noColor bool) {
	st := kit.LightStyles()
	if dark {
		st = kit.DarkStyles()
	}
	if noColor {
		st = st.WithoutColor()
	}
	m.env.Styles = st
	m.cmd.input.SetStyles(st.Input)
	m.jobs.SetStyles(st)
}

func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.env.Keys
	if key.Matches(msg, k.Global.ForceQuit) {
		if s, ok := m.top().(kit.Interrupter); ok && m.dialog == nil {
			if cmd, handled := s.Interrupt(); handled {
				return cmd
			}
		}
		return tea.Quit
	}
	if m.dialog != nil {
		var cmd tea.Cmd
		m.dialog, cmd = m.dialog.Update(msg)
		return cmd
	}
	if m.cmd.active {
		return m.cmd.Update(msg)
	}
	top := m.top()
	if top.Capturing() {
		var cmd tea.Cmd
		m.stack[len(m.stack)-1], cmd = top.Update(msg)
		return cmd
	}
	switch {
	case key.Matches(msg, k.Global.Quit):
		return tea.Quit
	case key.Matches(msg, k.Global.Help):
		if _, ok := top.(*helpScreen); ok {
			m.pop()
			return nil
		}
		return m.push(newHelpScreen(m.env, top), nil)
	case key.Matches(msg, k.Global.Command):
		return m.cmd.open(completions(m.clusterNames(), m.jobNames()))
	case key.Matches(msg, k.Global.Back) && len(m.stack) > 1:
		if b, ok := top.(kit.Backer); ok {
			if cmd, handled := b.Back(); handled {
				return cmd
			}
		}
		m.pop()
		return nil
	}
	if hint := unknownKeyHint(m.env.Keys, top, msg); hint != "" {
		return m.flashHere(kit.FlashInfo, hint)
	}
	var cmd tea.Cmd
	m.stack[len(m.stack)-1], cmd = top.Update(msg)
	return cmd
}

// jobNames lists job names for `:sql` completion, sorted.
func (m *Model) jobNames() []string {
	return m.jobs.Names()
}

// openEditor pushes a job's SQL editor; a JAR job has none.
func (m *Model) openEditor(j api.JobView) tea.Cmd {
	if j.Kind == model.KindJAR || j.Kind == model.KindPython {
		return m.flashHere(kit.FlashWarn, fmt.Sprintf("%s is a %s job: it has no SQL to edit", j.Name, j.Kind))
	}
	s, init := editor.New(m.env, m.runs, j)
	return m.push(s, init)
}
