package logview

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
)

// The log viewer reads a log a chunk at a time and holds a window of a few
// chunks around the view, dropping the others: memory stays the same for
// a 1 MB and a 200 MB log. Reading up or down past the window fetches the
// next chunk; g and G jump by reading the head or the tail. Follow mode
// polls for new bytes while the view is at the bottom. A search looks in
// the window first, then asks the service to scan on, chunk by chunk on
// its side, and reads the window around the hit.

const (
	logChunk     = api.DefaultLogChunk // bytes per read
	logWindowMax = 4 * logChunk        // bytes held
	logScanStep  = 32 << 20            // bytes one FindInLog call scans
	// followOverlap is how many of the window's last bytes a follow read
	// asks for again, to see that the file goes on from them.
	followOverlap = 64
)

// logMatchPos is a search hit: the start of its line in the file, and where
// the query matched in it.
type logMatchPos struct {
	off        int64
	start, end int
}

// logPlace says where the view goes once a reset read is in.
type logPlace int

const (
	placeTop logPlace = iota
	placeBottom
	// placeMatch shows readAt as the current search hit; placeAt only
	// puts the line at readAt on top.
	placeMatch
	placeAt
)

// Viewer is the log viewer of one log of a job.
type Viewer struct {
	pane // the window of the log held, and what of it is on screen (pane.go)

	env     *kit.Env
	id      int // identity of this viewer's requests
	jobID   string
	jobName string
	src     api.LogSource

	follow    bool
	followGen int
	// appended counts the lines follow mode added since it was turned on,
	// and appendedAt is when the last came: the status line shows them, so
	// that new lines are seen to arrive even when they look alike.
	appended   int
	appendedAt time.Time
	// rotatedAt is when the log was last seen rotated (zero: never).
	rotatedAt time.Time

	// One read at a time: seq identifies it, op and place say what it is for.
	seq       int
	readOp    logOp
	readPlace logPlace
	readAt    *logMatchPos
	err       error

	query     api.LogQuery
	match     *logMatchPos
	searchSeq int // the FindInLog in flight, 0 for none
	scanned   int64
	wholeLog  bool // the search started at the first byte (E)
	// A search that reaches the end of the log (the start, backward) goes
	// on from the other end (wrapped) up to where it began (origin).
	origin  int64
	wrapped bool

	in     inputLine
	saving bool

	// filter shows only the lines a query matches (/), nil when off.
	filter *filterView
	// since is the part of the log shown: its last minutes, or all.
	since since

	// findFirst is the query a viewer opened at a place (a failure's
	// time) looks for once the head is read.
	findFirst api.LogQuery
	// text is a viewer over text palink already holds (a thread dump):
	// it is read and searched in memory, through the same chunked calls.
	text *textLog
}

// New opens the viewer on src, a log of job jobID, at its tail; the Cmd
// reads the tail.
func New(e *kit.Env, jobID, jobName string, src api.LogSource) (*Viewer, tea.Cmd) {
	m := &Viewer{env: e, id: e.NextSeq(), jobID: jobID, jobName: jobName, src: src,
		pane: pane{win: newLogWindow(logWindowMax), size: -1}, in: newInputLine(e.Styles)}
	return m, m.read(opReset, placeBottom, nil, api.LogRequest{Tail: true, Limit: logChunk})
}

// NewAt opens the viewer on src at the first line q matches (a failure's
// time), reading from the head: the Cmd reads it, and the search follows.
func NewAt(e *kit.Env, jobID, jobName string, src api.LogSource, q api.LogQuery) (*Viewer, tea.Cmd) {
	m, _ := New(e, jobID, jobName, src)
	m.seq, m.findFirst = 0, q
	return m, m.read(opReset, placeTop, nil, api.LogRequest{Offset: 0, Limit: logChunk})
}

// NewText opens the viewer on text (a thread dump) titled title, at its
// head: searchable and scrolled as a log, never saved.
func NewText(e *kit.Env, jobID, jobName, title string, text []byte) (*Viewer, tea.Cmd) {
	m, _ := New(e, jobID, jobName, api.LogSource{Title: title, Size: int64(len(text))})
	m.seq, m.text = 0, &textLog{data: text}
	return m, m.read(opReset, placeTop, nil, api.LogRequest{Offset: 0, Limit: logChunk})
}

// call is what the viewer's Cmds talk to: the service, or the text.
func (m *Viewer) call() kit.Call[Service] {
	c := call(m.env)
	if m.text != nil {
		c.Service = textService{Service: c.Service, text: m.text}
	}
	return c
}

