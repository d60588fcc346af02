package editor_test

import (
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/editor"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/tuitest"
)

// selectListAt puts the cursor on line 13 (SELECT o.order_id, u.name …)
// after "SELECT o.order_id, " and types o. there.
func selectListAt(h *tuitest.Harness) {
	h.T.Helper()
	goTo(h, 13)
	chord(h, "home")
	for range len("SELECT o.order_id, ") {
		chord(h, "right")
	}
	h.Type("o.")
}

func TestEditorCompletionPopup(t *testing.T) {
	h := apptest.New(t, withVersions(tuitest.NewFixture()), 120, 40, tui.Options{Context: "test"})
	ed := openEditor(h, "orders-enrich")
	selectListAt(h)
	chord(h, "tab")
	h.MustShow(" c order_id ", " c user_id ", " c amount ", " c proc_time ")
	// The popup opens under the cursor's line, which stays whole.
	lines := strings.Split(h.Screen(), "\n")
	cur := -1
	for i, l := range lines {
		if strings.Contains(l, " 13 │ SELECT o.order_id, o.u.name FROM orders AS o") {
			cur = i
		}
	}
	if cur < 0 || !strings.Contains(lines[cur+1], " c order_id ") {
		t.Fatalf("the popup is not under line 13:\n%s", h.Screen())
	}
	// The status line says what the chosen suggestion is.
	h.MustShow("BIGINT — column of o")
	// Typing narrows; down chooses; enter writes it.
	h.Type("a")
	h.MustNotShow(" c order_id ")
	h.MustShow(" c amount ")
	chord(h, "backspace", "down", "enter")
	if got := ed.Line(12); got != "SELECT o.order_id, o.user_idu.name FROM orders AS o" {
		t.Fatalf("line 13 is %q", got)
	}
	h.MustNotShow(" c amount ")
	// Esc closes the popup and leaves the editor open.
	h.Type(", o.")
	chord(h, "ctrl+space")
	h.MustShow(" c order_id ")
	chord(h, "esc")
	h.MustNotShow(" c order_id ")
	if _, ok := h.Top().(*editor.Screen); !ok {
		t.Fatal("esc in the popup left the editor")
	}
}

// Tab indents where there is no word to complete, and a single
// suggestion is written at once.
func TestEditorTabIndentsOrCompletes(t *testing.T) {
	h := apptest.New(t, withVersions(tuitest.NewFixture()), 120, 40, tui.Options{Context: "test"})
	ed := openEditor(h, "orders-enrich")
	chord(h, "ctrl+end", "enter", "tab")
	if got := ed.Line(ed.Lines() - 1); got != "  " {
		t.Fatalf("tab on an empty line: %q, want an indent", got)
	}
	h.Type("SELECT * FROM users WH")
	chord(h, "tab")
	if got := ed.Line(ed.Lines() - 1); got != "  SELECT * FROM users WHERE" {
		t.Fatalf("tab after WH: %q", got)
	}
}

// The popup opens above the cursor's line when there is no room below.
func TestEditorPopupAboveAtTheBottom(t *testing.T) {
	h := apptest.New(t, withVersions(tuitest.NewFixture()), 120, 20, tui.Options{Context: "test"})
	openEditor(h, "orders-enrich")
	goTo(h, 14)
	chord(h, "left")
	h.Type(" AND o.")
	chord(h, "tab")
	h.MustShow(" c order_id ")
	lines := strings.Split(h.Screen(), "\n")
	for i, l := range lines {
		if strings.Contains(l, "AND o.") {
			if i == 0 || !strings.Contains(lines[i-1], " c proc_time ") {
				t.Fatalf("the popup is not right above the cursor's line:\n%s", h.Screen())
			}
			return
		}
	}
	t.Fatalf("no cursor line:\n%s", h.Screen())
}

// The status line describes the function under the cursor.
func TestEditorDescribesTheFunctionUnderTheCursor(t *testing.T) {
	h := apptest.New(t, withVersions(tuitest.NewFixture()), 120, 40, tui.Options{Context: "test"})
	openEditor(h, "orders-enrich")
	chord(h, "ctrl+end", "enter")
	h.Type("SELECT UPPER(name) FROM users;")
	chord(h, "home", "right", "right", "right", "right", "right", "right", "right", "right")
	h.MustShow("UPPER(string) — ")
}

