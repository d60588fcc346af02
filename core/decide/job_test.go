package decide

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/model"
)

// TestStepJobEveryPair spells out, for every (state, event) pair, what must
// happen: a new state, "=" for a legal no-change, or "x" for illegal.
func TestStepJobEveryPair(t *testing.T) {
	// columns: deploy deploy-ok deploy-failed sync-running sync-finished sync-killed sync-failed paused killed adopt
	matrix := map[model.JobState]string{
		model.StateNone:            "DEPLOYING x x x x x x x x DEPLOY_SUCCEEDED",
		model.StateDeploying:       "x DEPLOY_SUCCEEDED DEPLOY_FAILED x x x x x KILLED x",
		model.StateDeploySucceeded: "x x x RUNNING FINISHED KILLED FAILED x KILLED x",
		model.StateDeployFailed:    "DEPLOYING x x x x x x x x DEPLOY_SUCCEEDED",
		model.StateRunning:         "x x x = FINISHED KILLED FAILED FINISHED KILLED x",
		model.StateFinished:        "DEPLOYING x x x = x x = x DEPLOY_SUCCEEDED",
		model.StateKilled:          "DEPLOYING x x x x = x x = DEPLOY_SUCCEEDED",
		model.StateFailed:          "DEPLOYING x x x x x = x x DEPLOY_SUCCEEDED",
	}
	events := JobEvents()
	for _, s := range model.JobStates() {
		row, ok := matrix[s]
		if !ok {
			t.Fatalf("matrix misses state %s", s)
		}
		want := strings.Fields(row)
		if len(want) != len(events) {
			t.Fatalf("row %s has %d cells, want %d", s, len(want), len(events))
		}
		for i, ev := range events {
			t.Run(s.String()+"/"+ev.String(), func(t *testing.T) {
				got, changed, err := StepJob(s, ev)
				switch want[i] {
				case "x":
					var ill *IllegalTransitionError
					if !errors.As(err, &ill) || got != s || changed {
						t.Errorf("StepJob(%s, %s) = %s, %v, %v; want illegal", s, ev, got, changed, err)
					}
				case "=":
					if err != nil || changed || got != s {
						t.Errorf("StepJob(%s, %s) = %s, %v, %v; want unchanged", s, ev, got, changed, err)
					}
				default:
					if err != nil || !changed || got.String() != want[i] {
						t.Errorf("StepJob(%s, %s) = %s, %v, %v; want %s", s, ev, got, changed, err, want[i])
					}
				}
			})
		}
	}
}

