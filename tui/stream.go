package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
)

// stream is the service's change stream as the root keeps it. Each start
// is a new generation: a change, an end or a retry of a stream that was
// replaced is dropped. A stream that fails or ends is started again after
// a backoff that doubles up to 30 s, and a live one resets it.
type stream struct {
	env     *kit.Env
	gen     int
	ch      <-chan api.Change
	live    bool
	backoff time.Duration
}

func newStream(e *kit.Env) stream { return stream{env: e, backoff: time.Second} }

// start opens a new generation of the stream.
func (s *stream) start() tea.Cmd {
	s.gen++
	return startWatchCmd(s.env.Ctx, call(s.env).Service, s.gen)
}

// started takes Watch's answer: the next read, or the retry after a failure.
func (s *stream) started(msg watchStartedMsg) tea.Cmd {
	if msg.err != nil {
		s.live = false
		return s.retry()
	}
	s.ch, s.live, s.backoff = msg.ch, true, time.Second
	return s.next()
}

// next reads the next change.
func (s *stream) next() tea.Cmd { return s.env.ReadChange(s.env.Ctx, s.ch, s.gen) }

// retry schedules the next start, backing off.
func (s *stream) retry() tea.Cmd {
	d := s.backoff
	s.backoff = min(s.backoff*2, 30*time.Second)
	return watchRetryCmd(s.env.After, s.gen, d)
}
