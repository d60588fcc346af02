package decide

import (
	"strings"
	"testing"

	"github.com/palink/palink/model"
)

// TestMapObservationEveryRow checks one observation per row of the mapping
// table, plus the cases outside it, against the outcome a Flink-on-YARN
// operator expects.
func TestMapObservationEveryRow(t *testing.T) {
	cases := []struct {
		name string
		o    Observation
		want Outcome
	}{
		{"new", Observation{AppFound: true, YARNState: "NEW", FinalStatus: "UNDEFINED"}, OutcomeWait},
		{"new saving", Observation{AppFound: true, YARNState: "NEW_SAVING", FinalStatus: "UNDEFINED"}, OutcomeWait},
		{"submitted", Observation{AppFound: true, YARNState: "SUBMITTED", FinalStatus: "UNDEFINED"}, OutcomeWait},
		{"accepted", Observation{AppFound: true, YARNState: "ACCEPTED", FinalStatus: "UNDEFINED"}, OutcomeWait},
		{"running", Observation{AppFound: true, YARNState: "RUNNING", FinalStatus: "UNDEFINED", FlinkState: "RUNNING"}, OutcomeRunning},
		{"flink restarting", Observation{AppFound: true, YARNState: "RUNNING", FlinkState: "RESTARTING"}, OutcomeRunning},
		{"flink failing", Observation{AppFound: true, YARNState: "RUNNING", FlinkState: "FAILING"}, OutcomeRunning},
		{"flink initializing", Observation{AppFound: true, YARNState: "RUNNING", FlinkState: "INITIALIZING"}, OutcomeWait},
		{"flink created", Observation{AppFound: true, YARNState: "RUNNING", FlinkState: "CREATED"}, OutcomeWait},
		{"flink reconciling", Observation{AppFound: true, YARNState: "RUNNING", FlinkState: "RECONCILING"}, OutcomeWait},
		{"flink suspended", Observation{AppFound: true, YARNState: "RUNNING", FlinkState: "SUSPENDED"}, OutcomeWait},
		{"flink finished", Observation{AppFound: true, YARNState: "RUNNING", FlinkState: "FINISHED"}, OutcomeFinished},
		{"flink cancelling", Observation{AppFound: true, YARNState: "RUNNING", FlinkState: "CANCELLING"}, OutcomeKilled},
		{"flink canceled", Observation{AppFound: true, YARNState: "RUNNING", FlinkState: "CANCELED"}, OutcomeKilled},
		{"flink failed", Observation{AppFound: true, YARNState: "RUNNING", FlinkState: "FAILED"}, OutcomeFailed},
		{"jm unreachable", Observation{AppFound: true, YARNState: "RUNNING"}, OutcomeWait},
		{"finished ok", Observation{AppFound: true, YARNState: "FINISHED", FinalStatus: "SUCCEEDED"}, OutcomeFinished},
		{"finished killed", Observation{AppFound: true, YARNState: "FINISHED", FinalStatus: "KILLED"}, OutcomeKilled},
		{"finished failed", Observation{AppFound: true, YARNState: "FINISHED", FinalStatus: "FAILED"}, OutcomeFailed},
		{"finished ended", Observation{AppFound: true, YARNState: "FINISHED", FinalStatus: "ENDED"}, OutcomeFinished},
		{"finished undefined", Observation{AppFound: true, YARNState: "FINISHED", FinalStatus: "UNDEFINED"}, OutcomeFinished},
		{"yarn failed", Observation{AppFound: true, YARNState: "FAILED", FinalStatus: "FAILED"}, OutcomeFailed},
		{"yarn killed", Observation{AppFound: true, YARNState: "KILLED", FinalStatus: "KILLED"}, OutcomeKilled},
		{"app gone", Observation{AppFound: false}, OutcomeGone},
		{"session job gone", Observation{AppFound: true, YARNState: "RUNNING", FlinkGone: true}, OutcomeGone},
		{"lower case", Observation{AppFound: true, YARNState: "running", FlinkState: "running"}, OutcomeRunning},
		{"unknown yarn state", Observation{AppFound: true, YARNState: "WEIRD"}, OutcomeWait},
	}
	if len(cases) < len(mappingTable) {
		t.Fatalf("%d cases for %d table rows", len(cases), len(mappingTable))
	}
	for _, tc := range cases {
		got, reason := MapObservation(tc.o)
		if got != tc.want {
			t.Errorf("%s: got %s (%s), want %s", tc.name, got, reason, tc.want)
		}
		if reason == "" {
			t.Errorf("%s: no reason", tc.name)
		}
	}
	// Every row of the table is reached by some case (no dead rows).
	for i, r := range mappingTable {
		hit := false
		for _, tc := range cases {
			if rowOf(tc.o) == i {
				hit = true
			}
		}
		if !hit {
			t.Errorf("row %d %+v is not exercised", i, r)
		}
	}
	if _, reason := MapObservation(Observation{AppFound: true, YARNState: "FINISHED", FinalStatus: "FAILED", FlinkState: ""}); !strings.Contains(reason, "FINISHED/FAILED") {
		t.Errorf("reason does not name both sides: %q", reason)
	}
}

