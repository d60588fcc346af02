package tui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/alerts"
	"github.com/palink/palink/tui/cluster"
	"github.com/palink/palink/tui/commands"
	"github.com/palink/palink/tui/create"
	"github.com/palink/palink/tui/detail"
	"github.com/palink/palink/tui/editor"
	"github.com/palink/palink/tui/jobs"
	"github.com/palink/palink/tui/kit"
	"github.com/palink/palink/tui/logview"
)

// Model is the root of the TUI: it owns the terminal size, the global keys,
// the screen stack (the jobs view at the bottom), the dialog over it, the
// `:` command line, the header and the flash line, and the action flow
// (plan → confirm → act) that every screen starts with a message.
type Model struct {
	env  *kit.Env
	opts Options

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

	watchGen     int
	watchCh      <-chan api.Change
	watching     bool
	watchBackoff time.Duration

	actionSeq int
	// obs declares the jobs on screen and counts firing alerts (observe.go).
	obs observeState
	// issued are the commands this session recorded, so the flash can say
	// how they ended when Watch reports it.
	issued map[string]string // command id → job name

	width, height int
}

var _ tea.Model = (*Model)(nil)

// New builds the TUI over svc. It does no I/O: Init returns the Cmds that
// load the jobs and the clusters and open the change stream, all bound to
// ctx; cancelling ctx ends the stream.
func New(ctx context.Context, svc api.Service, opts Options) *Model {
	e := newEnv(ctx, svc, opts)
	table := jobs.New(e, opts.Scope)
	e.JobName = func(id string) string {
		if j, ok := table.Job(id); ok {
			return j.Name
		}
		return id
	}
	return &Model{
		env:          e,
		opts:         opts,
		stack:        []kit.Screen{table},
		jobs:         table,
		cmd:          newCommandLine(e),
		runs:         editor.NewDebugRuns(opts.Debugger),
		issued:       map[string]string{},
		watchBackoff: time.Second,
		obs:          newObserveState(e),
		clusterLoads: kit.NewRefresher(e, func(seq int) tea.Cmd { return loadClustersCmd(e.Call(), seq) }),
	}
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
		m.startWatch(),
		m.loadFiring(),
		tickCmd(m.env.After, m.env.Clock),
	}
	if m.opts.Theme == ThemeAuto {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	return tea.Batch(cmds...)
}

func (m *Model) loadClusters() tea.Cmd { return m.clusterLoads.Refresh() }

func (m *Model) startWatch() tea.Cmd {
	m.watchGen++
	return startWatchCmd(m.env.Ctx, m.env.Svc, m.watchGen)
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
		m.stack = m.stack[:len(m.stack)-1]
	}
}

func (m *Model) setFlash(level kit.FlashLevel, text string) tea.Cmd {
	return m.flash.Set(m.env.After, level, text)
}

// Update routes a message: keys to the dialog, the command line or the top
// screen; everything else to the root's own state and then to every screen.
// Whatever it changed on screen, it then declares the jobs on screen to the
// service (observe.go), so that only those are measured.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	pre := m.observe(msg)
	_, cmd := m.update(msg)
	m.jobs.HoldOrder(m.dialog != nil)
	return m, tea.Batch(pre, cmd, m.declareInterest())
}

