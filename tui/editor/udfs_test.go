package editor_test

import (
	"testing"

	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/editor"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/tuitest"
)

// TestEditorKnowsTheUDFRegistry: the editor completes a registered
// function by the name it was registered with, checks the call against
// its signature, and reports a function nobody defines.
func TestEditorKnowsTheUDFRegistry(t *testing.T) {
	f := withVersions(tuitest.NewFixture())
	h := apptest.New(t, f, 120, 40, tui.Options{Context: "test"})
	openEditor(h, "orders-enrich")
	if !f.Called("UDFs") {
		t.Fatal("the editor never read the UDF registry")
	}
	goTo(h, 13)
	chord(h, "home")
	for range len("SELECT ") {
		chord(h, "right")
	}
	h.Type("mask_p")
	chord(h, "tab")
	h.MustShow("SELECT mask_pan")
	h.Type("(")
	for range len("o.order_id") {
		chord(h, "right")
	}
	h.Type(", 1)")
	h.MustShow("SELECT mask_pan(o.order_id, 1), u.name FROM")
	h.Fire(editor.ValidateTickMsg{})
	h.MustShow("takes 1 argument, called with 2")

	goTo(h, 13)
	chord(h, "home")
	for range len("SELECT ") {
		chord(h, "right")
	}
	chord(h, "shift+end")
	h.Type("nosuch_fn(o.order_id), u.name FROM orders AS o")
	h.Fire(editor.ValidateTickMsg{})
	h.MustShow("unknown function 'nosuch_fn'")
}
