package logview

// What the tests of package logview_test look at.

// Chunk and WindowMax are the bytes of a read and of the window.
const Chunk, WindowMax = logChunk, logWindowMax

// PollMsg is follow mode's clock.
type PollMsg = logPollMsg

func (m *Viewer) WinStart() int64  { return m.win.start }
func (m *Viewer) WinEnd() int64    { return m.win.end() }
func (m *Viewer) WinBytes() int    { return len(m.win.data) }
func (m *Viewer) TopLine() int     { return m.top }
func (m *Viewer) AtBottom() bool   { return m.atBottom() }
func (m *Viewer) Following() bool  { return m.follow }
func (m *Viewer) TopOffset() int64 { return m.topOffset() }

// Match is the current search hit's line offset, and whether there is one.
func (m *Viewer) Match() (int64, bool) {
	if m.match == nil {
		return 0, false
	}
	return m.match.off, true
}

// LineAt is the text of the window's line that holds offset off.
func (m *Viewer) LineAt(off int64) string { return string(m.win.line(m.win.lineAt(off))) }
