package logview

import (
	"context"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/internal/logtime"
	"github.com/palink/palink/tui/kit"
)

// sincePresets are what the since keys choose, k9s' 0 to 3: the whole
// log, then its last 1, 5 and 15 minutes.
var sincePresets = map[string]time.Duration{"0": 0, "1": time.Minute, "2": 5 * time.Minute, "3": 15 * time.Minute}

// since is the part of the log the viewer shows: from the first line of
// its last d, by the log's own timestamps, as `palink logs --since` finds
// it (logtime). Reading up, g, searches and the filter stop at floor; d 0
// is the whole log.
type since struct {
	d     time.Duration
	floor int64     // file offset of the first line shown
	from  time.Time // the log's time the period starts at
	// seq is the search for a floor in flight (0 for none), asked what
	// it is for.
	seq   int
	asked time.Duration
}

// label names a duration as its key's help does: "5m".
func label(d time.Duration) string {
	switch {
	case d%time.Hour == 0:
		return fmt.Sprintf("%dh", d/time.Hour)
	case d%time.Minute == 0:
		return fmt.Sprintf("%dm", d/time.Minute)
	}
	return d.String()
}

// read is where a read that must start at the floor's line asks from: the
// byte before it, so that the window's first line is the floor's.
func (s since) read() int64 { return max(s.floor-1, 0) }

// note says the period for the status line.
func (s since) note() string {
	return fmt.Sprintf("since %s (from %s)", label(s.d), s.from.Format("15:04:05"))
}

// logSinceMsg is where a period starts, or why it cannot be found.
type logSinceMsg struct {
	viewer, seq int
	d           time.Duration
	off         int64
	from        time.Time
	err         error
}

// sinceCmd finds where the lines of the log's last d start: its size
// first, then a bisection on its timestamps, a few reads of the service.
func sinceCmd(c kit.Call[Service], viewer, seq int, req api.LogRequest, d time.Duration) tea.Cmd {
	return func() tea.Msg {
		msg := logSinceMsg{viewer: viewer, seq: seq, d: d}
		msg.err = c.With(func(ctx context.Context) error {
			tail := req
			tail.Tail, tail.Limit = true, 1
			ch, err := c.Service.ReadLog(ctx, tail)
			if err != nil {
				return err
			}
			end := ch.Size
			if end < 0 {
				end = ch.Offset + int64(len(ch.Data))
			}
			read := func(off, n int64) ([]byte, error) {
				b, _, err := readSpan(ctx, c.Service.ReadLog, req, off, off+n)
				return b, err
			}
			msg.off, msg.from, err = logtime.Since(read, end, d)
			return err
		})
		return msg
	}
}