// Title implements kit.Screen.
func (m *Viewer) Title() string { return m.jobName + " · " + m.src.Title }

// Capturing reports that the input line has the keyboard, or a running
// search does, so that esc stops it instead of closing the viewer.
func (m *Viewer) Capturing() bool { return m.in.kind != promptNone || m.searchSeq != 0 }

// ShortHelp implements kit.Screen.
func (m *Viewer) ShortHelp() []key.Binding {
	k := m.env.Keys
	switch {
	case m.in.kind == promptFilter:
		return []key.Binding{
			key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "keep filter")),
			key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter"))}
	case m.in.kind != promptNone:
		return []key.Binding{k.Form.Confirm, k.Form.Cancel}
	case m.filter != nil:
		return filterHelp(k, m.filter.scanning())
	case m.searchSeq != 0:
		return append([]key.Binding{key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "stop search"))}, shortHelp(k)...)
	}
	return shortHelp(k)
}

// FullHelp implements kit.Screen.
func (m *Viewer) FullHelp() [][]key.Binding { return Help(m.env.Keys) }

// read asks for one chunk, unless a read is in flight.
func (m *Viewer) read(op logOp, place logPlace, at *logMatchPos, req api.LogRequest) tea.Cmd {
	if m.seq != 0 {
		return nil
	}
	req.JobRef, req.Log = m.jobID, m.src.Ref
	m.seq = m.env.NextSeq()
	m.readOp, m.readPlace, m.readAt = op, place, at
	return readLogCmd(m.call(), m.id, m.seq, op, req)
}

// Update implements kit.Screen.
func (m *Viewer) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.in.fit(m.cols())
		m.clampView()
		if f := m.filter; f != nil {
			f.width, f.height = msg.Width, msg.Height
			f.clampView()
		}
	case logReadMsg:
		if msg.viewer == m.id && msg.seq == m.seq {
			return m, m.onRead(msg)
		}
	case logFoundMsg:
		if msg.viewer == m.id && msg.seq == m.searchSeq {
			return m, m.onFound(msg)
		}
	case logSavedMsg:
		if msg.viewer == m.id {
			m.saving = false
		}
	case logFilteredMsg:
		if f := m.filter; f != nil && msg.viewer == m.id && msg.seq == f.seq {
			cmd, rotated := f.onStep(msg)
			if rotated {
				m.filter = f.end()
				return m, tea.Batch(m.rotated(), m.setFilter(f.query.Text))
			}
			return m, cmd
		}
	case logSinceMsg:
		if msg.viewer == m.id && msg.seq == m.since.seq {
			return m, m.onSince(msg)
		}
	case logPollMsg:
		if msg.viewer == m.id && msg.gen == m.followGen && m.follow {
			next := logPollCmd(m.env.After, m.id, m.followGen)
			if m.filter != nil {
				return m, tea.Batch(next, m.filter.poll())
			}
			return m, tea.Batch(next, m.poll())
		}
	case tea.KeyPressMsg:
		return m, m.key(msg)
	case tea.PasteMsg:
		if m.in.kind != promptNone {
			return m, m.promptKey(msg)
		}
	}
	return m, nil
}

// onRead joins a chunk to the window and places the view.
func (m *Viewer) onRead(msg logReadMsg) tea.Cmd {
	m.seq = 0
	if msg.err != nil {
		m.err = msg.err
		return kit.Flash(kit.FlashError, fmt.Sprintf("read %s of %s: %v", m.src.Title, m.jobName, msg.err))
	}
	m.err = nil
	ch := msg.chunk
	if m.loaded && m.readOp != opReset {
		var ok bool
		if ch, ok = m.win.continues(msg.req, ch); !ok {
			return m.rotated()
		}
	}
	wasEnd := m.viewAtEnd()
	m.size, m.more = ch.Size, ch.More
	topOff := int64(-1)
	if len(m.win.lines) > 0 {
		topOff = m.win.lineOffset(m.top)
	}
	switch m.readOp {
	case opReset:
		m.win.reset(ch.Offset, ch.Data)
		m.win.cutBefore(m.since.floor)
		m.loaded = true
		m.top, m.sub = 0, 0
		switch m.readPlace {
		case placeBottom:
			m.toBottom()
		case placeMatch:
			m.showMatch(m.readAt)
		case placeAt:
			m.top = m.win.lineAt(m.readAt.off)
		}
	case opPrepend:
		if m.win.prepend(ch.Offset, ch.Data) {
			m.win.cutBefore(m.since.floor)
			m.top = m.win.lineAt(topOff)
		}
	case opAppend, opFollow:
		if m.readOp == opFollow && len(ch.Data) > 0 {
			m.appended += bytes.Count(ch.Data, []byte{'\n'})
			m.appendedAt = m.env.Now
		}
		if !m.win.appendChunk(ch.Offset, ch.Data) {
			return m.read(opReset, placeBottom, nil, api.LogRequest{Tail: true, Limit: logChunk})
		}
		m.top = m.win.lineAt(topOff)
		if m.follow && wasEnd {
			m.toBottom()
		}
	}
	m.clampView()
	if q := m.findFirst; q != (api.LogQuery{}) {
		m.findFirst = api.LogQuery{}
		m.query, m.match = q, nil
		m.origin, m.wrapped = 0, false
		return m.find(false, 0, true)
	}
	if m.readOp == opFollow && m.follow && ch.More {
		return m.poll() // more arrived than one chunk: catch up
	}
	return nil
}

