package editor

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/flinksql/builtin"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/kit"
	"github.com/palink/palink/tui/sqlview"
)

// Screen is the SQL editor of one job: a multi-line editor with
// Flink SQL highlighting, live validation (debounced, run in a Cmd), error
// markers, search, undo; ctrl-s saves a new spec version, ctrl-r submits
// the saved version through the usual plan → confirm → act flow, ctrl-e
// hands the text to $EDITOR, ctrl-o lists versions and ctrl-d starts a
// local debug run.
type Screen struct {
	env  *kit.Env
	runs *DebugRuns
	// id tells this editor's messages from another's.
	id  int
	job api.JobView
	buf *textBuffer

	// base is the text of the version loaded or last saved; the buffer is
	// "edited" when it differs.
	base    string
	version int
	loaded  bool
	loadErr error
	loadSeq int
	saving  bool
	saveSeq int

	// Validation: diags are for the text of checkedVersion.
	diags          []flinksql.Diagnostic
	checkedVersion int
	checking       bool
	checkAgain     bool

	hl   hlCache    // the highlighting of the lines around the window
	find finder     // ctrl-f
	comp completion // tab, ctrl+space: the popup of suggestions
	// gatewayVersion is the Flink release the job's cluster's SQL Gateway
	// says it runs, for a cluster the config names none for.
	gatewayVersion string
	udfs           udfRegistry // udfs.go
	// assets are the cluster's catalog tables and variables; injected is
	// what the last check took from the catalog.
	assets   clusterAssets
	injected injected

	clipboard string
	dirtyMemo struct {
		version int
		base    string // compared by pointer and length first, so cheap
		dirty   bool
	}
	// warned is the key whose second press confirms dropping unsaved
	// edits (esc, or ctrl-c through interrupt).
	warned string

	offset, xoff  int
	width, height int
}

// validateDelay is how long typing must pause before the text is checked.
const validateDelay = 250 * time.Millisecond

// New opens the editor of job j, whose Cmd loads its SQL versions; runs
// is the session's debug runs (the root keeps it between editors).
func New(e *kit.Env, runs *DebugRuns, j api.JobView) (*Screen, tea.Cmd) {
	in := textinput.New()
	in.Prompt = "find: "
	in.SetStyles(e.Styles.Input)
	in.SetVirtualCursor(true)
	m := &Screen{env: e, runs: runs, id: e.NextSeq(), job: j, buf: newTextBuffer(""), find: finder{input: in}, hl: hlCache{version: -1}}
	return m, m.load()
}

func (m *Screen) load() tea.Cmd {
	m.loadSeq = m.env.NextSeq()
	load := tea.Batch(loadSpecsCmd(call(m.env), m.job.ID, m.loadSeq), functionsCmd(call(m.env), m.id))
	if m.job.Cluster == "" {
		return load
	}
	assets := loadAssetsCmd(call(m.env), m.id, m.job.Cluster)
	if _, set := m.env.FlinkVersions[m.job.Cluster]; set {
		return tea.Batch(load, assets)
	}
	return tea.Batch(load, assets, gatewayVersionCmd(call(m.env), m.id, m.job.Cluster))
}

// Title implements kit.Screen.
func (m *Screen) Title() string { return m.job.Name + " · SQL" }

// Capturing implements kit.Screen.
func (m *Screen) Capturing() bool { return true }

// ShortHelp implements kit.Screen.
func (m *Screen) ShortHelp() []key.Binding {
	k := m.env.Keys
	if m.find.active {
		return []key.Binding{k.Form.Confirm, k.Editor.FindNext, k.Editor.FindPrev, k.Form.Cancel}
	}
	return shortHelp(k)
}

// FullHelp implements kit.Screen.
func (m *Screen) FullHelp() [][]key.Binding { return Help(m.env.Keys) }

// dirty reports unsaved edits. It compares the texts once per change:
// joining a long script on every frame would cost more than the frame.
func (m *Screen) dirty() bool {
	if !m.loaded {
		return false
	}
	if m.dirtyMemo.version != m.buf.version || m.dirtyMemo.base != m.base {
		m.dirtyMemo.version, m.dirtyMemo.base = m.buf.version, m.base
		m.dirtyMemo.dirty = m.buf.Text() != m.base
	}
	return m.dirtyMemo.dirty
}