func TestCanActEveryStateAndKind(t *testing.T) {
	// "ok" or a fragment of the refusal.
	kinds := []model.CommandKind{model.CmdSubmit, model.CmdRestart, model.CmdResubmit, model.CmdPause, model.CmdKill, model.CmdSavepoint}
	matrix := map[model.JobState][]string{
		model.StateNone:            {"ok", "never deployed", "never deployed", "not RUNNING", "nothing runs", "not RUNNING"},
		model.StateDeploying:       {"already DEPLOYING", "only a FINISHED", "pause or kill", "not RUNNING", "ok", "not RUNNING"},
		model.StateDeploySucceeded: {"already", "only a FINISHED", "pause or kill", "not RUNNING", "ok", "not RUNNING"},
		model.StateDeployFailed:    {"ok", "only a FINISHED", "ok", "not RUNNING", "nothing runs", "not RUNNING"},
		model.StateRunning:         {"already RUNNING", "only a FINISHED", "pause or kill", "ok", "ok", "ok"},
		model.StateFinished:        {"use restart", "ok", "ok", "not RUNNING", "nothing runs", "not RUNNING"},
		model.StateKilled:          {"use restart", "use resubmit", "ok", "not RUNNING", "nothing runs", "not RUNNING"},
		model.StateFailed:          {"use restart", "ok", "ok", "not RUNNING", "nothing runs", "not RUNNING"},
	}
	for _, s := range model.JobStates() {
		for i, k := range kinds {
			err := CanAct(model.Job{Name: "orders", State: s}, k, nil)
			want := matrix[s][i]
			if want == "ok" {
				if err != nil {
					t.Errorf("%s on %s: refused: %v", k, s, err)
				}
				continue
			}
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s on %s: got %v, want a refusal containing %q", k, s, err, want)
			}
		}
	}
	// One command at a time, except that a kill supersedes anything but a kill.
	for _, tc := range []struct {
		state   model.JobState
		pending model.CommandKind
		kind    model.CommandKind
		want    string
	}{
		{model.StateRunning, model.CmdPause, model.CmdSavepoint, "PAUSE #41 is still DOING"},
		{model.StateRunning, model.CmdSavepoint, model.CmdPause, "SAVEPOINT #41 is still DOING"},
		{model.StateDeploying, model.CmdSubmit, model.CmdResubmit, "SUBMIT #41 is still DOING"},
		{model.StateRunning, model.CmdKill, model.CmdKill, "KILL #41 is still DOING"},
		{model.StateRunning, model.CmdPause, model.CmdKill, "ok"},
		{model.StateDeploying, model.CmdSubmit, model.CmdKill, "ok"},
		{model.StateDeploying, model.CmdRestart, model.CmdKill, "ok"},
	} {
		pending := &model.Command{Kind: tc.pending, Seq: 41, State: model.CmdDoing}
		err := CanAct(model.Job{Name: "orders", State: tc.state}, tc.kind, pending)
		if tc.want == "ok" {
			if err != nil || !Supersedes(tc.kind, pending) {
				t.Errorf("%s while %s is pending on a %s job: %v; want it to supersede", tc.kind, tc.pending, tc.state, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s while %s is pending: %v, want %q", tc.kind, tc.pending, err, tc.want)
		}
	}
}

func TestStepCommandEveryPair(t *testing.T) {
	now := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	lease := 30 * time.Second
	cases := []struct {
		name    string
		from    model.CommandState
		leaseAt time.Time
		ev      CommandEvent
		want    model.CommandState // 0: illegal
	}{
		{"undo/start", model.CmdUndo, time.Time{}, CmdEvStart, model.CmdDoing},
		{"undo/reclaim", model.CmdUndo, time.Time{}, CmdEvReclaim, 0},
		{"undo/succeed", model.CmdUndo, time.Time{}, CmdEvSucceed, 0},
		{"undo/fail", model.CmdUndo, time.Time{}, CmdEvFail, 0},
		{"doing/start", model.CmdDoing, now.Add(-time.Second), CmdEvStart, 0},
		{"doing/reclaim expired", model.CmdDoing, now.Add(-time.Second), CmdEvReclaim, model.CmdDoing},
		{"doing/reclaim live lease", model.CmdDoing, now.Add(time.Second), CmdEvReclaim, 0},
		{"doing/succeed", model.CmdDoing, now.Add(time.Second), CmdEvSucceed, model.CmdSucceeded},
		{"doing/fail", model.CmdDoing, now.Add(time.Second), CmdEvFail, model.CmdFailed},
		{"succeeded/start", model.CmdSucceeded, time.Time{}, CmdEvStart, 0},
		{"succeeded/reclaim", model.CmdSucceeded, time.Time{}, CmdEvReclaim, 0},
		{"succeeded/succeed", model.CmdSucceeded, time.Time{}, CmdEvSucceed, 0},
		{"succeeded/fail", model.CmdSucceeded, time.Time{}, CmdEvFail, 0},
		{"failed/start", model.CmdFailed, time.Time{}, CmdEvStart, 0},
		{"failed/reclaim", model.CmdFailed, time.Time{}, CmdEvReclaim, 0},
		{"failed/succeed", model.CmdFailed, time.Time{}, CmdEvSucceed, 0},
		{"failed/fail", model.CmdFailed, time.Time{}, CmdEvFail, 0},
		{"undo/supersede", model.CmdUndo, time.Time{}, CmdEvSupersede, model.CmdFailed},
		{"doing/supersede live lease", model.CmdDoing, now.Add(time.Second), CmdEvSupersede, model.CmdFailed},
		{"doing/supersede expired", model.CmdDoing, now.Add(-time.Second), CmdEvSupersede, model.CmdFailed},
		{"succeeded/supersede", model.CmdSucceeded, time.Time{}, CmdEvSupersede, 0},
		{"failed/supersede", model.CmdFailed, time.Time{}, CmdEvSupersede, 0},
		{"doing/uncertain", model.CmdDoing, now.Add(time.Second), CmdEvUncertain, model.CmdUnknown},
		{"undo/uncertain", model.CmdUndo, time.Time{}, CmdEvUncertain, 0},
		{"succeeded/uncertain", model.CmdSucceeded, time.Time{}, CmdEvUncertain, 0},
		{"failed/uncertain", model.CmdFailed, time.Time{}, CmdEvUncertain, 0},
		{"unknown/uncertain", model.CmdUnknown, now.Add(time.Second), CmdEvUncertain, 0},
		{"unknown/start", model.CmdUnknown, now.Add(-time.Second), CmdEvStart, 0},
		{"unknown/reclaim expired", model.CmdUnknown, now.Add(-time.Second), CmdEvReclaim, model.CmdUnknown},
		{"unknown/reclaim live lease", model.CmdUnknown, now.Add(time.Second), CmdEvReclaim, 0},
		{"unknown/succeed", model.CmdUnknown, now.Add(time.Second), CmdEvSucceed, model.CmdSucceeded},
		{"unknown/fail", model.CmdUnknown, now.Add(time.Second), CmdEvFail, model.CmdFailed},
		{"unknown/supersede", model.CmdUnknown, now.Add(time.Second), CmdEvSupersede, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			started := now.Add(-time.Hour)
			c := model.Command{Kind: model.CmdSubmit, Seq: 7, State: tc.from, LeaseUntil: tc.leaseAt, Attempts: 1, StartedAt: started}
			if tc.from == model.CmdDoing || tc.from == model.CmdUnknown {
				c.LeaseOwner = "w1"
			}
			got, err := StepCommand(c, tc.ev, "w2", lease, now)
			if tc.want == 0 {
				if err == nil {
					t.Fatalf("want illegal, got %s", got.State)
				}
				if got.State != tc.from {
					t.Errorf("illegal step changed state to %s", got.State)
				}
				return
			}
			if err != nil || got.State != tc.want {
				t.Fatalf("got %s, %v; want %s", got.State, err, tc.want)
			}
			switch tc.ev {
			case CmdEvUncertain:
				// Its worker goes on, reconciling under the same lease.
				if got.LeaseOwner != "w1" || !got.LeaseUntil.Equal(tc.leaseAt) || !got.EndedAt.IsZero() || got.Attempts != 1 {
					t.Errorf("an uncertain command lost its worker or ended: %+v", got)
				}
			case CmdEvStart, CmdEvReclaim:
				if got.LeaseOwner != "w2" || !got.LeaseUntil.Equal(now.Add(lease)) || got.Attempts != 2 {
					t.Errorf("lease not taken: %+v", got)
				}
				// A start is when the command started; a reclaim keeps it.
				if want := map[CommandEvent]time.Time{CmdEvStart: now, CmdEvReclaim: started}[tc.ev]; !got.StartedAt.Equal(want) {
					t.Errorf("started at %s, want %s", got.StartedAt, want)
				}
			default:
				// An ended command holds no lease, whoever held it.
				if !got.EndedAt.Equal(now) || got.LeaseOwner != "" || !got.LeaseUntil.IsZero() {
					t.Errorf("end not recorded: %+v", got)
				}
			}
		})
	}
	// Every CommandEvent appears in the table above.
	seen := map[CommandEvent]bool{}
	for _, tc := range cases {
		seen[tc.ev] = true
	}
	for _, ev := range CommandEvents() {
		if !seen[ev] {
			t.Errorf("event %s not covered", ev)
		}
	}
}