// poll reads what the file gained, when the view is at the bottom; a file
// far ahead of the window is read from its tail instead.
func (m *Viewer) poll() tea.Cmd {
	if m.seq != 0 || !m.viewAtEnd() {
		return nil
	}
	if m.size >= 0 && m.more && m.size-m.win.end() > logWindowMax {
		return m.read(opReset, placeBottom, nil, api.LogRequest{Tail: true, Limit: logChunk})
	}
	// Read again the window's last bytes: that they are still there, the
	// same, is what says the file was not rotated meanwhile (its size says
	// nothing once a new file has outgrown the old).
	back := min(int64(len(m.win.data)), followOverlap)
	return m.read(opFollow, placeBottom, nil, api.LogRequest{Offset: m.win.end() - back, Limit: logChunk})
}

// rotated starts again at the start of a log that was rotated or
// truncated under the viewer: what it holds belongs to a file that is no
// longer there.
func (m *Viewer) rotated() tea.Cmd {
	m.rotatedAt, m.size, m.more = m.env.Now, -1, false
	m.since = since{}
	m.match, m.appended = nil, 0
	m.seq = 0
	place := placeTop
	if m.follow {
		place = placeBottom
	}
	return tea.Batch(
		kit.Flash(kit.FlashWarn, fmt.Sprintf("log rotated: %s is a new file; reading it from its start", m.src.Title)),
		m.read(opReset, place, nil, api.LogRequest{Offset: 0, Limit: logChunk}))
}

// ensure fetches the next chunk in the direction the view moves, when it
// comes within a page of the window's edge.
func (m *Viewer) ensure(down bool) tea.Cmd {
	if !m.loaded || m.seq != 0 {
		return nil
	}
	page := m.page()
	if !down && m.top < 2*page && m.win.start > m.since.floor {
		start := max(m.win.start-logChunk, m.since.read())
		return m.read(opPrepend, placeTop, nil, api.LogRequest{Offset: start, Limit: m.win.start - start})
	}
	if down && len(m.win.lines)-m.top < 2*page && m.hasMore() {
		return m.read(opAppend, placeTop, nil, api.LogRequest{Offset: m.win.end(), Limit: logChunk})
	}
	return nil
}