func (m *Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmds []tea.Cmd
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return m, m.handleKey(msg)
	case tea.PasteMsg:
		switch {
		case m.dialog != nil:
			var cmd tea.Cmd
			m.dialog, cmd = m.dialog.Update(msg)
			return m, cmd
		case m.cmd.active:
			return m, m.cmd.Update(msg)
		}
		var cmd tea.Cmd
		m.stack[len(m.stack)-1], cmd = m.top().Update(msg)
		return m, cmd
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		return m, m.broadcast(m.bodySize())
	case tea.BackgroundColorMsg:
		if m.opts.Theme == ThemeAuto {
			m.setTheme(msg.IsDark())
		}
		return m, nil
	case tickMsg:
		m.env.Now = msg.now
		cmds = append(cmds, tickCmd(m.env.After, m.env.Clock))
	case clustersLoadedMsg:
		current, next := m.clusterLoads.Done(msg.seq)
		if !current {
			return m, nil
		}
		cmds = append(cmds, next)
		if msg.err != nil {
			m.clustersErr = msg.err
			cmds = append(cmds, m.setFlash(kit.FlashError, msg.err.Error()))
		} else {
			m.clustersErr = nil
			m.clusters = msg.clusters
		}
	case watchStartedMsg:
		if msg.gen != m.watchGen {
			return m, nil
		}
		if msg.err != nil {
			m.watching = false
			return m, tea.Batch(m.setFlash(kit.FlashError, msg.err.Error()), m.retryWatch())
		}
		m.watchCh, m.watching, m.watchBackoff = msg.ch, true, time.Second
		return m, m.env.ReadChange(m.env.Ctx, msg.ch, msg.gen)
	case watchEndedMsg:
		if msg.gen != m.watchGen || m.env.Ctx.Err() != nil {
			return m, nil
		}
		m.watching = false
		return m, m.retryWatch()
	case watchRetryMsg:
		if msg.gen != m.watchGen {
			return m, nil
		}
		// Reload too: changes made while the stream was down are lost.
		return m, tea.Batch(m.startWatch(), m.jobs.Load(), m.loadClusters())
	case kit.ChangeMsg:
		if msg.Gen != m.watchGen {
			return m, nil
		}
		cmds = append(cmds, m.env.ReadChange(m.env.Ctx, m.watchCh, msg.Gen), m.onChange(msg.Change))
	case kit.FlashMsg:
		return m, m.setFlash(msg.Level, msg.Text)
	case kit.FlashExpiredMsg:
		m.flash.Expire(msg.ID)
		return m, nil
	case kit.PushMsg:
		return m, m.push(msg.Screen, msg.Init)
	case kit.PopMsg:
		m.pop()
		return m, nil
	case kit.OpenDetailMsg:
		d, init := detail.New(m.env, msg.Job, msg.Tab)
		return m, m.push(d, init)
	case kit.OpenCommandLogMsg:
		return m, m.push(commands.NewLog(m.env, msg.Cmd), nil)
	case kit.OpenHelpMsg:
		return m, m.push(newHelpScreen(m.env, msg.Of), nil)
	case kit.OpenLogMsg:
		v, init := logview.New(m.env, msg.JobID, msg.JobName, msg.Source)
		return m, m.push(v, init)
	case kit.OpenEditorMsg:
		return m, m.openEditor(msg.Job)
	case kit.OpenCreateMsg:
		if m.env.ReadOnly() {
			return m, m.setFlash(kit.FlashWarn, "read-only: creating jobs is disabled")
		}
		return m, m.push(create.New(m.env, m.clusterNames(), m.jobs.Scope()), nil)
	case commandLineMsg:
		return m, m.runCommand(msg.line)
	case kit.StartActionMsg:
		return m, m.startAction(msg)
	case plannedMsg:
		return m, m.planned(msg)
	case confirmedMsg:
		return m, m.confirmed(msg)
	case kit.AdoptMsg:
		if m.env.ReadOnly() {
			return m, m.setFlash(kit.FlashWarn, "read-only: adopting is disabled")
		}
		m.dialog = cluster.NewAdopt(m.env, msg.Cluster, msg.App)
		return m, nil
	case kit.ActedMsg:
		cmds = append(cmds, m.acted(msg))
	case kit.CreatedMsg:
		if msg.Err != nil {
			cmds = append(cmds, m.setFlash(kit.FlashError, msg.Err.Error()))
		} else {
			cmds = append(cmds, m.setFlash(kit.FlashInfo, fmt.Sprintf("created job %s on %s (%s) — r submits it", msg.Job.Name, msg.Job.Cluster, msg.Job.State)))
		}
	case kit.AdoptedMsg:
		if msg.Err != nil {
			cmds = append(cmds, m.setFlash(kit.FlashError, msg.Err.Error()))
		} else {
			cmds = append(cmds, m.setFlash(kit.FlashInfo, fmt.Sprintf("adopted %s as job %s (%s)", msg.Req.AppID, msg.Job.Name, msg.Job.State)))
		}
	}
	cmds = append(cmds, m.broadcast(msg))
	return m, tea.Batch(cmds...)
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