// TestRefusalsSayTheActionAndTheJob: a refusal reads "pause orders: …", the
// action in lower case, for people.
func TestRefusalsSayTheActionAndTheJob(t *testing.T) {
	for _, tc := range []struct {
		kind  model.CommandKind
		state model.JobState
		want  string
	}{
		{model.CmdPause, model.StateFinished, "pause orders: job is FINISHED, not RUNNING"},
		{model.CmdSavepoint, model.StateKilled, "savepoint orders: job is KILLED, not RUNNING"},
		{model.CmdKill, model.StateFinished, "kill orders: job is FINISHED; nothing runs to kill"},
		{model.CmdRestart, model.StateKilled, "restart orders: after a kill, choose a restore point: use resubmit"},
		{model.CmdResubmit, model.StateRunning, "resubmit orders: job is RUNNING; pause or kill it first"},
		{model.CmdSubmit, model.StateRunning, "submit orders: job is already RUNNING"},
	} {
		err := CanAct(model.Job{Name: "orders", State: tc.state}, tc.kind, nil)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s on %s: %v, want %q", tc.kind, tc.state, err, tc.want)
		}
	}
}

// TestAnUnknownCommandBlocksAllButAKill: while palink finds out what an
// UNKNOWN command did, nothing but a kill may act on its job, and the kill
// does not write it off (no supersede: its savepoint may exist).
func TestAnUnknownCommandBlocksAllButAKill(t *testing.T) {
	j := model.Job{Name: "orders", State: model.StateRunning}
	for _, pk := range []model.CommandKind{model.CmdPause, model.CmdSavepoint, model.CmdKill} {
		pending := &model.Command{Kind: pk, Seq: 41, State: model.CmdUnknown}
		for _, k := range []model.CommandKind{model.CmdPause, model.CmdSavepoint, model.CmdKill} {
			err := CanAct(j, k, pending)
			if k == model.CmdKill && pk != model.CmdKill {
				if err != nil || Supersedes(k, pending) {
					t.Errorf("KILL while %s is UNKNOWN: %v, supersedes %v; want allowed alongside it", pk, err, Supersedes(k, pending))
				}
				continue
			}
			if err == nil || !strings.Contains(err.Error(), pk.String()+" #41 is UNKNOWN") {
				t.Errorf("%s while %s is UNKNOWN: %v", k, pk, err)
			}
		}
	}
}

