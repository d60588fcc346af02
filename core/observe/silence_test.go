package observe

import (
	"testing"
	"time"

	"github.com/palink/palink/model"
)

// TestSilenceHoldsMessagesAcrossFirings: a silenced alert owes no webhook
// message until the silence ends; a new firing of the same rule and job
// keeps the silence but not the acknowledgement.
func TestSilenceHoldsMessagesAcrossFirings(t *testing.T) {
	now := alertT0
	a := newTestAlerter(rule(RuleJobFailed, nil))
	hooks := []*hook{{cfg: Webhook{Name: "ops"}}}
	failed := running("orders")
	failed.State = model.StateFailed
	failed.Diagnostics = "boom"
	a.evaluate([]model.Job{failed}, nil, now, time.Minute)
	key := model.AlertKey(RuleJobFailed, failed.ID)
	al := a.alerts[key]
	if al == nil || al.State != model.AlertFiring {
		t.Fatalf("no firing alert: %+v", al)
	}
	al.AckedBy, al.AckedAt = "alice", now
	al.SilencedUntil, al.SilencedBy = now.Add(time.Hour), "bob"
	if owed := a.owed(hooks, now.Add(time.Minute)); len(owed) != 0 {
		t.Errorf("a silenced alert owes %d messages", len(owed))
	}
	// It resolves and fires again within the silence.
	ok := running("orders")
	a.evaluate([]model.Job{ok}, nil, now.Add(2*time.Minute), time.Minute)
	a.evaluate([]model.Job{failed}, nil, now.Add(3*time.Minute), time.Minute)
	al = a.alerts[key]
	if al.State != model.AlertFiring || al.SilencedBy != "bob" || !al.SilencedUntil.Equal(now.Add(time.Hour)) || al.AckedBy != "" {
		t.Errorf("the new firing: %+v", al)
	}
	if owed := a.owed(hooks, now.Add(4*time.Minute)); len(owed) != 0 {
		t.Errorf("the new firing owes %d messages within the silence", len(owed))
	}
	if owed := a.owed(hooks, now.Add(61*time.Minute)); len(owed) != 1 {
		t.Errorf("once the silence ended, %d messages owed, want the firing", len(owed))
	}
}
