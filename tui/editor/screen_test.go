package editor_test

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/editor"
	"github.com/palink/palink/tui/internal/apptest"
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
		"home": tea.KeyHome, "end": tea.KeyEnd, "f1": tea.KeyF1, "delete": tea.KeyDelete, "backspace": tea.KeyBackspace,
		"tab": tea.KeyTab, "enter": tea.KeyEnter, "esc": tea.KeyEscape, "space": tea.KeySpace}
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

func chord(h *tuitest.Harness, keys ...string) {
	h.T.Helper()
	for _, k := range keys {
		h.Send(edKey(k))
	}
}

// openEditor opens a job's editor with e from the jobs table.
func openEditor(h *tuitest.Harness, name string) *editor.Screen {
	h.T.Helper()
	h.SelectJob(name)
	h.Press("e")
	ed, ok := h.Top().(*editor.Screen)
	if !ok {
		h.T.Fatalf("e on %s opened %T, want the SQL editor", name, h.Top())
	}
	return ed
}

// goTo moves the cursor to a 1-based line, at its end.
func goTo(h *tuitest.Harness, line int) {
	h.T.Helper()
	chord(h, "ctrl+home")
	for range line - 1 {
		chord(h, "down")
	}
	chord(h, "end")
}

func TestEditorOpensTheCurrentVersionHighlighted(t *testing.T) {
	h := apptest.New(t, withVersions(tuitest.NewFixture()), 120, 40, tui.Options{Context: "test"})
	ed := openEditor(h, "orders-enrich")
	h.MustShow("orders-enrich · SQL v7", "✓ no problems", "  1 │ CREATE TABLE orders (", " 14 │ LEFT JOIN users FOR SYSTEM_TIME AS OF", "Ln 1, Col 1")
	if ed.Dirty() {
		t.Error("a freshly opened version is marked edited")
	}
	// Keywords, strings and comments carry their styles.
	frame := h.Render()
	ks := kit.DarkStyles().Editor
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
	h := apptest.New(t, withVersions(tuitest.NewFixture()), 120, 40, tui.Options{Context: "test"})
	openEditor(h, "orders-enrich")
	goTo(h, 9)
	for range 13 { // after the e of 'table-name'
		chord(h, "left")
	}
	chord(h, "backspace") // 'table-name' → 'table-nam'
	h.MustShow("(edited)", "checking…")
	h.MustNotShow("✖ 2 errors")
	h.Fire(editor.ValidateTickMsg{})
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
	chord(h, "ctrl+home", "ctrl+g")
	ed := h.Top().(*editor.Screen)
	if l, c := ed.Cursor(); l != 6 || c != 13 {
		t.Errorf("ctrl+g went to %d:%d, want the table name on line 7", l, c)
	}
	chord(h, "ctrl+g")
	if col := strings.Index(ed.Line(8), "'table-nam'"); !at(ed, 8, col) {
		t.Errorf("ctrl+g went to %v, want line 9 col %d", cursor(ed), col+1)
	}
	// Fixing it clears the markers.
	goTo(h, 9)
	for range 13 {
		chord(h, "left")
	}
	h.Type("e")
	h.Fire(editor.ValidateTickMsg{})
	h.MustShow("✓ no problems")
}

func TestEditorValidatesOnlyTheLatestText(t *testing.T) {
	h := apptest.New(t, withVersions(tuitest.NewFixture()), 120, 40, tui.Options{Context: "test"})
	ed := openEditor(h, "orders-enrich")
	chord(h, "ctrl+end")
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
			if _, ok := m.(editor.ValidatedMsg); ok {
				n++
			}
		}
		return n
	}
	was := checks()
	h.Fire(editor.ValidateTickMsg{})
	if got := checks() - was; got != 1 {
		t.Errorf("%d checks after a pause in typing, want 1", got)
	}
	if !ed.Checked() {
		t.Error("the check is not of the current text")
	}
}

