package tui

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/kit"
)

// enrichSQL is a complete, valid job: the editor's tests start from it.
const enrichSQL = `CREATE TABLE orders (
  order_id BIGINT,
  user_id BIGINT,
  amount DOUBLE,
  proc_time AS PROCTIME()
) WITH ('connector' = 'kafka', 'topic' = 'orders', 'properties.bootstrap.servers' = 'kafka:9092', 'format' = 'json');
CREATE TABLE users (
  id BIGINT, name STRING, PRIMARY KEY (id) NOT ENFORCED
) WITH ('connector' = 'jdbc', 'url' = 'jdbc:mysql://dim-db:3306/app', 'table-name' = 'users');
CREATE TABLE enriched (order_id BIGINT, name STRING) WITH ('connector' = 'print');
-- enrich every order with its user's name
INSERT INTO enriched
SELECT o.order_id, u.name FROM orders AS o
LEFT JOIN users FOR SYSTEM_TIME AS OF o.proc_time AS u ON o.user_id = u.id;`

// withVersions gives orders-enrich three saved versions, v7 current.
func withVersions(f *tuitest.Fake) *tuitest.Fake {
	at := func(h int) time.Time { return tuitest.Now.Add(-time.Duration(h) * time.Hour) }
	v5 := strings.Replace(enrichSQL, "u.name FROM", "u.name AS name FROM", 1)
	v6 := strings.Replace(enrichSQL, "-- enrich every order with its user's name\n", "", 1)
	f.Versions = map[string][]model.Spec{"j001": {
		{JobID: "j001", Version: 5, SQL: v5, Author: "ana", CreatedAt: at(200), Note: "first cut"},
		{JobID: "j001", Version: 6, SQL: v6, Author: "ops", CreatedAt: at(100)},
		{JobID: "j001", Version: 7, SQL: enrichSQL, Author: "ops", CreatedAt: at(80), Note: "join users dimension"},
	}}
	return f
}

// edKey builds the key a terminal sends for the editor's chords.
func edKey(s string) tea.KeyPressMsg {
	special := map[string]rune{"left": tea.KeyLeft, "right": tea.KeyRight, "up": tea.KeyUp, "down": tea.KeyDown,
		"home": tea.KeyHome, "end": tea.KeyEnd, "f1": tea.KeyF1, "delete": tea.KeyDelete, "backspace": tea.KeyBackspace}
	var mod tea.KeyMod
	for {
		switch {
		case strings.HasPrefix(s, "ctrl+") && len(s) > len("ctrl+"):
			mod |= tea.ModCtrl
			s = s[len("ctrl+"):]
			continue
		case strings.HasPrefix(s, "shift+"):
			mod |= tea.ModShift
			s = s[len("shift+"):]
			continue
		case strings.HasPrefix(s, "alt+"):
			mod |= tea.ModAlt
			s = s[len("alt+"):]
			continue
		}
		break
	}
	if r, ok := special[s]; ok {
		return tea.KeyPressMsg{Code: r, Mod: mod}
	}
	return tea.KeyPressMsg{Code: []rune(s)[0], Mod: mod}
}

func (h *harness) chord(keys ...string) {
	h.T.Helper()
	for _, k := range keys {
		h.Send(edKey(k))
	}
}

// openEditor opens orders-enrich's editor with e from the jobs table.
func (h *harness) openEditor(name string) *editorScreen {
	h.T.Helper()
	h.SelectJob(name)
	h.Press("e")
	ed, ok := h.m.top().(*editorScreen)
	if !ok {
		h.T.Fatalf("e on %s opened %T, want the SQL editor", name, h.m.top())
	}
	return ed
}

// goTo moves the cursor to a 1-based line, at its end.
func (h *harness) goTo(line int) {
	h.T.Helper()
	h.chord("ctrl+home")
	for range line - 1 {
		h.chord("down")
	}
	h.chord("end")
}

