package tables_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/model"
	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/tables"
)

// fakeEditor is $EDITOR for a test: a real process (sh) that notes the
// file it was given and what was in it, then writes the test's next text
// into it — or leaves it as it was when there is none.
type fakeEditor struct{ dir, home string }

func newFakeEditor(t *testing.T) *fakeEditor {
	t.Helper()
	e := editorScript(t)
	tables.RunEditorHere(t)
	return e
}

// editorScript is the fake editor without the harness's way of running
// it: the real program runs it as it runs $EDITOR.
func editorScript(t *testing.T) *fakeEditor {
	t.Helper()
	e := &fakeEditor{dir: t.TempDir(), home: t.TempDir()}
	script := filepath.Join(e.dir, "editor.sh")
	body := "#!/bin/sh\necho \"$1\" >> \"$EDITOR_DIR/opened\"\ncat \"$1\" > \"$EDITOR_DIR/seen\"\n" +
		"if [ -f \"$EDITOR_DIR/next\" ]; then cp \"$EDITOR_DIR/next\" \"$1\"; fi\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("EDITOR_DIR", e.dir)
	t.Setenv("VISUAL", "")
	t.Setenv("EDITOR", "sh "+script)
	// The edits wait under ~/.local/state: a home of the test's own.
	t.Setenv("HOME", e.home)
	t.Setenv("XDG_STATE_HOME", "")
	return e
}