func (m *Model) retryWatch() tea.Cmd {
	d := m.watchBackoff
	m.watchBackoff = min(m.watchBackoff*2, 30*time.Second)
	return watchRetryCmd(m.env.After, m.watchGen, d)
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
		if c.Command == nil || !c.Command.State.Final() {
			return nil
		}
		name, ok := m.issued[c.Command.ID]
		if !ok {
			return nil
		}
		delete(m.issued, c.Command.ID)
		cm := c.Command
		if cm.State == model.CmdFailed {
			return m.setFlash(kit.FlashError, fmt.Sprintf("%s #%d of %s failed: %s", cm.Kind, cm.Seq, name, cm.Error))
		}
		return m.setFlash(kit.FlashInfo, fmt.Sprintf("%s #%d of %s succeeded%s", cm.Kind, cm.Seq, name, lastLog(cm)))
	case api.Resync:
		return m.loadClusters()
	}
	return nil
}

// lastLog is the command's last log line, which says what it achieved
// (e.g. the savepoint path), for the flash.
func lastLog(c *model.Command) string {
	if len(c.Log) == 0 {
		return ""
	}
	last := c.Log[len(c.Log)-1].Text
	if strings.EqualFold(strings.TrimSpace(last), c.State.String()) {
		return "" // "succeeded: succeeded" says nothing more
	}
	return ": " + last
}

func (m *Model) clusterNames() []string {
	names := make([]string, 0, len(m.clusters))
	for _, c := range m.clusters {
		names = append(names, c.Name)
	}
	return names
}

func (m *Model) setTheme(dark bool) {
	st := kit.LightStyles()
	if dark {
		st = kit.DarkStyles()
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
		m.pop()
		return nil
	}
	var cmd tea.Cmd
	m.stack[len(m.stack)-1], cmd = top.Update(msg)
	return cmd
}

// jobNames lists job names for `:sql` completion, sorted.
func (m *Model) jobNames() []string {
	return m.jobs.Names()
}

// runCommand executes a `:` line.
func (m *Model) runCommand(line string) tea.Cmd {
	c, err := parseCommand(line)
	if err != nil {
		return m.setFlash(kit.FlashError, err.Error())
	}
	switch c.verb {
	case "q":
		return tea.Quit
	case "help":
		return m.push(newHelpScreen(m.env, m.top()), nil)
	case "theme":
		m.setTheme(c.arg == "dark")
		return nil
	case "jobs":
		if c.arg != "" && c.arg != "all" && len(m.clusters) > 0 && !slices.Contains(m.clusterNames(), c.arg) {
			return m.setFlash(kit.FlashError, fmt.Sprintf(":jobs @%s: no such cluster (clusters: %s)", c.arg, strings.Join(m.clusterNames(), ", ")))
		}
		if c.arg == "all" {
			c.arg = ""
		}
		m.stack = m.stack[:1]
		m.jobs.SetScope(c.arg)
		return nil
	case "cmd":
		s, init := commands.New(m.env)
		return m.push(s, init)
	case "cluster":
		name := c.arg
		if name == "" {
			name = m.jobs.Scope()
		}
		names := m.clusterNames()
		if name == "" && len(names) > 0 {
			name = names[0]
		}
		if name == "" {
			return m.setFlash(kit.FlashError, ":cluster: no cluster is known yet")
		}
		if len(names) > 0 && !slices.Contains(names, name) {
			return m.setFlash(kit.FlashError, fmt.Sprintf(":cluster %s: no such cluster (clusters: %s)", name, strings.Join(names, ", ")))
		}
		s, init := cluster.New(m.env, names, name)
		return m.push(s, init)
	case "alerts":
		s, init := alerts.New(m.env, m.jobByID)
		return m.push(s, init)
	case "sql":
		if j, ok := m.jobs.Find(c.arg); ok {
			return m.openEditor(j)
		}
		return m.setFlash(kit.FlashError, fmt.Sprintf(":sql %s: no such job", c.arg))
	}
	return nil
}