func TestEditorOpensTheCurrentVersionHighlighted(t *testing.T) {
	h := newHarness(t, withVersions(tuitest.NewFixture()), 120, 40, Options{Context: "test"})
	ed := h.openEditor("orders-enrich")
	h.MustShow("orders-enrich · SQL v7", "✓ no problems", "  1 │ CREATE TABLE orders (", " 14 │ LEFT JOIN users FOR SYSTEM_TIME AS OF", "Ln 1, Col 1")
	if ed.dirty() {
		t.Error("a freshly opened version is marked edited")
	}
	// Keywords, strings and comments carry their styles.
	frame := h.m.render()
	ks := h.m.env.Styles.Editor
	for what, want := range map[string]string{
		"keyword": ks.Keyword.Render("CREATE"), "type": ks.Type.Render("BIGINT"),
		"string": ks.String.Render("'kafka'"), "comment": ks.Comment.Render("-- enrich every order with its user's name"),
	} {
		if !strings.Contains(frame, want) {
			t.Errorf("the %s is not highlighted: want %q", what, want)
		}
	}
}

func TestEditorMarksAProblemOnceTypingPauses(t *testing.T) {
	h := newHarness(t, withVersions(tuitest.NewFixture()), 120, 40, Options{Context: "test"})
	h.openEditor("orders-enrich")
	h.goTo(9)
	for range 13 { // after the e of 'table-name'
		h.chord("left")
	}
	h.chord("backspace") // 'table-name' → 'table-nam'
	h.MustShow("(edited)", "checking…")
	h.MustNotShow("✖ 2 errors")
	h.Fire(validateTickMsg{})
	// The unknown option, and the option jdbc then lacks.
	h.MustShow("✖ 2 errors", "✖  9 │ ) WITH ('connector' = 'jdbc'", "✖  7 │ CREATE TABLE users (")
	// The message stands under the cursor's line, carets under the option.
	lines := strings.Split(h.Screen(), "\n")
	i := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, "  9 │ ) WITH") })
	if i < 0 || !strings.Contains(lines[i+1], "^^^^^^^^^^^ unknown option 'table-nam';") {
		t.Fatalf("no caret line under line 9:\n%s", h.Screen())
	}
	h.MustShow("Ln 9, Col 81 · ✖ unknown option 'table-nam'; did you mean 'table-name'?")
	cells := func(l, sub string) int { return ansi.StringWidth(l[:strings.Index(l, sub)]) }
	if c, o := cells(lines[i+1], "^"), cells(lines[i], "'table-nam'"); c != o {
		t.Errorf("carets start at cell %d, the option at %d", c, o)
	}
	// ctrl+g goes to the next problem: the missing option, then the unknown one.
	h.chord("ctrl+home", "ctrl+g")
	if ed := h.m.top().(*editorScreen); ed.buf.cursor != (pos{6, 13}) {
		t.Errorf("ctrl+g went to %v, want the table name on line 7", ed.buf.cursor)
	}
	h.chord("ctrl+g")
	ed := h.m.top().(*editorScreen)
	if col := strings.Index(string(ed.buf.lines[8]), "'table-nam'"); ed.buf.cursor != (pos{8, col}) {
		t.Errorf("ctrl+g went to %v, want line 9 col %d", ed.buf.cursor, col+1)
	}
	// Fixing it clears the markers.
	h.goTo(9)
	for range 13 {
		h.chord("left")
	}
	h.Type("e")
	h.Fire(validateTickMsg{})
	h.MustShow("✓ no problems")
}

func TestEditorValidatesOnlyTheLatestText(t *testing.T) {
	h := newHarness(t, withVersions(tuitest.NewFixture()), 120, 40, Options{Context: "test"})
	ed := h.openEditor("orders-enrich")
	h.chord("ctrl+end")
	h.Type(" x")
	before := len(h.Timers)
	h.Type("y")
	// Each keystroke arms a tick; only the tick of the text as it stands
	// starts a check.
	if len(h.Timers) != before+1 {
		t.Fatalf("%d timers after a key, want one more than %d", len(h.Timers), before)
	}
	checks := func() int {
		n := 0
		for _, m := range h.Seen {
			if _, ok := m.(validatedMsg); ok {
				n++
			}
		}
		return n
	}
	was := checks()
	h.Fire(validateTickMsg{})
	if got := checks() - was; got != 1 {
		t.Errorf("%d checks after a pause in typing, want 1", got)
	}
	if ed.checkedVersion != ed.buf.version {
		t.Error("the check is not of the current text")
	}
}