// writes makes the editor save text; "" leaves the file as it finds it.
func (e *fakeEditor) writes(t *testing.T, text string) {
	t.Helper()
	next := filepath.Join(e.dir, "next")
	if text == "" {
		_ = os.Remove(next)
		return
	}
	if err := os.WriteFile(next, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// seen is what the editor last found in its file.
func (e *fakeEditor) seen(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(e.dir, "seen"))
	if err != nil {
		t.Fatalf("the editor never ran: %v", err)
	}
	return string(b)
}

// opened are the files the editor was given, in order.
func (e *fakeEditor) opened() []string {
	b, _ := os.ReadFile(filepath.Join(e.dir, "opened"))
	return strings.Fields(string(b))
}

// keptFile is where an edit of prod's orders waits.
func (e *fakeEditor) keptFile() string {
	return filepath.Join(e.home, ".local", "state", "palink", "edits", "prod", "orders.sql")
}

const (
	keptShown = "~/.local/state/palink/edits/prod/orders.sql"
	broken    = "CREATE TABLE orders (\n  order_id BIGINT,\n  amount DECIMAL(10, 2\n) WITH ('connector' = 'kafka', 'topic' = 'orders', 'format' = 'json')"
	fixed     = "CREATE TABLE orders (\n  order_id BIGINT,\n  user_id BIGINT,\n  amount DECIMAL(10, 2),\n  currency STRING,\n  proc_time AS PROCTIME()\n) WITH (\n" +
		"  'connector' = 'kafka',\n  'topic' = 'orders',\n  'properties.bootstrap.servers' = '${kafka}',\n  'format' = 'json'\n)"
)

func openTables(h *tuitest.Harness) {
	h.T.Helper()
	h.Press(":")
	h.Type("tables")
	h.Press("enter")
}

func catalogTable(f *tuitest.Fake, cluster, name string) model.CatalogTable {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	for _, t := range f.Catalog[cluster] {
		if t.Name == name {
			return t
		}
	}
	return model.CatalogTable{}
}

// TestTableEditedInEditorIsCheckedBeforeItIsSaved: e hands the table's DDL
// to $EDITOR; an edit that does not parse is not saved, said at
// file:line:col, and kept: e opens it again as it was left, not the saved
// DDL, and once it checks it is saved as the table's next version and
// its file goes.
func TestTableEditedInEditorIsCheckedBeforeItIsSaved(t *testing.T) {
	f := tuitest.NewFixture()
	f.SetTables("prod", tuitest.FixtureTables())
	saved := catalogTable(f, "prod", "orders").SQL
	ed := newFakeEditor(t)
	h := apptest.New(t, f, 120, 40, tui.Options{})
	openTables(h)

	ed.writes(t, broken)
	h.Press("e")
	if got := ed.seen(t); got != saved+"\n" {
		t.Errorf("the editor got:\n%s\nwant the table's DDL:\n%s", got, saved)
	}
	if f.Called("PutTable") {
		t.Fatal("an edit that does not parse was saved")
	}
	if got := h.Flash(); !strings.HasPrefix(got, "table orders not saved: "+keptShown+":4:3: expected ')', found 'WITH'") || !strings.HasSuffix(got, "e edits it again") {
		t.Errorf("flash %q", got)
	}
	h.MustShow("✖ your edit is not saved: "+keptShown+":4:3:", "e edits it again · kept in "+keptShown)
	if b, err := os.ReadFile(ed.keptFile()); err != nil || string(b) != broken {
		t.Fatalf("the edit is not kept in %s: %q %v", ed.keptFile(), b, err)
	}

	ed.writes(t, fixed)
	h.Press("e")
	if got := ed.seen(t); got != broken {
		t.Errorf("e again gave the editor:\n%s\nwant the edit it left:\n%s", got, broken)
	}
	if !f.Called("PutTable prod orders") {
		t.Fatalf("the fixed edit was not saved: %v", f.Calls())
	}
	if got := catalogTable(f, "prod", "orders"); got.SQL != fixed || got.Version != 4 {
		t.Errorf("orders is now v%d:\n%s", got.Version, got.SQL)
	}
	if got := h.Flash(); got != "saved table orders v4" {
		t.Errorf("flash %q", got)
	}
	h.MustShow("v4", "currency STRING")
	h.MustNotShow("not saved")
	if _, err := os.Stat(ed.keptFile()); !os.IsNotExist(err) {
		t.Errorf("the saved edit's file is still there: %v", err)
	}
	if o := ed.opened(); len(o) != 2 || o[0] != o[1] || o[0] != ed.keptFile() {
		t.Errorf("the editor opened %v", o)
	}
}

// TestTableEditThatChangesNothingSavesNothing: leaving the editor without
// a change makes no version.
func TestTableEditThatChangesNothingSavesNothing(t *testing.T) {
	f := tuitest.NewFixture()
	f.SetTables("prod", tuitest.FixtureTables())
	ed := newFakeEditor(t)
	h := apptest.New(t, f, 120, 40, tui.Options{})
	openTables(h)
	h.Press("e")
	if f.Called("PutTable") {
		t.Fatal("an unchanged table was saved")
	}
	if got := h.Flash(); got != "table orders unchanged: nothing saved" {
		t.Errorf("flash %q", got)
	}
	if _, err := os.Stat(ed.keptFile()); !os.IsNotExist(err) {
		t.Errorf("the unchanged edit's file is still there: %v", err)
	}
}

// TestTableEditRefusedIsKept: an edit that checks but that the service
// refuses is kept as well, with the refusal, for e to open again; a
// palink that starts again finds it where it was left.
func TestTableEditRefusedIsKept(t *testing.T) {
	f := tuitest.NewFixture()
	f.SetTables("prod", tuitest.FixtureTables())
	ed := newFakeEditor(t)
	h := apptest.New(t, f, 120, 40, tui.Options{})
	openTables(h)
	ed.writes(t, fixed)
	f.SetFail(errors.New("change the table catalog: user ops is an operator on this agent; it needs an admin (admins: in the config)"))
	h.Press("e")
	h.MustShow("your edit is not saved: save table orders of cluster prod: change the table catalog")
	if b, err := os.ReadFile(ed.keptFile()); err != nil || string(b) != fixed {
		t.Fatalf("the refused edit is not kept: %q %v", b, err)
	}
	f.SetFail(nil)

	again := apptest.New(t, f, 120, 40, tui.Options{})
	openTables(again)
	ed.writes(t, "")
	again.Press("e")
	if got := ed.seen(t); got != fixed {
		t.Errorf("a new session's e gave the editor:\n%s\nwant the kept edit", got)
	}
	if got := catalogTable(f, "prod", "orders"); got.SQL != fixed {
		t.Errorf("the kept edit was not saved:\n%s", got.SQL)
	}
}

// TestViewerIsNotOfferedTableEdits: editing the catalog is an admin's
// (PutTable); a viewer sees the tables, and e says why it is not theirs.
func TestViewerIsNotOfferedTableEdits(t *testing.T) {
	f := tuitest.NewFixture()
	f.SetTables("prod", tuitest.FixtureTables())
	f.Role = model.Operator
	ed := newFakeEditor(t)
	h := apptest.New(t, f, 120, 40, tui.Options{})
	openTables(h)
	lines := strings.Split(h.Screen(), "\n")
	if footer := lines[len(lines)-2]; strings.Contains(footer, "$EDITOR") {
		t.Errorf("an operator is offered e: %q", footer)
	}
	h.Press("e")
	if got := h.Flash(); got != "change the table catalog: you are an operator; it needs an admin" {
		t.Errorf("flash %q", got)
	}
	if len(ed.opened()) != 0 {
		t.Error("the editor ran for an operator")
	}
}

func TestGoldenTableEditNotSaved(t *testing.T) {
	apptest.GoldenFrame(t, "tables_edit_not_saved", func(f *tuitest.Fake) *tuitest.Fake {
		f.SetTables("prod", tuitest.FixtureTables())
		return f
	}, tui.Options{}, func(h *tuitest.Harness) {
		ed := newFakeEditor(h.T.(*testing.T))
		ed.writes(h.T.(*testing.T), broken)
		openTables(h)
		h.Press("e")
	})
}

// TestProgramHandsTheTerminalToTheEditor: in the real program loop, e
// hands the terminal to $EDITOR (tea.ExecProcess) and takes it back, and
// the edit is checked and saved.
func TestProgramHandsTheTerminalToTheEditor(t *testing.T) {
	f := tuitest.NewFixture()
	f.SetTables("prod", tuitest.FixtureTables())
	ed := editorScript(t)
	ed.writes(t, fixed)
	tm := apptest.Program(t, f, tui.Options{})
	tuitest.WaitFor(t, tm, "orders-enrich")
	tm.Type(":tables")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tuitest.WaitFor(t, tm, "Tables @prod", "e edit in $EDITOR")
	tm.Type("e")
	tuitest.WaitFor(t, tm, "saved table orders v4")
	tuitest.Final(t, tm)
	if got := catalogTable(f, "prod", "orders"); got.SQL != fixed {
		t.Errorf("orders after the edit:\n%s", got.SQL)
	}
	if len(ed.opened()) != 1 {
		t.Errorf("the editor opened %v", ed.opened())
	}
}
