package editor_test

import (
	"slices"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/kit"
)

// 'saving…' is replaced by 'saved v8' when the save ends, and the flash
// goes when the editor is left (#12).
func TestSaveFlashIsReplacedAndGoesWithTheEditor(t *testing.T) {
	f := withVersions(tuitest.NewFixture())
	h := apptest.New(t, f, 120, 40, tui.Options{Context: "test"})
	openEditor(h, "orders-enrich")
	chord(h, "ctrl+end")
	h.Type("\n-- checked")
	seen := len(h.Seen)
	chord(h, "ctrl+s")
	var flashes []kit.FlashMsg
	for _, m := range h.Seen[seen:] {
		if fm, ok := m.(kit.FlashMsg); ok {
			flashes = append(flashes, fm)
		}
	}
	if len(flashes) != 2 || !flashes[0].Busy || flashes[0].Text != "saving orders-enrich…" ||
		flashes[1].Busy || flashes[1].Text != "saved orders-enrich v8" || flashes[0].Key != flashes[1].Key {
		t.Fatalf("flashes of a save: %+v", flashes)
	}
	if h.Flash() != "saved orders-enrich v8" {
		t.Fatalf("flash %q", h.Flash())
	}
	h.Press("esc")
	if h.Flash() != "" {
		t.Errorf("the editor's flash stayed after leaving it: %q", h.Flash())
	}
}

// In the real loop with a slow service: the busy flash shows while the
// save runs (past an ordinary flash's five seconds of life), and the
// result takes its place.
func TestProgramSavingIsReplacedBySaved(t *testing.T) {
	f := withVersions(tuitest.NewFixture())
	tm := apptest.Program(t, f, tui.Options{})
	tuitest.WaitFor(t, tm, "orders-enrich")
	tm.Type("/orders-enrich")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tm.Type("e")
	tuitest.WaitFor(t, tm, "orders-enrich · SQL v7")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnd, Mod: tea.ModCtrl})
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tm.Type("-- checked")
	f.SetDelay(300 * time.Millisecond)
	tm.Send(tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl})
	tuitest.WaitFor(t, tm, "◌ saving orders-enrich…")
	tuitest.WaitFor(t, tm, "ⓘ saved orders-enrich v8")
	tuitest.Final(t, tm)
	if !slices.ContainsFunc(f.Calls(), func(c string) bool { return len(c) > 8 && c[:8] == "SaveSpec" }) {
		t.Errorf("calls %v", f.Calls())
	}
}

// The program runs a batch's Cmds at once and delivers their messages in
// no set order: whichever comes first, "◌ saving…" never outlives the
// save (#29: it stayed after the version was saved).
func TestSavingNeverOutlivesTheSave(t *testing.T) {
	f := withVersions(tuitest.NewFixture())
	h := apptest.New(t, f, 120, 40, tui.Options{Context: "test"})
	openEditor(h, "orders-enrich")
	chord(h, "ctrl+end")
	h.Type("\n-- checked")
	h.RunBatchesBackwards() // the work's answer before its busy flash, if they race
	chord(h, "ctrl+s")
	h.MustShow("orders-enrich · SQL v8")
	if got := h.Flash(); got != "saved orders-enrich v8" {
		t.Fatalf("flash after the save %q, want %q", got, "saved orders-enrich v8")
	}
}