func (m *Viewer) key(msg tea.KeyPressMsg) tea.Cmd {
	k := m.env.Keys
	if m.in.kind != promptNone {
		return m.promptKey(msg)
	}
	if m.searchSeq != 0 && key.Matches(msg, k.Global.Back) {
		m.searchSeq = 0
		return kit.Flash(kit.FlashInfo, fmt.Sprintf("search for %q stopped", m.query.String()))
	}
	if f := m.filter; f != nil {
		if cmd, ok := f.key(k, msg); ok {
			return cmd
		}
		if key.Matches(msg, k.Nav.Enter) {
			return m.showFiltered()
		}
	}
	switch {
	case key.Matches(msg, k.Nav.Up):
		m.scroll(-1)
		return m.ensure(false)
	case key.Matches(msg, k.Nav.Down):
		m.scroll(1)
		return m.ensure(true)
	case key.Matches(msg, k.Nav.PageUp):
		m.scroll(-m.page())
		return m.ensure(false)
	case key.Matches(msg, k.Nav.PageDown):
		m.scroll(m.page())
		return m.ensure(true)
	case key.Matches(msg, k.Nav.Top):
		if m.win.start <= m.since.floor {
			m.top, m.sub = 0, 0
			return nil
		}
		m.seq = 0 // a jump wins over a read in flight
		return m.read(opReset, placeTop, nil, api.LogRequest{Offset: m.since.read(), Limit: logChunk})
	case key.Matches(msg, k.Nav.Bottom):
		if !m.hasMore() {
			m.toBottom()
			return nil
		}
		m.seq = 0
		return m.read(opReset, placeBottom, nil, api.LogRequest{Tail: true, Limit: logChunk})
	case key.Matches(msg, k.Log.ScrollSide):
		if p := m.shown(); !p.wrap {
			step := max(p.cols()/2, 1)
			if msg.String() == "left" {
				step = -step
			}
			p.xoff = max(p.xoff+step, 0)
		}
	case key.Matches(msg, k.Log.Wrap):
		panes := []*pane{&m.pane}
		if m.filter != nil {
			panes = append(panes, &m.filter.pane)
		}
		for _, p := range panes {
			end := p.viewAtEnd()
			p.wrap = !p.wrap
			p.sub, p.xoff = 0, 0
			p.clampView()
			if end {
				p.toBottom()
			}
		}
	case key.Matches(msg, k.Log.Follow):
		m.follow = !m.follow
		m.appended = 0
		if !m.follow {
			return nil
		}
		m.followGen++
		poll := logPollCmd(m.env.After, m.id, m.followGen)
		if f := m.filter; f != nil {
			f.toBottom()
			return tea.Batch(poll, f.poll())
		}
		if m.hasMore() {
			m.seq = 0
			return tea.Batch(poll, m.read(opReset, placeBottom, nil, api.LogRequest{Tail: true, Limit: logChunk}))
		}
		m.toBottom()
		return tea.Batch(poll, m.poll())
	case key.Matches(msg, k.Nav.Refresh) && m.filter != nil:
		return m.setFilter(m.filter.query.Text)
	case key.Matches(msg, k.Nav.Refresh):
		m.seq = 0
		if !m.loaded {
			return m.read(opReset, placeBottom, nil, api.LogRequest{Tail: true, Limit: logChunk})
		}
		return m.read(opReset, placeAt, &logMatchPos{off: m.topOffset()}, api.LogRequest{Offset: max(m.topOffset()-logChunk/2, 0), Limit: logChunk})
	case key.Matches(msg, k.Log.Filter):
		text := ""
		if m.filter != nil {
			text = m.filter.query.Text
		}
		return m.in.open(promptFilter, "/", text, m.cols())
	case key.Matches(msg, k.Log.NextMatch):
		return m.next(false)
	case key.Matches(msg, k.Log.PrevMatch):
		return m.next(true)
	case key.Matches(msg, k.Log.FirstError):
		m.filter = m.filter.end()
		return m.firstError()
	case key.Matches(msg, k.Log.Since):
		d := sincePresets[msg.String()]
		if d == 0 {
			m.since = since{}
			if m.filter != nil {
				return m.setFilter(m.filter.query.Text)
			}
			return kit.Flash(kit.FlashInfo, "since: the whole log (g reads its start)")
		}
		m.since.seq, m.since.asked = m.env.NextSeq(), d
		return sinceCmd(m.call(), m.id, m.since.seq, api.LogRequest{JobRef: m.jobID, Log: m.src.Ref}, d)
	case key.Matches(msg, k.Log.Copy):
		i, ok := m.current(m.match)
		if !ok {
			return kit.Flash(kit.FlashWarn, "copy: no line is shown yet")
		}
		return copyLine(&m.pane, i)
	case key.Matches(msg, k.Log.Save):
		if m.saving {
			return kit.Flash(kit.FlashWarn, "a save of this log is already running")
		}
		return m.in.open(promptSave, "save to: ", defaultSavePath(m.jobName, m.src), m.cols())
	}
	return nil
}

