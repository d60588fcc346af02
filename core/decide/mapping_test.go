package decide

import (
	"strings"
	"testing"
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
