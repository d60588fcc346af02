package logview

import (
	"context"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
)

// The log viewer's Cmds and messages. Every message carries the viewer's
// id and the request's sequence number, so that a viewer drops answers to
// requests it no longer waits for, and another viewer never takes them.

// logOp says what a read is for, which decides how the chunk joins the
// window.
type logOp int

const (
	// opReset replaces the window (open, jump to top or bottom, a search
	// hit outside the window).
	opReset logOp = iota
	opPrepend
	opAppend
	// opFollow appends what the file gained since the last poll.
	opFollow
)

type logReadMsg struct {
	viewer int
	seq    int
	op     logOp
	req    api.LogRequest
	chunk  api.LogChunk
	err    error
}

type logFoundMsg struct {
	viewer int
	seq    int
	search api.LogSearch
	match  api.LogMatch
	err    error
}

type logSavedMsg struct {
	viewer int
	saved  api.SavedLog
	err    error
}

// logPollMsg is follow mode's clock; gen ends a poll loop when follow is
// turned off and on again.
type logPollMsg struct {
	viewer int
	gen    int
}

// followEvery is how often follow mode asks for the log's new bytes.
const followEvery = 2 * time.Second

// saveTimeout bounds saving a whole log, which may take minutes for a big
// one on a slow cluster; every other call has the request timeout.
const saveTimeout = 30 * time.Minute

func readLogCmd(c kit.Call[Service], viewer, seq int, op logOp, req api.LogRequest) tea.Cmd {
	return func() tea.Msg {
		var ch api.LogChunk
		err := c.With(func(ctx context.Context) (err error) {
			ch, err = c.Service.ReadLog(ctx, req)
			return err
		})
		return logReadMsg{viewer: viewer, seq: seq, op: op, req: req, chunk: ch, err: err}
	}
}

func findInLogCmd(c kit.Call[Service], viewer, seq int, s api.LogSearch) tea.Cmd {
	return func() tea.Msg {
		var m api.LogMatch
		err := c.With(func(ctx context.Context) (err error) {
			m, err = c.Service.FindInLog(ctx, s)
			return err
		})
		return logFoundMsg{viewer: viewer, seq: seq, search: s, match: m, err: err}
	}
}

// saveLogCmd saves a log; its outcome goes to the flash line even when the
// user has left the viewer meanwhile. what names the log: "orders-enrich
// JobManager log".
func saveLogCmd(c kit.Call[Service], viewer int, key, what string, r api.SaveLogRequest) tea.Cmd {
	c.Timeout = saveTimeout
	return func() tea.Msg {
		var s api.SavedLog
		err := c.With(func(ctx context.Context) (err error) {
			s, err = c.Service.SaveLog(ctx, r)
			return err
		})
		flash := kit.FlashMsg{Level: kit.FlashInfo, Key: key, Text: fmt.Sprintf("saved %s (%s) to %s", what, kit.Bytes(s.Bytes), s.Path)}
		if err != nil {
			flash = kit.FlashMsg{Level: kit.FlashError, Key: key, Text: fmt.Sprintf("save %s: %v", what, err)}
		}
		return tea.BatchMsg{kit.Send(logSavedMsg{viewer: viewer, saved: s, err: err}), kit.Send(flash)}
	}
}

// saveKey is the key of the flashes of saving a log.
func saveKey(jobID string, src api.LogSource) string {
	return fmt.Sprintf("save-log:%s:%+v", jobID, src.Ref)
}

func logPollCmd(after kit.TimerFunc, viewer, gen int) tea.Cmd {
	return after(followEvery, func(time.Time) tea.Msg { return logPollMsg{viewer: viewer, gen: gen} })
}