// TestAKillDoesNotSupersedeAnEndedCommand: only an unfinished command is
// superseded; one that already ended is history.
func TestAKillDoesNotSupersedeAnEndedCommand(t *testing.T) {
	for _, st := range []model.CommandState{model.CmdSucceeded, model.CmdFailed} {
		if Supersedes(model.CmdKill, &model.Command{Kind: model.CmdPause, State: st}) {
			t.Errorf("a KILL supersedes a %s PAUSE", st)
		}
	}
	for _, st := range []model.CommandState{model.CmdUndo, model.CmdDoing} {
		if !Supersedes(model.CmdKill, &model.Command{Kind: model.CmdPause, State: st}) {
			t.Errorf("a KILL does not supersede a %s PAUSE", st)
		}
	}
	if Supersedes(model.CmdKill, nil) || Supersedes(model.CmdPause, &model.Command{Kind: model.CmdSubmit, State: model.CmdDoing}) {
		t.Error("only a KILL supersedes, and only a pending command")
	}
}

// TestEventNames: timelines and errors name events in words; an unknown
// value says its number rather than passing for a known one.
func TestEventNames(t *testing.T) {
	want := "deploy deploy-ok deploy-failed sync-running sync-finished sync-killed sync-failed paused killed adopt"
	var got []string
	for _, ev := range JobEvents() {
		got = append(got, ev.String())
	}
	if strings.Join(got, " ") != want {
		t.Errorf("job events: %s", strings.Join(got, " "))
	}
	got = nil
	for _, ev := range CommandEvents() {
		got = append(got, ev.String())
	}
	if strings.Join(got, " ") != "start reclaim succeed fail supersede uncertain" {
		t.Errorf("command events: %s", strings.Join(got, " "))
	}
	if s := JobEvent(99).String(); s != "JobEvent(99)" {
		t.Errorf("unknown job event: %s", s)
	}
	if s := CommandEvent(99).String(); s != "CommandEvent(99)" {
		t.Errorf("unknown command event: %s", s)
	}
	_, _, err := StepJob(model.StateRunning, EvDeployOK)
	if err == nil || err.Error() != "illegal job transition: deploy-ok on RUNNING" {
		t.Errorf("illegal transition: %v", err)
	}
}

// TestARefusalIsErrRefused: a refusal travels as model.ErrRefused (the
// agent's socket carries it as a code), and is no other error.
func TestARefusalIsErrRefused(t *testing.T) {
	err := CanAct(model.Job{Name: "orders", State: model.StateFinished}, model.CmdPause, nil)
	if !errors.Is(err, model.ErrRefused) {
		t.Errorf("%v is not model.ErrRefused", err)
	}
	if errors.Is(err, errors.New("refused")) || errors.Is(err, model.ErrNotFound) {
		t.Errorf("%v matches an error other than model.ErrRefused", err)
	}
}

// TestAcceptEvent: accepting a deploy moves the job by EvDeploy; the other
// commands move it only when they run.
func TestAcceptEvent(t *testing.T) {
	for k, want := range map[model.CommandKind]bool{model.CmdSubmit: true, model.CmdRestart: true, model.CmdResubmit: true,
		model.CmdPause: false, model.CmdSavepoint: false, model.CmdKill: false} {
		ev, ok := AcceptEvent(k)
		if ok != want || ok && ev != EvDeploy {
			t.Errorf("%s: %s, %v; want EvDeploy: %v", k, ev, ok, want)
		}
	}
}
