package logview

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
)

// Searching: the window first (no request), then the service scans on from
// the window's edge, logScanStep bytes per call, each answer saying how far
// it got; a hit outside the window is read into a fresh window around it.

// next moves to the next match of the current query (N: the previous).
func (m *Viewer) next(backward bool) tea.Cmd {
	if m.query == (api.LogQuery{}) {
		return kit.Flash(kit.FlashWarn, "no search yet: / searches, E finds the first error")
	}
	from := m.topOffset()
	inclusive := true
	if m.match != nil {
		from, inclusive = m.match.off, false
	}
	m.origin, m.wrapped = from, false
	return m.find(backward, from, inclusive)
}

// firstError searches the whole log (or the period since shows), from its
// first line, for a line that reports a failure.
func (m *Viewer) firstError() tea.Cmd {
	m.query, m.match = api.LogQuery{Errors: true}, nil
	m.origin, m.wrapped = m.since.floor, false
	return m.find(false, m.since.floor, true)
}

// find looks for the query from the line that starts at (or holds) offset
// from, that line included when inclusive, in the window and then beyond.
func (m *Viewer) find(backward bool, from int64, inclusive bool) tea.Cmd {
	m.searchSeq = 0 // a new search replaces one in flight
	m.wholeLog = !backward && from == m.since.floor && inclusive
	if !m.loaded {
		return nil
	}
	q := m.query
	n := len(m.win.lines)
	if from >= m.win.start && (from < m.win.end() || n == 0) {
		step := 1
		if backward {
			step = -1
		}
		i := m.win.lineAt(from)
		if !inclusive {
			i += step
		}
		for ; i >= 0 && i < n; i += step {
			if a, b, ok := q.Match(m.win.line(i)); ok {
				return m.hit(&logMatchPos{off: m.win.lineOffset(i), start: a, end: b}, backward, false)
			}
		}
		// Not in the window: scan on from its edge.
		switch {
		case backward && m.win.start <= m.since.floor, !backward && !m.hasMore():
			return m.notFound(backward)
		case backward:
			from = m.win.start
		default:
			from = m.win.lineOffset(n - 1) // its last line may be cut
			if last := m.win.data[len(m.win.data)-1]; last == '\n' {
				from = m.win.end()
			}
		}
	} else if !inclusive && !backward {
		from++ // past the start of the current match's line
	}
	m.scanned = 0
	return m.scan(api.LogSearch{JobRef: m.jobID, Log: m.src.Ref, Query: q, From: from, Backward: backward, MaxScan: logScanStep})
}

func (m *Viewer) scan(s api.LogSearch) tea.Cmd {
	m.searchSeq = m.env.NextSeq()
	return findInLogCmd(m.call(), m.id, m.searchSeq, s)
}

// notFound ends a search that reached the end of the log (its start,
// backward): the first time, it goes on from the other end, up to where it
// began; then it says there is no match.
func (m *Viewer) notFound(backward bool) tea.Cmd {
	if !m.wrapped && !m.wholeLog {
		m.wrapped = true
		if !backward {
			return m.find(false, m.since.floor, true)
		}
		end := m.win.end()
		if m.size > end {
			end = m.size
		}
		if !m.hasMore() && len(m.win.lines) > 0 {
			return m.find(true, m.win.lineOffset(len(m.win.lines)-1), true)
		}
		return m.find(true, end, true)
	}
	return kit.Flash(kit.FlashWarn, fmt.Sprintf("%s: no match for %s in the whole log", m.src.Title, quoteQuery(m.query)))
}

// hit shows a search's match, or, when a wrapped search has come back to
// where it began, says that there is no other (inWindow false: the hit is
// outside the window, to be read).
func (m *Viewer) hit(p *logMatchPos, backward, read bool) tea.Cmd {
	if m.wrapped && ((!backward && p.off >= m.origin) || (backward && p.off <= m.origin)) {
		m.wrapped = false
		if m.match != nil && p.off == m.match.off {
			return kit.Flash(kit.FlashInfo, fmt.Sprintf("%s: %s matches only here", m.src.Title, quoteQuery(m.query)))
		}
		return kit.Flash(kit.FlashWarn, fmt.Sprintf("%s: no match for %s in the whole log", m.src.Title, quoteQuery(m.query)))
	}
	var say tea.Cmd
	if m.wrapped {
		where := "the top"
		if backward {
			where = "the bottom"
		}
		say = kit.Flash(kit.FlashInfo, fmt.Sprintf("search for %s wrapped: on from %s", quoteQuery(m.query), where))
	}
	if read {
		m.seq = 0 // the hit wins over a read in flight
		start := max(p.off-logChunk/2, m.since.read())
		return tea.Batch(say, m.read(opReset, placeMatch, p, api.LogRequest{Offset: start, Limit: logChunk}))
	}
	m.showMatch(p)
	return tea.Batch(say, m.ensure(!backward))
}

// onFound handles one scan step: a hit is shown (read into the window
// when outside it), a miss with more to scan goes on, the end says so.
func (m *Viewer) onFound(msg logFoundMsg) tea.Cmd {
	m.searchSeq = 0
	s, r := msg.search, msg.match
	if msg.err != nil {
		return kit.Flash(kit.FlashError, fmt.Sprintf("search %s for %s: %v", m.src.Title, quoteQuery(s.Query), msg.err))
	}
	if r.Size >= 0 {
		m.size = r.Size
	}
	switch {
	case s.Backward && ((r.Found && r.Offset < m.since.floor) || (!r.Found && !r.Exhausted && r.Next < m.since.floor)):
		// Past the period's first line: the rest is not shown.
		return m.notFound(true)
	case r.Found:
		hit := &logMatchPos{off: r.Offset, start: r.Start, end: r.End}
		inWindow := r.Offset >= m.win.start && r.Offset < m.win.end() && m.win.lineOffset(m.win.lineAt(r.Offset)) == r.Offset
		return m.hit(hit, s.Backward, !inWindow)
	case r.Exhausted:
		return m.notFound(s.Backward)
	}
	if s.Backward {
		m.scanned += s.From - r.Next
	} else {
		m.scanned += r.Next - s.From
	}
	s.From = r.Next
	return m.scan(s)
}