// View renders the frame: header, the top screen (with a dialog over it),
// footer and flash line.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.WindowTitle = "palink"
	return v
}

// minWidth and minHeight are the smallest frame palink draws; below it says so.
const minWidth, minHeight = 40, 8

func (m *Model) render() string {
	st := m.env.Styles
	w, h := m.width, m.height
	if w == 0 || h == 0 {
		return ""
	}
	if w < minWidth || h < minHeight {
		return kit.PadLines(fmt.Sprintf("palink needs at least %d×%d (now %d×%d)", minWidth, minHeight, w, h), w, h)
	}
	header := renderHeader(st, headerData{
		context:     m.opts.Context,
		clusters:    m.clusters,
		clustersErr: m.clustersErr,
		jobsLoaded:  m.jobs.Loaded(),
		counts:      m.jobs.Counts(),
		watching:    m.watching,
		now:         m.env.Now,
		alerts:      m.obs.firing,
	}, w)
	body := m.top().View()
	if m.dialog != nil {
		body = overlay(body, m.dialog.View(w, h-3), w, h-3)
	}
	var bottom string
	if m.cmd.active {
		bottom = m.cmd.View(st, w)
	} else {
		bottom = m.flash.View(st, w)
	}
	// Screens render exactly their size; padding is a safety net for a
	// screen that does not (it costs a width measure per line).
	if strings.Count(body, "\n") != h-4 {
		body = kit.PadLines(body, w, h-3)
	}
	return strings.Join([]string{header, body, m.footer(), bottom}, "\n")
}

// footer shows the keys of what has the keyboard: the dialog, the command
// line, or the top screen. `? help` always keeps its place at the end, so
// the way to every other key never scrolls off a narrow terminal.
func (m *Model) footer() string {
	var keys []key.Binding
	tail := ""
	switch {
	case m.dialog != nil:
		keys = m.dialog.ShortHelp()
	case m.cmd.active:
		keys = commandLineShort(m.env.Keys)
	default:
		keys = m.top().ShortHelp()
		if !m.top().Capturing() {
			tail = shortHelp(m.env.Styles.Help, []key.Binding{m.env.Keys.Global.Help}, m.width)
		}
	}
	prefix := ""
	if n := m.jobs.Marked(); n > 0 && m.dialog == nil {
		prefix = m.env.Styles.Mark.Render(fmt.Sprintf("✓ %d marked", n)) + "  "
	}
	room := m.width - 1 - lipgloss.Width(prefix)
	if tail != "" {
		room -= lipgloss.Width(tail) + 3
	}
	line := " " + prefix + shortHelp(m.env.Styles.Help, keys, room)
	if tail != "" {
		line += m.env.Styles.Help.ShortSeparator.Render(" • ") + tail
	}
	return kit.Fit(line, m.width)
}

// shortHelp renders key hints that fit width, ending in … when some do
// not (bubbles' help can overflow when even the ellipsis does not fit).
func shortHelp(st help.Styles, keys []key.Binding, width int) string {
	sep := st.ShortSeparator.Render(" • ")
	var b strings.Builder
	used := 0
	for _, k := range keys {
		if !k.Enabled() {
			continue
		}
		item := st.ShortKey.Render(k.Help().Key) + " " + st.ShortDesc.Render(k.Help().Desc)
		if used > 0 {
			item = sep + item
		}
		w := lipgloss.Width(item)
		if used+w > width {
			if used+2 <= width {
				b.WriteString(" " + st.Ellipsis.Render("…"))
			}
			break
		}
		b.WriteString(item)
		used += w
	}
	return b.String()
}

// overlay draws a dialog box centred over the body.
func overlay(body, box string, w, h int) string {
	bw, bh := lipgloss.Size(box)
	x, y := max((w-bw)/2, 0), max((h-bh)/3, 0)
	// The compositor trims trailing blanks; pad back to the frame's size.
	return kit.PadLines(lipgloss.NewCompositor(
		lipgloss.NewLayer(kit.PadLines(body, w, h)),
		lipgloss.NewLayer(box).X(x).Y(y).Z(1),
	).Render(), w, h)
}
