package journal

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/decide"
	"github.com/palink/palink/model"
)

var update = flag.Bool("update", false, "rewrite the TUI fake's action table from decide.CanAct")

// pendingSeq is the number of the pending commands of these tests; the
// fake's table writes it as {seq}, for the fake to fill in its own.
const pendingSeq = 99

// pendings is every pending command a job can have: none, or one of each
// kind that is waiting or running.
func pendings() []*model.Command {
	out := []*model.Command{nil}
	for _, k := range model.CommandKinds() {
		for _, s := range []model.CommandState{model.CmdUndo, model.CmdDoing} {
			out = append(out, &model.Command{ID: "c99", Seq: pendingSeq, JobID: "j1", Kind: k, State: s})
		}
	}
	return out
}

func pendingName(p *model.Command) string {
	if p == nil {
		return "-"
	}
	return p.Kind.String() + "/" + p.State.String()
}

// TestChecksAreCanAct: over every (job state × action × pending command),
// what a job's view says of an action is what decide.CanAct decides: the
// same allowed or refused, with its reason.
func TestChecksAreCanAct(t *testing.T) {
	n := 0
	for _, s := range model.JobStates() {
		for _, p := range pendings() {
			j := model.Job{ID: "j1", Name: "orders", State: s}
			v := View(j, p, api.Figures{})
			if v.Pending != p || v.Job.State != s {
				t.Fatalf("View changed the job or its pending command: %+v", v)
			}
			var kinds []model.CommandKind
			for _, c := range v.Actions {
				kinds = append(kinds, c.Kind)
			}
			if !slices.Equal(kinds, model.CommandKinds()) {
				t.Fatalf("%s with pending %s: checks of %v, want every kind in order", s, pendingName(p), kinds)
			}
			for _, k := range model.CommandKinds() {
				n++
				err := decide.CanAct(j, k, p)
				why, known := v.Refusal(k)
				var r *decide.ActionRefusedError
				switch {
				case !known:
					t.Errorf("%s of a %s job, pending %s: not said", k, s, pendingName(p))
				case err == nil && why != "":
					t.Errorf("%s of a %s job, pending %s: refused %q, CanAct allows it", k, s, pendingName(p), why)
				case err != nil && (!errors.As(err, &r) || why != r.Reason || why == ""):
					t.Errorf("%s of a %s job, pending %s: refused %q, CanAct says %v", k, s, pendingName(p), why, err)
				}
			}
		}
	}
	if want := len(model.JobStates()) * len(model.CommandKinds()) * (1 + 2*len(model.CommandKinds())); n != want {
		t.Errorf("checked %d combinations, want %d", n, want)
	}
}

// fakeTable is the TUI fake's copy of CanAct (tuitest.Fake fills its job
// views from it, as core fills them from CanAct; the TUI may not import
// decide, nor may its fake).
const fakeTable = "../../tui/internal/tuitest/actions.txt"

// TestFakeActionTableIsCanAct holds the TUI fake's table to decide.CanAct
// over every (job state × action × pending command): a change to CanAct
// fails here until the table is written again (-update), so the TUI's
// tests always see what core would say.
func TestFakeActionTableIsCanAct(t *testing.T) {
	var b strings.Builder
	b.WriteString("# decide.CanAct over every (job state, action, pending command): what core\n" +
		"# fills api.JobView.Actions with, and tuitest.Fake from this table. Written by\n" +
		"# core/journal's TestFakeActionTableIsCanAct (go test ./core/journal -run\n" +
		"# TestFakeActionTableIsCanAct -update); {seq} is the pending command's number.\n" +
		"# STATE\tACTION\tPENDING\tREFUSED (- when allowed)\n")
	for _, s := range model.JobStates() {
		for _, k := range model.CommandKinds() {
			for _, p := range pendings() {
				why := "-"
				if err := decide.CanAct(model.Job{ID: "j1", Name: "orders", State: s}, k, p); err != nil {
					why = strings.ReplaceAll(refusal(err), fmt.Sprintf("#%d", pendingSeq), "#{seq}")
				}
				fmt.Fprintf(&b, "%s\t%s\t%s\t%s\n", s, k, pendingName(p), why)
			}
		}
	}
	want := b.String()
	got, err := os.ReadFile(fakeTable)
	if err == nil && string(got) == want {
		return
	}
	if !*update {
		t.Fatalf("%s is not decide.CanAct's table (%v); run: go test ./core/journal -run TestFakeActionTableIsCanAct -update", fakeTable, err)
	}
	if err := os.WriteFile(fakeTable, []byte(want), 0o644); err != nil {
		t.Fatal(err)
	}
}