// Update handles results of this editor's calls, changes of its job, and keys.
func (m *Screen) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.find.input.SetWidth(max(m.width-20, 10))
		m.scroll()
	case specsLoadedMsg:
		if msg.seq != m.loadSeq || msg.jobID != m.job.ID {
			return m, nil
		}
		return m, m.loadedSpecs(msg)
	case specSavedMsg:
		if msg.seq != m.saveSeq || msg.jobID != m.job.ID {
			return m, nil
		}
		return m, m.saved(msg)
	case validateTickMsg:
		if msg.id != m.id || msg.version != m.buf.version {
			return m, nil // typing went on: a later tick will come
		}
		return m, m.validate()
	case validatedMsg:
		if msg.id != m.id {
			return m, nil
		}
		// Even a result for an older text is newer than what is shown;
		// the tick of the current text brings the next.
		m.checking = false
		m.diags, m.checkedVersion = msg.res.Diagnostics, msg.version
		m.injected = injectedOf(msg.in)
		m.scroll()
		if m.checkAgain {
			m.checkAgain = false
			return m, m.validate()
		}
	case functionsMsg:
		if m.udfs.take(msg, m.id) && m.loaded {
			return m, m.validate()
		}
	case gatewayVersionMsg:
		if msg.id != m.id || msg.cluster != m.job.Cluster || msg.version == m.gatewayVersion {
			return m, nil
		}
		m.gatewayVersion = msg.version
		if m.loaded {
			return m, m.validate()
		}
	case assetsMsg:
		if msg.id != m.id || msg.cluster != m.job.Cluster {
			return m, nil
		}
		m.assets = newClusterAssets(msg)
		var flash tea.Cmd
		if msg.err != nil {
			flash = kit.Flash(kit.FlashWarn, msg.err.Error()+": the check runs without it")
		}
		if m.loaded {
			return m, tea.Batch(flash, m.validate())
		}
		return m, flash
	case completedMsg:
		if msg.id != m.id {
			return m, nil
		}
		if m.comp.completed(msg, m.buf) {
			return m, m.accept()
		}
		return m, nil
	case describedMsg:
		if msg.id == m.id {
			m.comp.described(msg, m.buf)
		}
	case kit.ChangeMsg:
		if c := msg.Change; c.Kind == api.JobChanged && c.Job != nil && c.Job.ID == m.job.ID {
			m.job = *c.Job
		}
	case editorFileMsg:
		if msg.id != m.id {
			return m, nil
		}
		if msg.err != nil {
			return m, kit.Flash(kit.FlashError, msg.err.Error())
		}
		return m, runEditorCmd(msg)
	case editorExitedMsg:
		if msg.id != m.id {
			return m, nil
		}
		return m, readEditedCmd(msg)
	case editorReloadMsg:
		if msg.id != m.id {
			return m, nil
		}
		if msg.err != nil {
			return m, kit.Flash(kit.FlashError, msg.err.Error())
		}
		return m, m.replaceAll(msg.text, "reloaded the text from $EDITOR")
	case versionOpenMsg:
		if msg.jobID != m.job.ID {
			return m, nil
		}
		return m, m.replaceAll(msg.spec.SQL, fmt.Sprintf("v%d is in the editor; ctrl+s saves it as a new version, ctrl+z undoes", msg.spec.Version))
	case tea.PasteMsg:
		if m.find.active {
			return m, m.found(m.find.typed(msg, m.buf))
		}
		return m, m.edit(func() { m.buf.insert(msg.Content, editOther) })
	case tea.KeyPressMsg:
		cmd := m.key(msg)
		if m.loaded && !m.find.active {
			return m, tea.Batch(cmd, m.comp.askHover(m.buf, m.id, m.env.NextSeq, completeOptions(m.sqlOptions(), m.assets)))
		}
		return m, cmd
	}
	return m, nil
}

func (m *Screen) loadedSpecs(msg specsLoadedMsg) tea.Cmd {
	if msg.err != nil {
		m.loadErr = msg.err
		return kit.Flash(kit.FlashError, msg.err.Error())
	}
	cur, ok := currentSpec(msg.specs, m.job.SpecVersion)
	if !ok {
		m.loadErr = fmt.Errorf("load SQL of %s: no spec version saved", m.job.Name)
		return nil
	}
	m.loadErr = nil
	m.loaded, m.base, m.version = true, cur.SQL, cur.Version
	m.buf.setText(cur.SQL)
	m.offset, m.xoff = 0, 0
	return m.validate()
}

// currentSpec is the job's current version among its versions, else the newest.
func currentSpec(specs []model.Spec, current int) (model.Spec, bool) {
	if len(specs) == 0 {
		return model.Spec{}, false
	}
	for _, s := range specs {
		if s.Version == current {
			return s, true
		}
	}
	return specs[len(specs)-1], true
}

