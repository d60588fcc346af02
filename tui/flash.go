package tui

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/palink/palink/tui/kit"
)

// flashLevel is how loud a flash is.
type flashLevel int

const (
	flashInfo flashLevel = iota
	flashWarn
	flashError
)

// flash is the one-line message under the footer: results of actions and
// errors. It clears itself, errors last longer, and a newer flash replaces
// an older one (the id makes a stale expiry harmless).
type flash struct {
	id    int
	level flashLevel
	text  string
}

// flashLife is how long each level stays on screen.
func flashLife(l flashLevel) time.Duration {
	switch l {
	case flashError:
		return 20 * time.Second
	case flashWarn:
		return 8 * time.Second
	}
	return 5 * time.Second
}

// set replaces the flash and returns the Cmd that will clear it.
func (f *flash) set(after timerFunc, level flashLevel, text string) tea.Cmd {
	f.id++
	f.level, f.text = level, text
	id := f.id
	return after(flashLife(level), func(time.Time) tea.Msg { return flashExpiredMsg{id: id} })
}

// expire clears the flash if it is still the one the expiry was made for.
func (f *flash) expire(id int) {
	if id == f.id {
		f.text = ""
	}
}

func (f flash) view(st *kit.Styles, width int) string {
	if f.text == "" {
		return strings.Repeat(" ", max(width, 0))
	}
	// One line only: a multi-line error would push the frame off screen.
	text := strings.Join(strings.Fields(f.text), " ")
	switch f.level {
	case flashError:
		return kit.Fit(" "+st.Error.Render("✖ "+text), width)
	case flashWarn:
		return kit.Fit(" "+st.Warn.Render("⚠ "+text), width)
	}
	return kit.Fit(" "+st.Info.Render("ⓘ")+" "+text, width)
}