func TestEditorSavesANewVersion(t *testing.T) {
	f := withVersions(tuitest.NewFixture())
	h := apptest.New(t, f, 120, 40, tui.Options{Context: "test"})
	ed := openEditor(h, "orders-enrich")
	chord(h, "ctrl+s")
	if !strings.Contains(h.Flash(), "no changes to save (v7)") || f.Called("SaveSpec") {
		t.Fatalf("save without edits: flash %q", h.Flash())
	}
	chord(h, "ctrl+end")
	h.Type("\n-- checked")
	chord(h, "ctrl+s")
	if !f.Called("SaveSpec j001") || !strings.Contains(h.Flash(), "saved orders-enrich v8") {
		t.Fatalf("save: calls %v, flash %q", f.Calls(), h.Flash())
	}
	h.MustShow("orders-enrich · SQL v8")
	h.MustNotShow("(edited)")
	if got := f.Versions["j001"][3].SQL; !strings.HasSuffix(got, "\n-- checked") || ed.Dirty() {
		t.Errorf("saved %q", got)
	}
}

func TestEditorReadOnlyRefusesSaving(t *testing.T) {
	f := withVersions(tuitest.NewFixture())
	h := apptest.New(t, f, 120, 40, tui.Options{Context: "test", ReadOnly: true})
	openEditor(h, "orders-enrich")
	h.Type("x")
	chord(h, "ctrl+s")
	if f.Called("SaveSpec") || !strings.Contains(h.Flash(), "read-only") {
		t.Fatalf("read-only save: calls %v, flash %q", f.Calls(), h.Flash())
	}
	h.MustNotShow("ctrl+s save version")
}

func TestEditorLeavingWithUnsavedEditsAsksTwice(t *testing.T) {
	h := apptest.New(t, withVersions(tuitest.NewFixture()), 120, 40, tui.Options{Context: "test"})
	openEditor(h, "orders-enrich")
	h.Type("x")
	h.Press("esc")
	if _, ok := h.Top().(*editor.Screen); !ok || !strings.Contains(h.Flash(), "esc again leaves without saving") {
		t.Fatalf("first esc: %T, flash %q", h.Top(), h.Flash())
	}
	// ctrl+c warns once too instead of quitting.
	_, cmd := h.M.Update(tuitest.Key("ctrl+c"))
	if msg := cmd(); msg == (tea.QuitMsg{}) {
		t.Fatal("ctrl+c quit with unsaved edits")
	}
	_, cmd = h.M.Update(tuitest.Key("ctrl+c"))
	if msg := cmd(); msg != (tea.QuitMsg{}) {
		t.Fatalf("second ctrl+c gave %T, want quit", msg)
	}
	h.Press("esc", "esc")
	if !onJobs(h) {
		t.Fatalf("esc twice left %T on top", h.Top())
	}
}

func TestEditorSelectionClipboardUndo(t *testing.T) {
	h := apptest.New(t, withVersions(tuitest.NewFixture()), 120, 40, tui.Options{Context: "test"})
	ed := openEditor(h, "orders-enrich")
	// Select "CREATE TABLE" with shift+ctrl+right twice, copy, paste at the end.
	chord(h, "ctrl+shift+right", "ctrl+shift+right")
	h.MustShow("12 selected")
	chord(h, "alt+c", "ctrl+end")
	h.Type("\n")
	chord(h, "ctrl+v")
	if !strings.HasSuffix(ed.Text(), "u.id;\nCREATE TABLE") {
		t.Fatalf("paste: %q", ed.Text()[len(ed.Text())-30:])
	}
	// Undo the paste and the new line; redo the line.
	chord(h, "ctrl+z", "ctrl+z")
	if ed.Text() != enrichSQL || ed.Dirty() {
		t.Fatalf("undo did not restore the text")
	}
	chord(h, "ctrl+y")
	if ed.Text() != enrichSQL+"\n" {
		t.Fatalf("redo: %q", ed.Text()[len(ed.Text())-10:])
	}
	// Cut a selected line (shift+down from its start).
	chord(h, "ctrl+home", "shift+down", "ctrl+x")
	if strings.HasPrefix(ed.Text(), "CREATE TABLE orders") || ed.Clipboard() != "CREATE TABLE orders (\n" {
		t.Fatalf("cut: clipboard %q", ed.Clipboard())
	}
	// A page down from the top goes a page of lines down (here, to the end).
	chord(h, "ctrl+home")
	h.Send(tea.KeyPressMsg{Code: tea.KeyPgDown})
	if last, l := ed.Lines()-1, line(ed); l != last {
		t.Errorf("pgdown went to line %d, want %d", l, last)
	}
	// Select all, then type over everything.
	chord(h, "ctrl+a")
	h.Type("SELECT 1;")
	if ed.Text() != "SELECT 1;" {
		t.Fatalf("typing over select-all: %q", ed.Text())
	}
}