func (m *Screen) saved(msg specSavedMsg) tea.Cmd {
	m.saving = false
	if msg.err != nil {
		return kit.FlashFor("save:"+m.job.ID, kit.FlashError, msg.err.Error())
	}
	m.base, m.version = msg.spec.SQL, msg.spec.Version
	m.job.SpecVersion = msg.spec.Version
	text := fmt.Sprintf("saved %s v%d", m.job.Name, msg.spec.Version)
	level := kit.FlashInfo
	if n := sqlview.CountSeverity(m.diags, flinksql.SeverityError); n > 0 && m.checkedVersion == m.buf.version {
		text += fmt.Sprintf(" with %s: ctrl+g goes to it", kit.Plural(n, "error"))
		level = kit.FlashWarn
	}
	return kit.FlashFor("save:"+m.job.ID, level, text)
}

// validate checks the text in a Cmd, one check at a time.
func (m *Screen) validate() tea.Cmd {
	if m.checking {
		m.checkAgain = true
		return nil
	}
	m.checking = true
	var assets *flinksql.Assets
	if !m.assets.empty() {
		a := m.assets.check()
		assets = &a
	}
	return validateCmd(m.id, m.buf.version, m.buf.Text(), m.sqlOptions(), assets)
}

// edit runs a change of the buffer and, when the text changed, schedules
// its validation once typing pauses.
func (m *Screen) edit(fn func()) tea.Cmd {
	if !m.loaded {
		return nil
	}
	before := m.buf.version
	fn()
	m.scroll()
	if m.buf.version == before {
		return nil
	}
	m.warned = ""
	return m.env.After(validateDelay, validateTick(m.id, m.buf.version))
}

func validateTick(id, version int) func(time.Time) tea.Msg {
	return func(time.Time) tea.Msg { return validateTickMsg{id: id, version: version} }
}

// replaceAll puts new text in the buffer as one edit that ctrl-z undoes.
func (m *Screen) replaceAll(text, note string) tea.Cmd {
	if !m.loaded {
		return nil
	}
	text = strings.ReplaceAll(text, "\r\n", "\n")
	if text == m.buf.Text() {
		return kit.Flash(kit.FlashInfo, "no change")
	}
	last := len(m.buf.lines) - 1
	cur := m.buf.cursor
	cmd := m.edit(func() {
		m.buf.apply(pos{}, pos{last, len(m.buf.lines[last])}, text, editOther)
		m.buf.moveTo(cur, false, false)
	})
	return tea.Batch(cmd, kit.Flash(kit.FlashInfo, note))
}

// Interrupt is ctrl-c: with unsaved edits, the first press warns.
func (m *Screen) Interrupt() (tea.Cmd, bool) {
	if !m.dirty() || m.warned == "ctrl+c" {
		return nil, false
	}
	m.warned = "ctrl+c"
	return kit.Flash(kit.FlashWarn, fmt.Sprintf("%s has unsaved edits: ctrl+s saves v%d, ctrl+c again quits without saving", m.job.Name, m.version+1)), true
}