func TestEditorSavesANewVersion(t *testing.T) {
	f := withVersions(tuitest.NewFixture())
	h := newHarness(t, f, 120, 40, Options{Context: "test"})
	ed := h.openEditor("orders-enrich")
	h.chord("ctrl+s")
	if !strings.Contains(h.Flash(), "no changes to save (v7)") || f.Called("SaveSpec") {
		t.Fatalf("save without edits: flash %q", h.Flash())
	}
	h.chord("ctrl+end")
	h.Type("\n-- checked")
	h.chord("ctrl+s")
	if !f.Called("SaveSpec j001") || !strings.Contains(h.Flash(), "saved orders-enrich v8") {
		t.Fatalf("save: calls %v, flash %q", f.Calls(), h.Flash())
	}
	h.MustShow("orders-enrich · SQL v8")
	h.MustNotShow("(edited)")
	if got := f.Versions["j001"][3].SQL; !strings.HasSuffix(got, "\n-- checked") || ed.dirty() {
		t.Errorf("saved %q", got)
	}
}

func TestEditorReadOnlyRefusesSaving(t *testing.T) {
	f := withVersions(tuitest.NewFixture())
	h := newHarness(t, f, 120, 40, Options{Context: "test", ReadOnly: true})
	h.openEditor("orders-enrich")
	h.Type("x")
	h.chord("ctrl+s")
	if f.Called("SaveSpec") || !strings.Contains(h.Flash(), "read-only") {
		t.Fatalf("read-only save: calls %v, flash %q", f.Calls(), h.Flash())
	}
	h.MustNotShow("ctrl+s save version")
}

func TestEditorLeavingWithUnsavedEditsAsksTwice(t *testing.T) {
	h := newHarness(t, withVersions(tuitest.NewFixture()), 120, 40, Options{Context: "test"})
	h.openEditor("orders-enrich")
	h.Type("x")
	h.Press("esc")
	if _, ok := h.m.top().(*editorScreen); !ok || !strings.Contains(h.Flash(), "esc again leaves without saving") {
		t.Fatalf("first esc: %T, flash %q", h.m.top(), h.Flash())
	}
	// ctrl+c warns once too instead of quitting.
	_, cmd := h.m.Update(tuitest.Key("ctrl+c"))
	if msg := cmd(); msg == (tea.QuitMsg{}) {
		t.Fatal("ctrl+c quit with unsaved edits")
	}
	_, cmd = h.m.Update(tuitest.Key("ctrl+c"))
	if msg := cmd(); msg != (tea.QuitMsg{}) {
		t.Fatalf("second ctrl+c gave %T, want quit", msg)
	}
	h.Press("esc", "esc")
	if _, ok := h.m.top().(*jobsScreen); !ok {
		t.Fatalf("esc twice left %T on top", h.m.top())
	}
}

