package create_test

import (
	"strings"
	"testing"

	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/create"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/tuitest"
)

func TestCreateJobForm(t *testing.T) {
	f := tuitest.NewFixture()
	h := apptest.New(t, f, 120, 40, tui.Options{})
	h.Press("n")
	if _, ok := h.Top().(*create.Form); !ok {
		t.Fatalf("n opened %T", h.Top())
	}
	h.Press("ctrl+s")
	h.MustShow("name is required", "SQL is required")
	if f.Called("CreateJob") {
		t.Fatal("an invalid form was sent")
	}
	// q and ? are text in the form, not global keys.
	h.Type("q?")
	if _, ok := h.Top().(*create.Form); !ok {
		t.Fatal("typing q or ? in the form left it")
	}
	h.Press("backspace", "backspace")
	h.Type("orders-v2")
	h.Press("tab", "right") // cluster: staging
	h.Press("tab", "tab")   // parallelism
	h.Type("x")
	h.Press("tab")
	h.Type("INSERT INTO a SELECT * FROM b;")
	h.Press("ctrl+s")
	h.MustShow(`parallelism "x" is not a whole number`)
	h.Press("shift+tab", "backspace")
	h.Type("8")
	h.Press("ctrl+s")
	if !f.Called("CreateJob orders-v2 staging SQL") {
		t.Fatalf("calls %v", f.Calls())
	}
	if !strings.HasPrefix(h.Top().Title(), "Jobs") {
		t.Fatalf("after creating, the form is still open (%T)", h.Top())
	}
	if !strings.Contains(h.Flash(), "created job orders-v2 on staging (CREATED) — r submits it") {
		t.Errorf("flash %q", h.Flash())
	}
	h.MustShow("orders-v2")

	// A refusal keeps the form open with the reason.
	h.Press("n")
	h.Type("orders-v2")
	h.Press("tab", "tab", "tab", "tab")
	h.Type("SELECT 1;")
	h.Press("ctrl+s")
	h.MustShow("create job orders-v2 on prod: job orders-v2: already exists")
	h.Press("esc")
	if !strings.HasPrefix(h.Top().Title(), "Jobs") {
		t.Error("esc did not leave the form")
	}
}

func TestCreateJarJob(t *testing.T) {
	f := tuitest.NewFixture()
	h := apptest.New(t, f, 120, 40, tui.Options{})
	h.Press("n")
	h.Type("etl-jar")
	h.Press("tab", "tab", "right") // kind: JAR
	h.MustShow("entry class")
	h.Press("tab", "tab")
	h.Type("/jobs/etl.jar")
	h.Press("tab")
	h.Type("com.example.Etl")
	h.Press("tab")
	h.Type("--date today")
	h.Press("ctrl+s")
	if !f.Called("CreateJob etl-jar prod JAR") {
		t.Fatalf("calls %v", f.Calls())
	}
}

func TestGoldenCreateForm(t *testing.T) {
	apptest.GoldenFrame(t, "create", nil, tui.Options{}, func(h *tuitest.Harness) {
		h.Press("n")
		h.Type("orders-v2")
		h.Press("tab", "right")
	})
}