func (m *Screen) key(msg tea.KeyPressMsg) tea.Cmd {
	k := m.env.Keys
	if m.find.active {
		return m.found(m.find.key(k, msg, m.buf))
	}
	if !m.loaded && !key.Matches(msg, k.Editor.Back) {
		return nil
	}
	if m.comp.open {
		if accept, used := m.comp.key(msg, &m.env.Keys); used {
			if accept {
				return m.accept()
			}
			return nil
		}
		defer m.comp.narrow(m.buf)
	}
	b := m.buf
	extend := msg.Mod.Contains(tea.ModShift)
	page := max(m.textHeight()-1, 1)
	switch {
	case !k.Editor.Save.Enabled() && key.Matches(msg, kit.AllKeys.Editor.Save),
		!k.Editor.Submit.Enabled() && key.Matches(msg, kit.AllKeys.Editor.Submit):
		why, _ := k.Refused(msg, kit.AllKeys.Editor.Save, kit.AllKeys.Editor.Submit)
		return kit.Flash(kit.FlashWarn, why)
	case key.Matches(msg, k.Editor.Back):
		if m.dirty() && m.warned != "esc" {
			m.warned = "esc"
			return kit.Flash(kit.FlashWarn, fmt.Sprintf("%s has unsaved edits: ctrl+s saves v%d, esc again leaves without saving", m.job.Name, m.version+1))
		}
		return kit.Send(kit.PopMsg{})
	case key.Matches(msg, k.Editor.Help):
		return kit.Send(kit.OpenHelpMsg{Of: m})
	case key.Matches(msg, k.Editor.Save):
		return m.save()
	case key.Matches(msg, k.Editor.Submit):
		return m.submit()
	case key.Matches(msg, k.Editor.Debug):
		return m.debug()
	case key.Matches(msg, k.Editor.External):
		return writeEditorFileCmd(m.id, m.job.Name, b.Text())
	case key.Matches(msg, k.Editor.Versions):
		s, init := newVersionsScreen(m.env, m.job, b.Text(), m.dirty())
		return kit.Send(kit.PushMsg{Screen: s, Init: init})
	case key.Matches(msg, k.Editor.Find):
		return m.find.open(b)
	case key.Matches(msg, k.Editor.FindNext):
		return m.found(m.find.next(b, false))
	case key.Matches(msg, k.Editor.FindPrev):
		return m.found(m.find.next(b, true))
	case key.Matches(msg, k.Editor.NextProblem):
		p, ok := nextProblem(m.diags, b.cursor)
		if !ok {
			return kit.Flash(kit.FlashInfo, "no problems found")
		}
		b.moveTo(p, false, false)
	case key.Matches(msg, k.Editor.Undo):
		return m.edit(func() { b.undo() })
	case key.Matches(msg, k.Editor.Redo):
		return m.edit(func() { b.redo() })
	case key.Matches(msg, k.Editor.SelectAll):
		b.selectAll()
	case key.Matches(msg, k.Editor.Copy):
		return m.copy(false)
	case key.Matches(msg, k.Editor.Cut):
		return m.copy(true)
	case key.Matches(msg, k.Editor.Paste):
		return m.edit(func() { b.insert(m.clipboard, editOther) })

	case key.Matches(msg, k.Text.WordLeft):
		b.moveTo(b.wordLeft(b.cursor), extend, false)
	case key.Matches(msg, k.Text.WordRight):
		b.moveTo(b.wordRight(b.cursor), extend, false)
	case key.Matches(msg, k.Text.DocStart):
		b.moveTo(pos{}, extend, false)
	case key.Matches(msg, k.Text.DocEnd):
		b.moveTo(pos{len(b.lines) - 1, len(b.lines[len(b.lines)-1])}, extend, false)
	case key.Matches(msg, k.Text.Left):
		if from, _, ok := b.selection(); ok && !extend {
			b.moveTo(from, false, false)
		} else {
			b.moveTo(b.left(b.cursor), extend, false)
		}
	case key.Matches(msg, k.Text.Right):
		if _, to, ok := b.selection(); ok && !extend {
			b.moveTo(to, false, false)
		} else {
			b.moveTo(b.right(b.cursor), extend, false)
		}
	case key.Matches(msg, k.Text.Up):
		b.vertical(-1, extend)
	case key.Matches(msg, k.Text.Down):
		b.vertical(1, extend)
	case key.Matches(msg, k.Text.Home):
		b.moveTo(b.home(b.cursor), extend, false)
	case key.Matches(msg, k.Text.End):
		b.moveTo(b.end(b.cursor), extend, false)
	case key.Matches(msg, k.Text.PageUp):
		b.vertical(-page, extend)
		m.offset = max(m.offset-page, 0)
	case key.Matches(msg, k.Text.PageDown):
		b.vertical(page, extend)
		m.offset += page

	case key.Matches(msg, k.Text.Newline):
		return m.edit(b.newline)
	case key.Matches(msg, k.Text.Backspace):
		return m.edit(b.backspace)
	case key.Matches(msg, k.Text.Delete):
		return m.edit(b.deleteForward)
	case key.Matches(msg, k.Text.DeleteWord):
		return m.edit(b.deleteWordBack)
	case key.Matches(msg, k.Text.DeleteWordForward):
		return m.edit(b.deleteWordForward)
	case key.Matches(msg, k.Editor.Complete), key.Matches(msg, k.Text.Indent) && wordBefore(m.buf):
		return m.comp.ask(m.buf, m.id, m.env.NextSeq(), completeOptions(m.sqlOptions(), m.assets))
	case key.Matches(msg, k.Text.Indent):
		return m.edit(b.indent)
	case key.Matches(msg, k.Text.Dedent):
		return m.edit(b.dedent)
	default:
		if msg.Text != "" && !msg.Mod.Contains(tea.ModCtrl) && !msg.Mod.Contains(tea.ModAlt) {
			return m.edit(func() { b.insert(msg.Text, editTyping) })
		}
		return nil
	}
	m.scroll()
	return nil
}