// promptKey handles a key, or a paste, while the input line is open: the
// filter's follows what is typed.
func (m *Viewer) promptKey(msg tea.Msg) tea.Cmd {
	k := m.env.Keys
	press, _ := msg.(tea.KeyPressMsg)
	switch {
	case key.Matches(press, k.Form.Cancel):
		if m.in.kind == promptFilter {
			m.filter = m.filter.end()
		}
		m.in.close()
		return nil
	case key.Matches(press, k.Form.Confirm):
		p, v := m.in.kind, m.in.field.Value()
		m.in.close()
		switch p {
		case promptFilter:
			if v == "" {
				m.filter = m.filter.end()
			}
			return nil
		case promptSave:
			if strings.TrimSpace(v) == "" {
				return nil
			}
			m.saving = true
			return kit.Busy(saveKey(m.jobID, m.src), fmt.Sprintf("saving %s of %s to %s…", m.src.Title, m.jobName, v),
				saveLogCmd(m.call(), m.id, saveKey(m.jobID, m.src), m.jobName+" "+m.src.Title, api.SaveLogRequest{JobRef: m.jobID, Log: m.src.Ref, Path: v}))
		}
		return nil
	}
	was := m.in.field.Value()
	var cmd tea.Cmd
	m.in.field, cmd = m.in.field.Update(msg)
	if v := m.in.field.Value(); m.in.kind == promptFilter && v != was {
		m.in.fit(m.cols())
		return tea.Batch(cmd, m.setFilter(v))
	}
	return cmd
}

// setFilter filters the log for text as typed, from the start again; ""
// turns the filter off.
func (m *Viewer) setFilter(text string) tea.Cmd {
	m.filter = m.filter.end()
	if text == "" {
		return nil
	}
	var cmd tea.Cmd
	m.filter, cmd = newFilter(m.env, m.call(), m.id, api.LogRequest{JobRef: m.jobID, Log: m.src.Ref}, api.LogQuery{Text: text}, m.since, &m.pane)
	return cmd
}

// onSince shows the period a since key asked for, from its first line
// (from the end, following), or says why there is none.
func (m *Viewer) onSince(msg logSinceMsg) tea.Cmd {
	m.since.seq = 0
	if msg.err != nil {
		return kit.Flash(kit.FlashError, fmt.Sprintf("since %s: %v", label(msg.d), msg.err))
	}
	m.since = since{d: msg.d, floor: msg.off, from: msg.from}
	m.match = nil
	var filter tea.Cmd
	if m.filter != nil {
		filter = m.setFilter(m.filter.query.Text)
	}
	m.seq = 0 // the period wins over a read in flight
	if m.follow {
		return tea.Batch(filter, m.read(opReset, placeBottom, nil, api.LogRequest{Tail: true, Limit: logChunk}))
	}
	return tea.Batch(filter, m.read(opReset, placeTop, nil, api.LogRequest{Offset: m.since.read(), Limit: logChunk}))
}

// showFiltered shows the filter's current line in the whole log, as a
// search's match: the filter goes, its query stays for n and N.
func (m *Viewer) showFiltered() tea.Cmd {
	f := m.filter
	if len(f.held) == 0 {
		return kit.Flash(kit.FlashWarn, "filter: no line to show")
	}
	l := f.held[f.cur]
	a, b, _ := f.query.Match(l.text)
	m.filter = f.end()
	m.query, m.match = f.query, nil
	m.origin, m.wrapped = l.off, false
	hit := &logMatchPos{off: l.off, start: a, end: b}
	inWindow := l.off >= m.win.start && l.off < m.win.end() && m.win.lineOffset(m.win.lineAt(l.off)) == l.off
	return m.hit(hit, false, !inWindow)
}

// Back implements kit.Backer: esc stops the filter's scan, then clears
// the filter, before it closes the viewer.
func (m *Viewer) Back() (tea.Cmd, bool) {
	f := m.filter
	switch {
	case f == nil:
		return nil, false
	case f.scanning():
		f.stop()
		return kit.Flash(kit.FlashInfo, fmt.Sprintf("filter for %s stopped: %s", quoteQuery(f.query), f.extentNote())), true
	}
	m.filter = f.end()
	if m.follow {
		return m.poll(), true // the log's view catches up
	}
	return nil, true
}

// shown is the pane on screen: the filter's, or the log's.
func (m *Viewer) shown() *pane {
	if m.filter != nil {
		return &m.filter.pane
	}
	return &m.pane
}

// Close implements kit.Closer: the filter's scan stops with the viewer.
func (m *Viewer) Close() { m.filter = m.filter.end() }

// defaultSavePath names a saved log after its job and source:
// orders-enrich-taskmanager-container_01-stdout.log.
func defaultSavePath(job string, src api.LogSource) string {
	var b strings.Builder
	for _, r := range strings.ToLower(job + "-" + src.Title) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	name := strings.Trim(b.String(), "-.")
	for strings.Contains(name, "--") {
		name = strings.ReplaceAll(name, "--", "-")
	}
	if !strings.HasSuffix(name, ".log") {
		name += ".log"
	}
	return name
}