func rowOf(o Observation) int {
	flink := o.FlinkState
	if flink == "" {
		flink = "-"
	}
	if !o.AppFound || o.FlinkGone {
		return -1
	}
	for i, r := range mappingTable {
		if match(r.yarn, o.YARNState) && match(r.final, o.FinalStatus) && match(r.flink, flink) {
			return i
		}
	}
	return -1
}

// TestMappingReasonsNameBothSides pins the timeline's words for an
// observation: YARN's state (and final status, unless undefined), then
// Flink's.
func TestMappingReasonsNameBothSides(t *testing.T) {
	for _, tc := range []struct {
		o    Observation
		want Outcome
		text string
	}{
		{Observation{AppFound: true, YARNState: "RUNNING", FinalStatus: "UNDEFINED", FlinkState: "RUNNING"}, OutcomeRunning, "YARN RUNNING, Flink RUNNING"},
		{Observation{AppFound: true, YARNState: "RUNNING", FinalStatus: "", FlinkState: "RESTARTING"}, OutcomeRunning, "YARN RUNNING, Flink RESTARTING"},
		{Observation{AppFound: true, YARNState: "FINISHED", FinalStatus: "FAILED"}, OutcomeFailed, "YARN FINISHED/FAILED"},
		{Observation{AppFound: true, YARNState: "RUNNING", FlinkGone: true}, OutcomeGone, "YARN RUNNING, Flink: job not found on the JobManager"},
		{Observation{AppFound: true, YARNState: "RUNNING"}, OutcomeWait, "YARN RUNNING"}, // the JobManager did not answer: a row of its own
		{Observation{AppFound: true, YARNState: "WEIRD"}, OutcomeWait, "YARN WEIRD (unmapped)"},
		{Observation{}, OutcomeGone, "YARN: application not found"},
		// Only a running application's JobManager can say the job is gone:
		// an ended application's final status decides.
		{Observation{AppFound: true, YARNState: "FINISHED", FinalStatus: "SUCCEEDED", FlinkGone: true}, OutcomeFinished, "YARN FINISHED/SUCCEEDED"},
	} {
		got, reason := MapObservation(tc.o)
		if got != tc.want || reason != tc.text {
			t.Errorf("%+v: %s %q, want %s %q", tc.o, got, reason, tc.want, tc.text)
		}
	}
	var names []string
	for o := OutcomeWait; o <= OutcomeGone; o++ {
		names = append(names, o.String())
	}
	if got := strings.Join(names, " "); got != "wait running finished killed failed gone" {
		t.Errorf("outcome names: %s", got)
	}
	if s := Outcome(99).String(); s != "Outcome(99)" {
		t.Errorf("unknown outcome: %s", s)
	}
}

// TestRunEndOf: how a job ended, from what sync saw: Flink's own word
// first, then YARN's final status, and "not known" where neither says.
func TestRunEndOf(t *testing.T) {
	for _, c := range []struct {
		o    Observation
		want model.RunEnd
	}{
		{Observation{AppFound: true, YARNState: "RUNNING", FlinkState: "FINISHED"}, model.EndFinished},
		{Observation{AppFound: true, YARNState: "RUNNING", FlinkState: "CANCELED"}, model.EndCanceled},
		{Observation{AppFound: true, YARNState: "RUNNING", FlinkState: "CANCELLING"}, model.EndCanceled},
		{Observation{AppFound: true, YARNState: "RUNNING", FlinkState: "FAILED"}, model.EndFailed},
		{Observation{AppFound: true, YARNState: "RUNNING", FlinkState: "RUNNING"}, model.EndUnknown},
		{Observation{AppFound: true, YARNState: "RUNNING"}, model.EndUnknown},
		{Observation{AppFound: true, YARNState: "FINISHED", FinalStatus: "SUCCEEDED"}, model.EndFinished},
		{Observation{AppFound: true, YARNState: "FINISHED", FinalStatus: "KILLED"}, model.EndCanceled},
		{Observation{AppFound: true, YARNState: "FINISHED", FinalStatus: "FAILED"}, model.EndFailed},
		{Observation{AppFound: true, YARNState: "FINISHED", FinalStatus: "UNDEFINED"}, model.EndUnknown},
		{Observation{AppFound: true, YARNState: "FINISHED", FinalStatus: "ENDED"}, model.EndUnknown},
		{Observation{AppFound: true, YARNState: "KILLED", FinalStatus: "KILLED"}, model.EndKilled},
		{Observation{AppFound: true, YARNState: "FAILED", FinalStatus: "FAILED"}, model.EndKilled},
		{Observation{AppFound: true, YARNState: "ACCEPTED"}, model.EndUnknown},
		{Observation{AppFound: false}, model.EndUnknown},
	} {
		if got := RunEndOf(c.o); got != c.want {
			t.Errorf("%+v: %s, want %s", c.o, got, c.want)
		}
	}
}