func TestEditorFind(t *testing.T) {
	h := apptest.New(t, withVersions(tuitest.NewFixture()), 120, 40, tui.Options{Context: "test"})
	ed := openEditor(h, "orders-enrich")
	chord(h, "ctrl+f")
	h.Type("users")
	h.MustShow("find: users")
	if line(ed) != 6 || ed.Selected() != "users" {
		t.Fatalf("incremental find: %v %q", cursor(ed), ed.Selected())
	}
	h.Press("enter")
	chord(h, "ctrl+n")
	if line(ed) != 8 {
		t.Fatalf("next match at %v, want line 9 ('users' the table name)", cursor(ed))
	}
	chord(h, "ctrl+n")
	if line(ed) != 13 {
		t.Fatalf("next match at %v, want line 14", cursor(ed))
	}
	chord(h, "ctrl+p")
	if line(ed) != 8 {
		t.Fatalf("previous match at %v", cursor(ed))
	}
	// esc in the prompt goes back to where the search began.
	chord(h, "ctrl+home", "ctrl+f")
	h.Type("enriched")
	h.Press("esc")
	if !at(ed, 0, 0) || ed.Searching() {
		t.Fatalf("esc left the cursor at %v", cursor(ed))
	}
}

func TestEditorSubmit(t *testing.T) {
	f := withVersions(tuitest.NewFixture())
	h := apptest.New(t, f, 120, 40, tui.Options{Context: "test"})
	openEditor(h, "orders-enrich")
	// Unsaved edits are not what would run.
	h.Type("x")
	chord(h, "ctrl+r")
	if !strings.Contains(h.Flash(), "save the edits first") || f.Called("Plan") {
		t.Fatalf("submit with edits: flash %q", h.Flash())
	}
	chord(h, "ctrl+z")
	h.Fire(editor.ValidateTickMsg{})
	// A running job resubmits only after it stops: the flow says why.
	chord(h, "ctrl+r")
	if !strings.Contains(h.Flash(), "pause or kill it first") {
		t.Fatalf("resubmit of a running job: flash %q", h.Flash())
	}
	// Once it ended, ctrl+r asks where to restore from.
	f.Jobs[0].State = model.StateFinished
	h.Change(apiJobChanged(f, 0))
	chord(h, "ctrl+r")
	h.MustShow("Resubmit orders-enrich — restore from?")
	h.Press("esc")

	// A job never submitted is submitted, through the confirmation.
	f.Versions["j009"] = []model.Spec{{JobID: "j009", Version: 3, SQL: enrichSQL}}
	h.Press("esc")
	openEditor(h, "new-pipeline")
	chord(h, "ctrl+r")
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
	h := apptest.New(t, f, 120, 40, tui.Options{Context: "test"})
	openEditor(h, "new-pipeline")
	chord(h, "ctrl+r")
	if !strings.Contains(h.Flash(), "the SQL has 1 error") || f.Called("Plan") {
		t.Fatalf("submit with errors: flash %q", h.Flash())
	}
}