func TestGoldenEditorCompletion(t *testing.T) {
	apptest.GoldenFrame(t, "editor_completion", withVersions, tui.Options{}, func(h *tuitest.Harness) {
		openEditor(h, "orders-enrich")
		selectListAt(h)
		chord(h, "tab", "down")
	})
}

// In the real loop: tab asks in a Cmd, the popup shows, enter writes.
func TestProgramCompletion(t *testing.T) {
	f := withVersions(tuitest.NewFixture())
	tm := apptest.Program(t, f, tui.Options{})
	tuitest.WaitFor(t, tm, "orders-enrich")
	tm.Type("/orders-enrich")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tm.Type("e")
	tuitest.WaitFor(t, tm, "orders-enrich · SQL v7")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnd, Mod: tea.ModCtrl})
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tm.Type("SELECT u.")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyTab})
	tm.Type(" FROM users u")
	tuitest.WaitFor(t, tm, "SELECT u. FROM users u")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyHome})
	for range len("SELECT u.") {
		tm.Send(tea.KeyPressMsg{Code: tea.KeyRight})
	}
	tm.Send(tea.KeyPressMsg{Code: tea.KeyTab})
	tuitest.WaitFor(t, tm, " c id ", " c name ")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyDown})
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tuitest.WaitFor(t, tm, "SELECT u.name FROM users u")
	ed := tuitest.ProbeTop(tuitest.Final(t, tm)).(*editor.Screen)
	if !strings.Contains(ed.Text(), "\nSELECT u.name FROM users u") {
		t.Fatalf("text:\n%s", ed.Text())
	}
}

// A cluster whose config names no Flink release is checked for the one
// its SQL Gateway says it runs.
func TestEditorChecksForTheGatewaysRelease(t *testing.T) {
	f := withVersions(tuitest.NewFixture())
	f.GatewayVersion = "1.20.1"
	h := apptest.New(t, f, 120, 40, tui.Options{Context: "test"})
	openEditor(h, "orders-enrich")
	chord(h, "ctrl+end", "enter")
	h.Type("CREATE MODEL m INPUT (t STRING) OUTPUT (l STRING) WITH ('provider' = 'openai');")
	h.Fire(editor.ValidateTickMsg{})
	h.MustShow("CREATE MODEL needs Flink 2.0; cluster prod runs 1.20")
}

// Under NO_COLOR the popup's chosen suggestion is reversed: its
// background colour is gone (#29).
func TestEditorPopupChoiceWithoutColour(t *testing.T) {
	h := apptest.New(t, withVersions(tuitest.NewFixture()), 120, 40, tui.Options{Context: "test"})
	h.Send(tea.ColorProfileMsg{Profile: colorprofile.ASCII})
	openEditor(h, "orders-enrich")
	selectListAt(h)
	chord(h, "tab")
	h.MustShow(" c order_id ")
	for _, l := range strings.Split(tuitest.NoColor(h.Render()), "\n") {
		if strings.Contains(ansi.Strip(l), " c order_id ") {
			if !regexp.MustCompile(`\x1b\[(?:[0-9;]*;)?7(?:;[0-9;]*)?m c order_id`).MatchString(l) {
				t.Errorf("the chosen suggestion is not reversed: %q", l)
			}
			return
		}
	}
	t.Fatal("no popup line")
}

// TestGoldenEditorCompletionNoColor: without colour the chosen suggestion
// is reversed and the comments and line numbers faint.
func TestGoldenEditorCompletionNoColor(t *testing.T) {
	for _, sz := range tuitest.Sizes {
		h := apptest.New(t, withVersions(tuitest.NewFixture()), sz.W, sz.H, tui.Options{Context: "test"})
		h.Send(tea.ColorProfileMsg{Profile: colorprofile.ASCII})
		openEditor(h, "orders-enrich")
		selectListAt(h)
		chord(h, "tab", "down")
		tuitest.Golden(t, "editor_completion_no_color_"+tuitest.SizeName(sz.W, sz.H), tuitest.NoColor(h.Render()))
	}
}