// copy puts the selection on palink's clipboard and the terminal's (OSC 52).
func (m *Screen) copy(cut bool) tea.Cmd {
	text := m.buf.selectedText()
	if text == "" {
		return kit.Flash(kit.FlashInfo, "nothing selected: shift+arrows select, ctrl+a selects all")
	}
	m.clipboard = text
	cmds := []tea.Cmd{tea.SetClipboard(text)}
	if cut {
		cmds = append(cmds, m.edit(func() { m.buf.deleteSelection() }))
	}
	return tea.Batch(cmds...)
}

// found scrolls to where a search moved the cursor.
func (m *Screen) found(cmd tea.Cmd, moved bool) tea.Cmd {
	if moved {
		m.scroll()
	}
	return cmd
}

func (m *Screen) save() tea.Cmd {
	if m.env.ReadOnly() {
		return kit.Flash(kit.FlashWarn, "read-only: saving is disabled")
	}
	if !m.dirty() {
		return kit.Flash(kit.FlashInfo, fmt.Sprintf("no changes to save (v%d)", m.version))
	}
	if m.saving {
		return nil
	}
	m.saving = true
	m.saveSeq = m.env.NextSeq()
	return kit.Busy("save:"+m.job.ID, fmt.Sprintf("saving %s…", m.job.Name),
		saveSpecCmd(call(m.env), m.job.ID, m.job.Name, model.Spec{SQL: m.buf.Text()}, m.saveSeq))
}

// submit deploys the saved version: a job never submitted is submitted,
// one that ended is resubmitted (the restore-point dialog asks from where).
// Unsaved edits and errors are refused first: what runs must be what the
// user sees and a saved, checked version.
func (m *Screen) submit() tea.Cmd {
	j := m.job.Job
	switch {
	case m.env.ReadOnly():
		return kit.Flash(kit.FlashWarn, "read-only: submitting is disabled")
	case m.dirty():
		return kit.Flash(kit.FlashWarn, fmt.Sprintf("submit %s: save the edits first (ctrl+s saves v%d)", j.Name, m.version+1))
	case m.checkedVersion != m.buf.version:
		return kit.Flash(kit.FlashInfo, "checking the SQL…; ctrl+r again in a moment")
	}
	if n := sqlview.CountSeverity(m.diags, flinksql.SeverityError); n > 0 {
		return kit.Flash(kit.FlashWarn, fmt.Sprintf("submit %s: the SQL has %s (ctrl+g goes to it)", j.Name, kit.Plural(n, "error")))
	}
	return kit.Send(kit.StartActionMsg{Kind: submitKind(m.job), Jobs: []api.JobView{m.job}})
}

// submitKind is what ctrl+r asks of job v: a resubmit, or a submit where
// core refuses the resubmit and allows a submit (a job never deployed);
// without core's answer, a job never deployed is submitted.
func submitKind(v api.JobView) model.CommandKind {
	resubmit, known := v.Refusal(model.CmdResubmit)
	submit, _ := v.Refusal(model.CmdSubmit)
	if (known && resubmit != "" && submit == "") || (!known && v.State == model.StateNone) {
		return model.CmdSubmit
	}
	return model.CmdResubmit
}

// textHeight is the rows the text has: the body less the title, the
// catalog strip (when the script gets catalog tables) and status lines.
func (m *Screen) textHeight() int { return max(m.height-2-m.injected.rows(), 1) }

// scroll keeps the cursor on screen, with room for the problem line under it.
func (m *Screen) scroll() {
	h := m.textHeight()
	if m.annotationFor(m.buf.cursor.line) != nil {
		h--
	}
	m.offset = kit.ScrollTo(m.buf.cursor.line, m.offset, max(h, 1), len(m.buf.lines))
	m.offset = kit.Clamp(m.offset, 0, max(len(m.buf.lines)-1, 0))
	w := m.textWidth()
	c := sqlview.CellCol(m.buf.lines[m.buf.cursor.line], m.buf.cursor.col)
	switch {
	case c < m.xoff:
		m.xoff = max(c-w/4, 0)
	case c >= m.xoff+w:
		m.xoff = c - w + 1 + w/4
	}
}

// sqlOptions check the script for the release its job's cluster runs (the
// config's, else its SQL Gateway's): a statement the cluster lacks is an
// error here, not at the deploy. A version the config gets wrong was
// reported when it was read.
func (m *Screen) sqlOptions() flinksql.Options {
	o := flinksql.Options{Functions: m.udfs.fns}
	s, ok := m.env.FlinkVersions[m.job.Cluster]
	if !ok {
		s = m.gatewayVersion
	}
	v, err := builtin.ParseVersion(s)
	if s == "" || err != nil {
		return o
	}
	o.Version, o.Target = v, "cluster "+m.job.Cluster
	return o
}
