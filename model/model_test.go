package model

import (
	"encoding/json"
	"testing"
)

func TestEnumsRoundTripByName(t *testing.T) {
	for _, s := range JobStates() {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var back JobState
		if err := json.Unmarshal(b, &back); err != nil || back != s {
			t.Errorf("%s: round trip gave %v, %v (json %s)", s, back, err, b)
		}
	}
	c := Command{Kind: CmdPause, State: CmdDoing, Params: CommandParams{Restore: RestoreNone}}
	b, _ := json.Marshal(c)
	var back Command
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Kind != CmdPause || back.State != CmdDoing || back.Params.Restore != RestoreNone {
		t.Errorf("command round trip: %+v from %s", back, b)
	}
}

func TestParseIsCaseInsensitiveAndRejectsUnknown(t *testing.T) {
	if s, err := ParseJobState("failed"); err != nil || s != StateFailed {
		t.Errorf("ParseJobState(failed) = %v, %v", s, err)
	}
	if _, err := ParseJobState("UNKNOWN"); err == nil {
		t.Error("ParseJobState(UNKNOWN) did not fail")
	}
	if StateRunning.Final() || !StateKilled.Final() || !StateRunning.Live() {
		t.Error("Final/Live disagree with DESIGN.md")
	}
}

func TestOutOfRangeEnumsPrintWithoutRecursion(t *testing.T) {
	if got := CommandKind(0).String(); got != "model.CommandKind(0)" {
		t.Errorf("CommandKind(0) = %q", got)
	}
	if got := JobState(99).String(); got != "model.JobState(99)" {
		t.Errorf("JobState(99) = %q", got)
	}
}

// TestCommandKindsListsEveryKind: a kind added without a place in
// CommandKinds would be missing from every job's action checks.
func TestCommandKindsListsEveryKind(t *testing.T) {
	kinds := CommandKinds()
	if len(kinds) != len(commandKindNames) {
		t.Fatalf("CommandKinds has %d kinds, commandKindNames %d", len(kinds), len(commandKindNames))
	}
	for _, k := range kinds {
		if _, ok := commandKindNames[k]; !ok {
			t.Errorf("CommandKinds lists %d, which has no name", k)
		}
	}
}