func TestEditorSelectionClipboardUndo(t *testing.T) {
	h := newHarness(t, withVersions(tuitest.NewFixture()), 120, 40, Options{Context: "test"})
	ed := h.openEditor("orders-enrich")
	// Select "CREATE TABLE" with shift+ctrl+right twice, copy, paste at the end.
	h.chord("ctrl+shift+right", "ctrl+shift+right")
	h.MustShow("12 selected")
	h.chord("alt+c", "ctrl+end")
	h.Type("\n")
	h.chord("ctrl+v")
	if !strings.HasSuffix(ed.buf.Text(), "u.id;\nCREATE TABLE") {
		t.Fatalf("paste: %q", ed.buf.Text()[len(ed.buf.Text())-30:])
	}
	// Undo the paste and the new line; redo the line.
	h.chord("ctrl+z", "ctrl+z")
	if ed.buf.Text() != enrichSQL || ed.dirty() {
		t.Fatalf("undo did not restore the text")
	}
	h.chord("ctrl+y")
	if ed.buf.Text() != enrichSQL+"\n" {
		t.Fatalf("redo: %q", ed.buf.Text()[len(ed.buf.Text())-10:])
	}
	// Cut a selected line (shift+down from its start).
	h.chord("ctrl+home", "shift+down", "ctrl+x")
	if strings.HasPrefix(ed.buf.Text(), "CREATE TABLE orders") || ed.clipboard != "CREATE TABLE orders (\n" {
		t.Fatalf("cut: clipboard %q", ed.clipboard)
	}
	// A page down from the top goes a page of lines down (here, to the end).
	h.chord("ctrl+home")
	h.Send(tea.KeyPressMsg{Code: tea.KeyPgDown})
	if last := len(ed.buf.lines) - 1; ed.buf.cursor.line != last {
		t.Errorf("pgdown went to line %d, want %d", ed.buf.cursor.line, last)
	}
	// Select all, then type over everything.
	h.chord("ctrl+a")
	h.Type("SELECT 1;")
	if ed.buf.Text() != "SELECT 1;" {
		t.Fatalf("typing over select-all: %q", ed.buf.Text())
	}
}

func TestEditorFind(t *testing.T) {
	h := newHarness(t, withVersions(tuitest.NewFixture()), 120, 40, Options{Context: "test"})
	ed := h.openEditor("orders-enrich")
	h.chord("ctrl+f")
	h.Type("users")
	h.MustShow("find: users")
	if ed.buf.cursor.line != 6 || ed.buf.selectedText() != "users" {
		t.Fatalf("incremental find: %v %q", ed.buf.cursor, ed.buf.selectedText())
	}
	h.Press("enter")
	h.chord("ctrl+n")
	if ed.buf.cursor.line != 8 {
		t.Fatalf("next match at %v, want line 9 ('users' the table name)", ed.buf.cursor)
	}
	h.chord("ctrl+n")
	if ed.buf.cursor.line != 13 {
		t.Fatalf("next match at %v, want line 14", ed.buf.cursor)
	}
	h.chord("ctrl+p")
	if ed.buf.cursor.line != 8 {
		t.Fatalf("previous match at %v", ed.buf.cursor)
	}
	// esc in the prompt goes back to where the search began.
	h.chord("ctrl+home", "ctrl+f")
	h.Type("enriched")
	h.Press("esc")
	if ed.buf.cursor != (pos{}) || ed.searching {
		t.Fatalf("esc left the cursor at %v", ed.buf.cursor)
	}
}

func TestEditorSubmit(t *testing.T) {
	f := withVersions(tuitest.NewFixture())
	h := newHarness(t, f, 120, 40, Options{Context: "test"})
	h.openEditor("orders-enrich")
	// Unsaved edits are not what would run.
	h.Type("x")
	h.chord("ctrl+r")
	if !strings.Contains(h.Flash(), "save the edits first") || f.Called("Plan") {
		t.Fatalf("submit with edits: flash %q", h.Flash())
	}
	h.chord("ctrl+z")
	h.Fire(validateTickMsg{})
	// A running job resubmits only after it stops: the flow says why.
	h.chord("ctrl+r")
	if !strings.Contains(h.Flash(), "pause or kill it first") {
		t.Fatalf("resubmit of a running job: flash %q", h.Flash())
	}
	// Once it ended, ctrl+r asks where to restore from.
	f.Jobs[0].State = model.StateFinished
	h.Change(apiJobChanged(f, 0))
	h.chord("ctrl+r")
	h.MustShow("Resubmit orders-enrich — restore from?")
	h.Press("esc")

	// A job never submitted is submitted, through the confirmation.
	f.Versions["j009"] = []model.Spec{{JobID: "j009", Version: 3, SQL: enrichSQL}}
	h.Press("esc")
	h.openEditor("new-pipeline")
	h.chord("ctrl+r")
	h.MustShow("Submit new-pipeline?")
	h.Press("tab", "enter")
	if !f.Called("Act SUBMIT j009") {
		t.Fatalf("calls %v", f.Calls())
	}
}

