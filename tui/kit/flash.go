package kit

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
)

// FlashLevel is how loud a flash is.
type FlashLevel int

// Flash levels.
const (
	FlashInfo FlashLevel = iota
	FlashWarn
	FlashError
)

// FlashLine is the one-line message under the footer: results of actions and
// errors. It clears itself, errors last longer, and a newer flash replaces
// an older one (the id makes a stale expiry harmless): the result of an
// action replaces its "…ing" (busy) flash, which stays until then.
//
// A flash belongs to the screen it was shown over (its scope), and goes
// when that screen is no longer on top; a flash of the session's (the
// outcome of an action, a lost connection) has none. A flash with a key
// goes when its cause is gone (ClearKey: the load that failed worked).
type FlashLine struct {
	id    int
	level FlashLevel
	text  string
	key   string
	busy  bool
	scope any
}

// flashLife is how long each level stays on screen.
func flashLife(l FlashLevel) time.Duration {
	switch l {
	case FlashError:
		return 20 * time.Second
	case FlashWarn:
		return 8 * time.Second
	}
	return 5 * time.Second
}

// busyLife bounds a busy flash whose work never reports back.
const busyLife = 2 * time.Minute

// Set replaces the flash with one of the session's and returns the Cmd
// that will clear it.
func (f *FlashLine) Set(after TimerFunc, level FlashLevel, text string) tea.Cmd {
	return f.Show(after, FlashMsg{Level: level, Text: text}, nil)
}

// Show replaces the flash with msg, over scope (nil for the session's),
// and returns the Cmd that will clear it.
func (f *FlashLine) Show(after TimerFunc, msg FlashMsg, scope any) tea.Cmd {
	f.id++
	f.level, f.text, f.key, f.busy, f.scope = msg.Level, msg.Text, msg.Key, msg.Busy, scope
	id := f.id
	life := flashLife(msg.Level)
	switch {
	case msg.Busy:
		life = busyLife
	case msg.Life > 0:
		life = msg.Life
	}
	return after(life, func(time.Time) tea.Msg { return FlashExpiredMsg{ID: id} })
}

// Expire clears the flash if it is still the one the expiry was made for.
func (f *FlashLine) Expire(id int) {
	if id == f.id {
		f.Clear()
	}
}

// Clear clears the flash now.
func (f *FlashLine) Clear() { f.text, f.key, f.busy, f.scope = "", "", false, nil }

// ClearKey clears the flash if its cause is key.
func (f *FlashLine) ClearKey(key string) {
	if key != "" && f.key == key {
		f.Clear()
	}
}

// Leave clears the flash if it belongs to a screen other than top: its
// screen was left.
func (f *FlashLine) Leave(top any) {
	if f.scope != nil && f.scope != top {
		f.Clear()
	}
}

// Text is what the flash says, "" when it is clear.
func (f *FlashLine) Text() string { return f.text }

// Busy reports a flash of work under way.
func (f *FlashLine) Busy() bool { return f.busy && f.text != "" }

// View renders the flash line, width cells wide.
func (f FlashLine) View(st *Styles, width int) string {
	if f.text == "" {
		return strings.Repeat(" ", max(width, 0))
	}
	// One line only: a multi-line error would push the frame off screen.
	text := strings.Join(strings.Fields(f.text), " ")
	switch f.level {
	case FlashError:
		return Fit(" "+st.Error.Render("✖ "+text), width)
	case FlashWarn:
		return Fit(" "+st.Warn.Render("⚠ "+text), width)
	}
	if f.busy {
		return Fit(" "+st.Info.Render("◌")+" "+text, width)
	}
	return Fit(" "+st.Info.Render("ⓘ")+" "+text, width)
}

// FlashMsg asks the root to show a result or an error in the flash line,
// over the screen on top: it goes when that screen is left.
type FlashMsg struct {
	Level FlashLevel
	Text  string
	// Key names the flash's cause, e.g. "load:jobs" or "save:j001":
	// ClearFlash(key) takes it away once the cause is gone.
	Key string
	// Busy reports work under way ("saving…"): the flash stays until the
	// work's result replaces it, where another would go in seconds.
	Busy bool
	// Life is how long it stays, when not its level's: an offer such as
	// "u to undo" as long as it holds.
	Life time.Duration
}

// ClearFlashMsg takes the flash away if its key is Key: its cause is gone.
type ClearFlashMsg struct{ Key string }

// FlashExpiredMsg clears the flash it was made for (FlashLine.Set).
type FlashExpiredMsg struct{ ID int }

// Flash is the Cmd that shows text in the flash line.
func Flash(level FlashLevel, text string) tea.Cmd { return Send(FlashMsg{Level: level, Text: text}) }

// FlashFor is Flash with a cause, which ClearFlash(key) takes away.
func FlashFor(key string, level FlashLevel, text string) tea.Cmd {
	return Send(FlashMsg{Level: level, Text: text, Key: key})
}

// Progress is the busy flash of work under way; the work's result (any
// flash) replaces it. Start work with Busy, which shows it first.
func Progress(key, text string) tea.Cmd {
	return Send(FlashMsg{Level: FlashInfo, Text: text, Key: key, Busy: true})
}

// Busy shows the busy flash of work under way (Progress), then runs the
// work, in that order: the program runs a tea.Batch's Cmds at once and
// delivers their messages as they end, so a quick answer batched with
// its busy flash could come first and "◌ saving…" stay after the save.
func Busy(key, text string, work tea.Cmd) tea.Cmd {
	return tea.Sequence(Progress(key, text), work)
}

// LoadFlash is the flash of a load: its error, under key, or, once a load
// worked after one failed (failedBefore), the Cmd that takes that error
// away; nil otherwise.
func LoadFlash(key string, err error, failedBefore bool) tea.Cmd {
	switch {
	case err != nil:
		return FlashFor(key, FlashError, err.Error())
	case failedBefore:
		return ClearFlash(key)
	}
	return nil
}

// ClearFlash takes away the flash whose cause is key.
func ClearFlash(key string) tea.Cmd { return Send(ClearFlashMsg{Key: key}) }
