package kit

import (
	"image/color"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	"charm.land/lipgloss/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// Theme picks the palette. Auto follows the terminal's background colour,
// which bubbletea asks the terminal for at start.
type Theme int

// Themes.
const (
	ThemeAuto Theme = iota
	ThemeDark
	ThemeLight
)

// Styles holds every style the TUI uses, by meaning rather than by look, so
// that a screen never picks a colour itself. Colours are the terminal's own
// 16 ANSI colours where they carry meaning (so the user's palette decides how
// "red" looks), plus a few greys from the 256 palette; bubbletea downsamples
// them to what the terminal supports and drops them under NO_COLOR. Nothing
// relies on colour alone: states are written out and the cursor row is
// reversed; without colour (WithoutColor) what colour said is said with
// attributes and symbols.
type Styles struct {
	Dark bool
	// NoColor reports styles for a terminal that shows no colour
	// (NO_COLOR): WithoutColor's.
	NoColor bool

	Brand        lipgloss.Style // "palink" in the header
	Header       lipgloss.Style
	ClusterLive  lipgloss.Style
	ClusterStale lipgloss.Style
	ClusterDown  lipgloss.Style

	Text    lipgloss.Style
	Dim     lipgloss.Style
	Bold    lipgloss.Style
	Border  lipgloss.Style
	Title   lipgloss.Style
	Section lipgloss.Style // headings inside a view
	Label   lipgloss.Style // "state", "app" … in key/value lists

	ColumnHeader lipgloss.Style
	// SortKey is the letter of a column heading that shift+letter sorts by.
	SortKey lipgloss.Style
	Cursor  lipgloss.Style // the selected row
	Mark    lipgloss.Style // the ✓ of a marked row

	StateRunning   lipgloss.Style
	StateFailed    lipgloss.Style
	StateDeploying lipgloss.Style
	StateFinal     lipgloss.Style // FINISHED, KILLED: over, not alarming
	StatePaused    lipgloss.Style // FINISHED by a pause: waiting for a restart
	StateCreated   lipgloss.Style

	Info  lipgloss.Style
	Warn  lipgloss.Style
	Error lipgloss.Style

	// Match marks a search match in a log; MatchCurrent the one n/N reached.
	Match        lipgloss.Style
	MatchCurrent lipgloss.Style

	TabActive   lipgloss.Style
	TabInactive lipgloss.Style

	// ChartLine draws a chart's line; ChartAlert the line of a figure that
	// alerts (backpressure, lag). AlertFiring is the header badge and the
	// state of firing alerts.
	ChartLine   lipgloss.Style
	ChartAlert  lipgloss.Style
	AlertFiring lipgloss.Style

	Dialog        lipgloss.Style
	DialogTitle   lipgloss.Style
	Button        lipgloss.Style
	ButtonFocused lipgloss.Style
	ButtonDanger  lipgloss.Style // the focused button of a destructive action

	Help  help.Styles
	Input textinput.Styles
	Area  textarea.Styles

	Editor EditorStyles // the SQL editor's (styles_editor.go)
}

// palette is what differs between the dark and the light theme.
type palette struct {
	dark                                  bool
	green, red, yellow, blue, cyan, brand color.Color
	dim, border, faintBg                  color.Color
}

// DarkStyles is the theme for dark terminal backgrounds.
func DarkStyles() *Styles {
	return newStyles(palette{
		dark:  true,
		green: lipgloss.BrightGreen, red: lipgloss.BrightRed, yellow: lipgloss.BrightYellow,
		blue: lipgloss.BrightBlue, cyan: lipgloss.BrightCyan, brand: lipgloss.BrightMagenta,
		dim: lipgloss.Color("245"), border: lipgloss.Color("240"), faintBg: lipgloss.Color("236"),
	})
}

// LightStyles is the theme for light terminal backgrounds: the normal (not
// bright) ANSI colours and darker greys keep contrast on white.
func LightStyles() *Styles {
	return newStyles(palette{
		dark:  false,
		green: lipgloss.Green, red: lipgloss.Red, yellow: lipgloss.Yellow,
		blue: lipgloss.Blue, cyan: lipgloss.Cyan, brand: lipgloss.Magenta,
		dim: lipgloss.Color("243"), border: lipgloss.Color("248"), faintBg: lipgloss.Color("254"),
	})
}

// StylesFor returns the styles of a theme; ThemeAuto starts dark until the
// terminal says otherwise.
func StylesFor(t Theme) *Styles {
	if t == ThemeLight {
		return LightStyles()
	}
	return DarkStyles()
}

func newStyles(p palette) *Styles {
	s := lipgloss.NewStyle
	st := &Styles{
		Dark:         p.dark,
		Brand:        s().Bold(true).Foreground(p.brand),
		Header:       s(),
		ClusterLive:  s().Foreground(p.green),
		ClusterStale: s().Foreground(p.yellow),
		ClusterDown:  s().Foreground(p.red).Bold(true),

		Text:    s(),
		Dim:     s().Foreground(p.dim),
		Bold:    s().Bold(true),
		Border:  s().Foreground(p.border),
		Title:   s().Bold(true),
		Section: s().Bold(true).Foreground(p.blue),
		Label:   s().Foreground(p.dim),

		ColumnHeader: s().Bold(true).Foreground(p.dim),
		SortKey:      s().Bold(true).Underline(true).Foreground(p.dim),
		Cursor:       s().Reverse(true),
		Mark:         s().Foreground(p.cyan).Bold(true),

		StateRunning:   s().Foreground(p.green),
		StateFailed:    s().Foreground(p.red).Bold(true),
		StateDeploying: s().Foreground(p.yellow),
		StateFinal:     s().Foreground(p.dim),
		StatePaused:    s().Foreground(p.cyan),
		StateCreated:   s().Foreground(p.blue),

		Info:  s().Foreground(p.cyan),
		Warn:  s().Foreground(p.yellow),
		Error: s().Foreground(p.red).Bold(true),

		Match:        s().Reverse(true).Foreground(p.yellow),
		MatchCurrent: s().Reverse(true).Bold(true).Foreground(p.cyan),

		TabActive:   s().Bold(true).Reverse(true),
		TabInactive: s().Foreground(p.dim),

		ChartLine:   s().Foreground(p.cyan),
		ChartAlert:  s().Foreground(p.yellow),
		AlertFiring: s().Foreground(p.red).Bold(true),

		Dialog:        s().Border(lipgloss.RoundedBorder()).BorderForeground(p.border).Padding(0, 1),
		DialogTitle:   s().Bold(true),
		Button:        s().Padding(0, 1).Foreground(p.dim),
		ButtonFocused: s().Padding(0, 1).Bold(true).Reverse(true),
		ButtonDanger:  s().Padding(0, 1).Bold(true).Reverse(true).Foreground(p.red),

		Help: help.DefaultStyles(p.dark),
	}
	st.Input = textinput.DefaultStyles(p.dark)
	// A steady cursor: blinking redraws the screen twice a second, which
	// costs bandwidth over SSH for nothing.
	st.Input.Cursor.Blink = false
	st.Area = textarea.DefaultStyles(p.dark)
	st.Area.Cursor.Blink = false
	st.Editor = newEditorStyles(p)
	return st
}

// WithoutColor is s for a terminal that shows no colour (NO_COLOR,
// https://no-color.org): what colour alone set apart is set apart by an
// attribute, which NO_COLOR keeps. Secondary text and placeholders are
// faint (a placeholder would read as typed text), a selection or a chosen
// suggestion reversed (their background is gone), a match underlined,
// the keys of the help bold; StateMark gives FAILED and KILLED a symbol.
func (s *Styles) WithoutColor() *Styles {
	c := *s
	c.NoColor = true
	faint := func(st lipgloss.Style) lipgloss.Style { return st.Faint(true) }
	c.Dim, c.Label, c.StateFinal, c.TabInactive, c.Button = faint(c.Dim), faint(c.Label), faint(c.StateFinal), faint(c.TabInactive), faint(c.Button)
	for _, st := range []*textinput.StyleState{&c.Input.Focused, &c.Input.Blurred} {
		st.Placeholder = faint(st.Placeholder)
	}
	for _, st := range []*textarea.StyleState{&c.Area.Focused, &c.Area.Blurred} {
		st.Placeholder = faint(st.Placeholder)
	}
	c.Help.ShortKey, c.Help.FullKey = c.Help.ShortKey.Bold(true), c.Help.FullKey.Bold(true)
	c.Help.ShortSeparator, c.Help.FullSeparator = faint(c.Help.ShortSeparator), faint(c.Help.FullSeparator)
	ed := &c.Editor
	ed.Selection = lipgloss.NewStyle().Reverse(true)
	ed.Match = lipgloss.NewStyle().Underline(true).Bold(true)
	ed.PopupSelected = lipgloss.NewStyle().Reverse(true).Bold(true)
	ed.LineNumber, ed.Comment, ed.PopupDetail = faint(ed.LineNumber), faint(ed.Comment), faint(ed.PopupDetail)
	return &c
}

// StateMark is the symbol that leads a job's state on its row where colour
// does not show it (NoColor): "✖ " for FAILED and DEPLOY_FAILED, "■ " for
// KILLED; "" otherwise, and always with colour.
func (s *Styles) StateMark(state model.JobState) string {
	if !s.NoColor {
		return ""
	}
	switch state {
	case model.StateFailed, model.StateDeployFailed:
		return "✖ "
	case model.StateKilled:
		return "■ "
	}
	return ""
}

// StateMarkWidth is the widest StateMark: the room the STATE column keeps
// for it.
func (s *Styles) StateMarkWidth() int {
	if !s.NoColor {
		return 0
	}
	return 2
}

// JobState is the one mapping from a job's state to its colour: RUNNING
// green, FAILED red, DEPLOYING and Flink's RESTARTING yellow, FINISHED and
// KILLED dim. flinkState is Flink's own status, which can say RESTARTING
// while the platform still says RUNNING.
func (s *Styles) JobState(state model.JobState, flinkState string) lipgloss.Style {
	switch state {
	case model.StateRunning:
		if flinkState == "RESTARTING" || flinkState == "FAILING" {
			return s.StateDeploying
		}
		return s.StateRunning
	case model.StateFailed, model.StateDeployFailed:
		return s.StateFailed
	case model.StateDeploying, model.StateDeploySucceeded:
		return s.StateDeploying
	case model.StateFinished, model.StateKilled:
		return s.StateFinal
	}
	return s.StateCreated
}

// Job is the colour of a job's state badge: JobState's, and a paused job's
// own (it waits for a restart; a job that ended is over).
func (s *Styles) Job(j *model.Job) lipgloss.Style {
	if _, ok := Paused(j); ok {
		return s.StatePaused
	}
	return s.JobState(j.State, j.FlinkState)
}

// CommandState colours a command's state the way JobState colours jobs.
func (s *Styles) CommandState(state model.CommandState) lipgloss.Style {
	switch state {
	case model.CmdDoing:
		return s.StateDeploying
	case model.CmdSucceeded:
		return s.StateRunning
	case model.CmdFailed:
		return s.StateFailed
	case model.CmdUnknown:
		// Its effect is being found out: neither done nor failed.
		return s.Warn
	}
	return s.StateCreated
}

// StateLabel is the text of a job's state badge: Flink's RESTARTING shows
// through, because "RUNNING" would hide a job that is crash-looping.
func StateLabel(state model.JobState, flinkState string) string {
	if state == model.StateRunning && (flinkState == "RESTARTING" || flinkState == "FAILING") {
		return flinkState
	}
	return state.String()
}

// StateIcon is the glyph that leads a state in the header counts.
func StateIcon(state model.JobState) string {
	switch state {
	case model.StateRunning:
		return "▲"
	case model.StateFailed, model.StateDeployFailed:
		return "✖"
	case model.StateDeploying, model.StateDeploySucceeded:
		return "◌"
	case model.StateNone:
		return "○"
	}
	return "■"
}

// Paused reports a job that a pause stopped, with the savepoint it left:
// FINISHED, and its latest savepoint is a PAUSE command's, taken since
// its application started (a job restarted after a pause that then ended
// by itself is FINISHED, not paused). A bounded job that ran out of input
// is FINISHED and not paused.
func Paused(j *model.Job) (*model.RestorePoint, bool) {
	sp := j.LatestSavepoint
	if j.State != model.StateFinished || sp == nil || !strings.HasPrefix(sp.Origin, pausePrefix) {
		return nil, false
	}
	at := sp.SeenAt
	if at.IsZero() {
		at = sp.Time
	}
	if !j.StartedAt.IsZero() && at.Before(j.StartedAt) {
		return nil, false
	}
	return sp, true
}

// pausedMark follows FINISHED in a paused job's badge.
const pausedMark = " ‖ paused"

// pausePrefix starts the Origin of a savepoint a PAUSE command took.
var pausePrefix = model.CmdPause.String() + " "

// StateCellWidth is the width of StateCell(j), without making the text:
// the jobs table measures every row's with it.
func StateCellWidth(j *api.JobView) int {
	n := len(StateLabel(j.State, j.FlinkState)) // the labels are ASCII
	if _, ok := Paused(&j.Job); ok {
		n += pausedMarkWidth
	}
	if j.Pending != nil && !j.Pending.State.Final() {
		n += 2 + len(j.Pending.Kind.String())
	}
	if j.Drift != nil {
		n += 2
	}
	if j.CrashLoop != nil {
		n += crashLoopMarkWidth
	}
	return n
}

// crashLoopMark follows the state of a job core says crash-loops
// (model.Job.CrashLoop): a symbol and a word, so that it reads without
// colour too.
const crashLoopMark = " ↻loop"

// crashLoopMarkWidth is crashLoopMark's width.
var crashLoopMarkWidth = Width(crashLoopMark)

// pausedMarkWidth is pausedMark's width.
var pausedMarkWidth = Width(pausedMark)

// StateCell is the state badge's text: the state (a paused job's says so),
// a pending command, drift, a crash loop.
func StateCell(j *api.JobView) string {
	s := StateLabel(j.State, j.FlinkState)
	if _, ok := Paused(&j.Job); ok {
		s += pausedMark
	}
	if j.Pending != nil && !j.Pending.State.Final() {
		s += " ›" + j.Pending.Kind.String()
	}
	if j.Drift != nil {
		s += " ⚠"
	}
	if j.CrashLoop != nil {
		s += crashLoopMark
	}
	return s
}

// LoadFailed is what a view shows in place of what it could not load: the
// error, and that ctrl+r tries again.
func (s Styles) LoadFailed(err error) string {
	return s.Error.Render("✖ "+err.Error()) + "\n" + s.Dim.Render("ctrl+r retries")
}