func TestEditorExternalEditorRoundTrip(t *testing.T) {
	h := apptest.New(t, withVersions(tuitest.NewFixture()), 120, 40, tui.Options{Context: "test"})
	ed := openEditor(h, "orders-enrich")
	t.Setenv("VISUAL", "")
	t.Setenv("EDITOR", "nano -w")
	// ctrl+e writes the text to a file for the editor (a Cmd, not Update).
	path, argv, trimNL, err := ed.ExternalFile()
	if err != nil || !slices.Equal(argv, []string{"nano", "-w"}) || !trimNL {
		t.Fatalf("file for $EDITOR: %s %v %v %v", path, argv, trimNL, err)
	}
	b, err := os.ReadFile(path)
	if err != nil || string(b) != enrichSQL {
		t.Fatalf("the file holds %q (%v)", b, err)
	}
	// The user's editor changes the text and adds a final newline.
	if err := os.WriteFile(path, []byte(strings.Replace(enrichSQL, "print", "blackhole", 1)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	h.Send(ed.EditorExited(path, trimNL, nil))
	if !strings.Contains(ed.Text(), "'connector' = 'blackhole'") || strings.HasSuffix(ed.Text(), "\n") || !ed.Dirty() {
		t.Fatalf("reloaded text: %q", ed.Text())
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Error("the temporary file is left behind")
	}
	// One ctrl+z undoes the whole reload.
	chord(h, "ctrl+z")
	if ed.Text() != enrichSQL {
		t.Error("ctrl+z did not undo the reload")
	}
	// A failed editor leaves the text alone and says so.
	h.Send(ed.EditorExited(path, false, os.ErrPermission))
	if !strings.Contains(h.Flash(), "$EDITOR failed, the text is unchanged") || ed.Text() != enrichSQL {
		t.Fatalf("failed editor: flash %q", h.Flash())
	}
}

func TestEditorVersionsAndDiff(t *testing.T) {
	h := apptest.New(t, withVersions(tuitest.NewFixture()), 120, 40, tui.Options{Context: "test"})
	ed := openEditor(h, "orders-enrich")
	chord(h, "ctrl+o")
	if !editor.IsVersions(h.Top()) {
		t.Fatalf("ctrl+o opened %T", h.Top())
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
	if h.Top() != kit.Screen(ed) || ed.Text() != f5(h) || !ed.Dirty() {
		t.Fatalf("o did not load v5 into the editor (%T)", h.Top())
	}
	h.MustShow("(edited)")
	// With unsaved edits, the working copy is the first row.
	chord(h, "ctrl+o")
	h.MustShow("unsaved edits")
}

func f5(h *tuitest.Harness) string { return h.F.Versions["j001"][0].SQL }

func TestEditorJarJobHasNoSQL(t *testing.T) {
	h := apptest.New(t, tuitest.NewFixture(), 120, 40, tui.Options{Context: "test"})
	h.SelectJob("payments-dedup")
	h.Press("e")
	if !onJobs(h) || !strings.Contains(h.Flash(), "JAR job") {
		t.Fatalf("e on a JAR job: %T, flash %q", h.Top(), h.Flash())
	}
}

func TestGoldenEditor(t *testing.T) {
	apptest.GoldenFrame(t, "editor", withVersions, tui.Options{}, func(h *tuitest.Harness) {
		openEditor(h, "orders-enrich")
		chord(h, "down", "down", "shift+down")
	})
}

func TestGoldenEditorError(t *testing.T) {
	apptest.GoldenFrame(t, "editor_error", withVersions, tui.Options{}, func(h *tuitest.Harness) {
		openEditor(h, "orders-enrich")
		goTo(h, 13) // SELECT o.order_id, u.name FROM orders AS o
		chord(h, "home", "ctrl+right", "ctrl+right", "ctrl+right", "backspace")
		h.Fire(editor.ValidateTickMsg{})
	})
}

func TestGoldenVersionsAndDiff(t *testing.T) {
	apptest.GoldenFrame(t, "editor_versions", withVersions, tui.Options{}, func(h *tuitest.Harness) {
		openEditor(h, "orders-enrich")
		chord(h, "ctrl+o")
		h.Press("j", "j", "space", "k")
	})
	apptest.GoldenFrame(t, "editor_diff", withVersions, tui.Options{}, func(h *tuitest.Harness) {
		openEditor(h, "orders-enrich")
		chord(h, "ctrl+o")
		h.Press("j", "j", "space", "k", "k", "enter")
	})
}

// apiJobChanged is the change Watch sends for the fake's job i.
func apiJobChanged(f *tuitest.Fake, i int) api.Change {
	jv := f.Jobs[i]
	return api.Change{Kind: api.JobChanged, Job: &jv}
}

// cursor, line and at read the editor's cursor.
func cursor(ed *editor.Screen) [2]int { l, c := ed.Cursor(); return [2]int{l, c} }
func line(ed *editor.Screen) int      { l, _ := ed.Cursor(); return l }
func at(ed *editor.Screen, l, c int) bool {
	el, ec := ed.Cursor()
	return el == l && ec == c
}

// onJobs reports the jobs table on top.
func onJobs(h *tuitest.Harness) bool { return strings.HasPrefix(h.Top().Title(), "Jobs") }
