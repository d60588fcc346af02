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
	return m.find(backward, from, inclusive)
}

// firstError searches the whole log, from its first byte, for a line that
// reports a failure.
func (m *Viewer) firstError() tea.Cmd {
	m.query, m.match = api.LogQuery{Errors: true}, nil
	return m.find(false, 0, true)
}

// find looks for the query from the line that starts at (or holds) offset
// from, that line included when inclusive, in the window and then beyond.
func (m *Viewer) find(backward bool, from int64, inclusive bool) tea.Cmd {
	m.searchSeq = 0 // a new search replaces one in flight
	m.wholeLog = !backward && from == 0 && inclusive
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
				m.showMatch(&logMatchPos{off: m.win.lineOffset(i), start: a, end: b})
				return m.ensure(!backward)
			}
		}
		// Not in the window: scan on from its edge.
		switch {
		case backward && m.win.start == 0, !backward && !m.hasMore():
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
	return findInLogCmd(m.env.Call(), m.id, m.searchSeq, s)
}

func (m *Viewer) notFound(backward bool) tea.Cmd {
	where := "after this point"
	switch {
	case backward:
		where = "before this point"
	case m.wholeLog:
		where = "in the whole log"
	}
	return kit.Flash(kit.FlashWarn, fmt.Sprintf("%s: no match for %s %s", m.src.Title, quoteQuery(m.query), where))
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
	case r.Found:
		hit := &logMatchPos{off: r.Offset, start: r.Start, end: r.End}
		if r.Offset >= m.win.start && r.Offset < m.win.end() && m.win.lineOffset(m.win.lineAt(r.Offset)) == r.Offset {
			m.showMatch(hit)
			return nil
		}
		m.seq = 0 // the hit wins over a read in flight
		start := max(r.Offset-logChunk/2, 0)
		return m.read(opReset, placeMatch, hit, api.LogRequest{Offset: start, Limit: logChunk})
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