func TestEditorRefusesToSubmitErrors(t *testing.T) {
	f := withVersions(tuitest.NewFixture())
	f.Versions["j009"] = []model.Spec{{JobID: "j009", Version: 3,
		SQL: "CREATE TABLE t (a INT) WITH ('connector' = 'blackhole');\nINSERT INTO nowhere SELECT a FROM t;"}}
	h := newHarness(t, f, 120, 40, Options{Context: "test"})
	h.openEditor("new-pipeline")
	h.chord("ctrl+r")
	if !strings.Contains(h.Flash(), "the SQL has 1 error") || f.Called("Plan") {
		t.Fatalf("submit with errors: flash %q", h.Flash())
	}
}

func TestEditorExternalEditorRoundTrip(t *testing.T) {
	h := newHarness(t, withVersions(tuitest.NewFixture()), 120, 40, Options{Context: "test"})
	ed := h.openEditor("orders-enrich")
	t.Setenv("VISUAL", "")
	t.Setenv("EDITOR", "nano -w")
	// ctrl+e writes the text to a file for the editor (a Cmd, not Update).
	msg := writeEditorFileCmd(ed.id, "orders-enrich", ed.buf.Text())().(editorFileMsg)
	if msg.err != nil || !slices.Equal(msg.argv, []string{"nano", "-w"}) || !msg.trimNL {
		t.Fatalf("file for $EDITOR: %+v", msg)
	}
	b, err := os.ReadFile(msg.path)
	if err != nil || string(b) != enrichSQL {
		t.Fatalf("the file holds %q (%v)", b, err)
	}
	// The user's editor changes the text and adds a final newline.
	if err := os.WriteFile(msg.path, []byte(strings.Replace(enrichSQL, "print", "blackhole", 1)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	h.Send(editorExitedMsg{id: ed.id, path: msg.path, trimNL: msg.trimNL})
	if !strings.Contains(ed.buf.Text(), "'connector' = 'blackhole'") || strings.HasSuffix(ed.buf.Text(), "\n") || !ed.dirty() {
		t.Fatalf("reloaded text: %q", ed.buf.Text())
	}
	if _, err := os.Stat(msg.path); !os.IsNotExist(err) {
		t.Error("the temporary file is left behind")
	}
	// One ctrl+z undoes the whole reload.
	h.chord("ctrl+z")
	if ed.buf.Text() != enrichSQL {
		t.Error("ctrl+z did not undo the reload")
	}
	// A failed editor leaves the text alone and says so.
	h.Send(editorExitedMsg{id: ed.id, path: msg.path, err: os.ErrPermission})
	if !strings.Contains(h.Flash(), "$EDITOR failed, the text is unchanged") || ed.buf.Text() != enrichSQL {
		t.Fatalf("failed editor: flash %q", h.Flash())
	}
}

func TestEditorVersionsAndDiff(t *testing.T) {
	h := newHarness(t, withVersions(tuitest.NewFixture()), 120, 40, Options{Context: "test"})
	ed := h.openEditor("orders-enrich")
	h.chord("ctrl+o")
	if _, ok := h.m.top().(*versionsScreen); !ok {
		t.Fatalf("ctrl+o opened %T", h.m.top())
	}
	h.MustShow("SQL versions of orders-enrich", "v7 current", "v6", "v5", "first cut")
	// enter diffs v7 with the version before it.
	h.Press("enter")
	h.MustShow("orders-enrich · v6 → v7", "@@ -8,6 +8,7 @@", "+ -- enrich every order with its user's name", "+1 -0 · unified")
	h.Press("v")
	h.MustShow("side by side")
	h.Press("esc")
	// space marks v5, then enter on v7 compares the two.
	h.Press("j", "j", "space", "k", "k", "enter")
	h.MustShow("v5 → v7", "- SELECT o.order_id, u.name AS name FROM orders AS o", "+ SELECT o.order_id, u.name FROM orders AS o")
	h.Press("esc")
	// o puts v5 in the editor as an edit.
	h.Press("j", "j", "o")
	if h.m.top() != kit.Screen(ed) || ed.buf.Text() != f5(h) || !ed.dirty() {
		t.Fatalf("o did not load v5 into the editor (%T)", h.m.top())
	}
	h.MustShow("(edited)")
	// With unsaved edits, the working copy is the first row.
	h.chord("ctrl+o")
	h.MustShow("unsaved edits")
}

func f5(h *harness) string { return h.F.Versions["j001"][0].SQL }

func TestEditorJarJobHasNoSQL(t *testing.T) {
	h := newHarness(t, tuitest.NewFixture(), 120, 40, Options{Context: "test"})
	h.SelectJob("payments-dedup")
	h.Press("e")
	if _, ok := h.m.top().(*jobsScreen); !ok || !strings.Contains(h.Flash(), "JAR job") {
		t.Fatalf("e on a JAR job: %T, flash %q", h.m.top(), h.Flash())
	}
}

func TestGoldenEditor(t *testing.T) {
	goldenFrameWith(t, "editor", withVersions, func(h *harness) {
		h.openEditor("orders-enrich")
		h.chord("down", "down", "shift+down")
	})
}

func TestGoldenEditorError(t *testing.T) {
	goldenFrameWith(t, "editor_error", withVersions, func(h *harness) {
		h.openEditor("orders-enrich")
		h.goTo(13) // SELECT o.order_id, u.name FROM orders AS o
		h.chord("home", "ctrl+right", "ctrl+right", "ctrl+right", "backspace")
		h.Fire(validateTickMsg{})
	})
}

func TestGoldenVersionsAndDiff(t *testing.T) {
	goldenFrameWith(t, "editor_versions", withVersions, func(h *harness) {
		h.openEditor("orders-enrich")
		h.chord("ctrl+o")
		h.Press("j", "j", "space", "k")
	})
	goldenFrameWith(t, "editor_diff", withVersions, func(h *harness) {
		h.openEditor("orders-enrich")
		h.chord("ctrl+o")
		h.Press("j", "j", "space", "k", "k", "enter")
	})
}

// apiJobChanged is the change Watch sends for the fake's job i.
func apiJobChanged(f *tuitest.Fake, i int) api.Change {
	jv := f.Jobs[i]
	return api.Change{Kind: api.JobChanged, Job: &jv}
}

// goldenFrameWith is goldenFrame over a fixture that fix prepares.
func goldenFrameWith(t *testing.T, name string, fix func(*tuitest.Fake) *tuitest.Fake, setup func(h *harness)) {
	t.Helper()
	for _, sz := range tuitest.Sizes {
		t.Run(fmt.Sprintf("%s_%dx%d", name, sz.W, sz.H), func(t *testing.T) {
			h := newHarness(t, fix(tuitest.NewFixture()), sz.W, sz.H, Options{Context: "test"})
			setup(h)
			frame := h.m.render()
			if got := len(strings.Split(frame, "\n")); got != sz.H {
				t.Fatalf("frame has %d lines, want %d", got, sz.H)
			}
			for i, l := range strings.Split(frame, "\n") {
				if w := ansi.StringWidth(l); w > sz.W {
					t.Fatalf("line %d is %d cells wide, more than %d: %q", i+1, w, sz.W, ansi.Strip(l))
				}
			}
			tuitest.Golden(t, fmt.Sprintf("%s_%dx%d", name, sz.W, sz.H), tuitest.Pinned(frame))
		})
	}
}
