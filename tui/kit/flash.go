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
// an older one (the id makes a stale expiry harmless).
type FlashLine struct {
	id    int
	level FlashLevel
	text  string
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

// Set replaces the flash and returns the Cmd that will clear it.
func (f *FlashLine) Set(after TimerFunc, level FlashLevel, text string) tea.Cmd {
	f.id++
	f.level, f.text = level, text
	id := f.id
	return after(flashLife(level), func(time.Time) tea.Msg { return FlashExpiredMsg{ID: id} })
}

// Expire clears the flash if it is still the one the expiry was made for.
func (f *FlashLine) Expire(id int) {
	if id == f.id {
		f.text = ""
	}
}

// Clear clears the flash now.
func (f *FlashLine) Clear() { f.text = "" }

// Text is what the flash says, "" when it is clear.
func (f *FlashLine) Text() string { return f.text }

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
	return Fit(" "+st.Info.Render("ⓘ")+" "+text, width)
}

// FlashMsg asks the root to show a result or an error in the flash line.
type FlashMsg struct {
	Level FlashLevel
	Text  string
}

// FlashExpiredMsg clears the flash it was made for (FlashLine.Set).
type FlashExpiredMsg struct{ ID int }

// Flash is the Cmd that shows text in the flash line.
func Flash(level FlashLevel, text string) tea.Cmd { return Send(FlashMsg{Level: level, Text: text}) }
