package model

import (
	"encoding/json"
	"strings"
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

// TestRestorePointEnumsRoundTripByName: how a run ended, the retention it
// ran with and a command's UNKNOWN state are stored by name, the zero ones
// left out; Flink's retention names parse in any case.
func TestRestorePointEnumsRoundTripByName(t *testing.T) {
	rp := RestorePoint{Kind: Checkpoint, Path: "p", Status: SavepointMissing, RunEnd: EndKilled, Retention: RetainOnFailure}
	b, _ := json.Marshal(rp)
	for _, name := range []string{`"missing"`, `"KILLED_BY_YARN"`, `"DELETE_ON_CANCELLATION"`} {
		if !strings.Contains(string(b), name) {
			t.Errorf("%s not in %s", name, b)
		}
	}
	var back RestorePoint
	if err := json.Unmarshal(b, &back); err != nil || back != rp {
		t.Errorf("round trip: %+v, %v from %s", back, err, b)
	}
	if b, _ := json.Marshal(RestorePoint{Kind: Savepoint, Path: "p"}); strings.Contains(string(b), "RunEnd") || strings.Contains(string(b), "Retention") {
		t.Errorf("zero values stored: %s", b)
	}
	if b, _ := json.Marshal(Job{ID: "j", Name: "n"}); strings.Contains(string(b), "Retention") {
		t.Errorf("zero retention stored: %s", b)
	}
	c := Command{Kind: CmdKill, State: CmdUnknown}
	b, _ = json.Marshal(c)
	var cb Command
	if err := json.Unmarshal(b, &cb); err != nil || cb.State != CmdUnknown || !strings.Contains(string(b), `"UNKNOWN"`) {
		t.Errorf("UNKNOWN command: %+v, %v from %s", cb, err, b)
	}
	if r, err := ParseCheckpointRetention("retain_on_cancellation"); err != nil || r != RetainOnCancellation {
		t.Errorf("retention in lower case: %v, %v", r, err)
	}
	if _, err := ParseCheckpointRetention("KEEP_EVERYTHING"); err == nil {
		t.Error("an unknown retention parsed")
	}
}
