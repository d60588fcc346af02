package kit

import (
	"testing"
	"time"

	"github.com/palink/palink/model"
)

func TestHumanOwnersNameAHostNotAnID(t *testing.T) {
	for in, want := range map[string]string{
		"started by ops-1 pid 4242 #9f3a2b":             "started by ops-1 (pid 4242)",
		"lease of ops-1.dc pid 7 #ab12 expired":         "lease of ops-1.dc (pid 7) expired",
		"started by vm:7054:99a337dc":                   "started by vm (pid 7054)",
		"savepoint hdfs:///flink/sp/x/savepoint-7f3a21": "savepoint hdfs:///flink/sp/x/savepoint-7f3a21",
		"submitted application_1732000000000_0042":      "submitted application_1732000000000_0042",
	} {
		if got := HumanOwners(in); got != want {
			t.Errorf("HumanOwners(%q) = %q, want %q", in, got, want)
		}
	}
}

// The RESULT of a command says what its state does not (#12).
func TestCommandResultSaysWhatTheStateDoesNot(t *testing.T) {
	now := time.Date(2026, 3, 14, 9, 12, 3, 0, time.UTC)
	log := func(lines ...string) []model.LogLine {
		var out []model.LogLine
		for _, l := range lines {
			out = append(out, model.LogLine{Time: now, Text: l})
		}
		return out
	}
	for _, tc := range []struct {
		name string
		c    model.Command
		want string
	}{
		{"a success says what it made, not 'succeeded'",
			model.Command{State: model.CmdSucceeded, Log: log("started by ops-1 pid 1 #ab", "savepoint hdfs:///sp/1", "succeeded")},
			"savepoint hdfs:///sp/1"},
		{"a success with nothing to say says how long it took",
			model.Command{State: model.CmdSucceeded, StartedAt: now.Add(-3 * time.Second), EndedAt: now, Log: log("started by ops-1 pid 1 #ab", "succeeded")},
			"done in 3.0s"},
		{"a failure says why, not 'failed'",
			model.Command{State: model.CmdFailed, Error: "jobmanager unavailable\nstack", Log: log("failed: jobmanager unavailable")},
			"jobmanager unavailable …"},
		{"one under way says where it runs, as a host",
			model.Command{State: model.CmdDoing, LeaseOwner: "ops-1 pid 4242 #9f3a", Log: log("started by ops-1 pid 4242 #9f3a")},
			"running on ops-1 (pid 4242)"},
		{"one under way says its last step",
			model.Command{State: model.CmdDoing, LeaseOwner: "ops-1 pid 4242 #9f3a", Log: log("started by ops-1 pid 4242 #9f3a", "killing YARN application application_1_2")},
			"killing YARN application application_1_2"},
		{"one that waits says for what",
			model.Command{State: model.CmdUndo, CreatedAt: now.Add(-12 * time.Second)},
			"waiting for a palink to start it (queued 12s)"},
	} {
		if got := CommandResult(tc.c, now); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestStampIsAbsolute(t *testing.T) {
	now := time.Date(2026, 3, 14, 9, 12, 3, 0, time.UTC)
	for t0, want := range map[time.Time]string{
		now.Add(-time.Minute):    "09:11:03",
		now.Add(-76 * time.Hour): "Mar 11 05:12:03",
		now.AddDate(-1, 0, 0):    "2025-03-14 09:12",
		{}:                       "-",
	} {
		if got := Stamp(now, t0); got != want {
			t.Errorf("Stamp(%v) = %q, want %q", t0, got, want)
		}
	}
}
