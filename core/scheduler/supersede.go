package scheduler

import (
	"context"
	"fmt"
	"time"

	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn"
)

// supersededBy reports whether a KILL ended the command while it ran.
func (s *Scheduler) supersededBy(id string) (string, bool) {
	var c model.Command
	err := s.st.View(context.Background(), func(tx store.ReadTx) error {
		var err error
		c, err = tx.Command(id)
		return err
	})
	return c.SupersededBy, err == nil && c.SupersededBy != ""
}

// undoSuperseded runs in the worker of a deploy that a KILL superseded:
// whatever this worker submitted must not outlive the kill, so it looks
// for the application tagged with its command (the submission may still be
// reaching the RM) and kills it, or cancels its fixed Flink job in a
// session cluster. What it did goes to the superseded command's log.
func (x *execution) undoSuperseded(ctx context.Context, by string) {
	if !x.kind.Deploys() {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	var j model.Job
	if err := x.s.st.View(ctx, func(tx store.ReadTx) error {
		var err error
		j, err = tx.Job(x.jobID)
		return err
	}); err != nil {
		x.s.log.Error("undo a superseded deploy", "command", x.id, "err", err)
		return
	}
	cl, err := actingCluster(ctx, x.s, j)
	if err != nil || cl == nil {
		return
	}
	if err := x.s.mayAct(); err != nil {
		// The leader's reconciliation of the command finds what it left.
		x.s.log.Warn("undo a superseded deploy", "command", x.id, "err", err)
		return
	}
	var notes []string
	note := func(format string, args ...any) { notes = append(notes, fmt.Sprintf(format, args...)) }
	if cl.Cfg.Deploy.Mode == "yarn-session" {
		if app, err := cl.RM.Application(ctx, cl.Cfg.Deploy.SessionApp); err == nil && !app.Final() {
			if f, err := cl.Flink(app); err == nil {
				jid := fixedJobID(x.id)
				if st, err := f.JobStatus(ctx, jid); err == nil && !clusters.FlinkTerminal(st) {
					if cerr := f.Cancel(ctx, jid); cerr != nil {
						note("its worker failed to cancel Flink job %s it had submitted to session %s: %v", jid, app.ID, cerr)
					} else {
						note("its worker cancelled Flink job %s it had submitted to session %s", jid, app.ID)
					}
				}
			}
		}
	} else {
		for i := 0; i < 3; i++ {
			apps, err := cl.RM.Applications(ctx, yarn.AppFilter{ApplicationTags: []string{clusters.CmdTag(x.id)}, States: clusters.LiveStates})
			if err == nil {
				for _, a := range apps {
					if !clusters.ClaimOf(a, x.s.storeID, x.jobID, x.id, x.params().AppID).Ours() {
						continue
					}
					if _, kerr := cl.RM.Kill(ctx, a.ID); kerr != nil {
						note("its worker failed to kill application %s it had submitted: %v", a.ID, kerr)
					} else {
						note("its worker killed application %s it had submitted", a.ID)
					}
				}
			}
			if err := sleepCtx(ctx, 2*x.s.opts.Poll); err != nil {
				break
			}
		}
	}
	if len(notes) == 0 {
		note("its worker stopped after %s superseded it; it had started no application", by)
	}
	now := x.s.now()
	var saved model.Command
	err = x.s.st.Update(ctx, func(tx store.Tx) error {
		c, err := tx.Command(x.id)
		if err != nil {
			return err
		}
		for _, n := range notes {
			c.Logf(now, "%s", n)
		}
		saved, err = tx.PutCommand(c)
		return err
	})
	if err != nil {
		x.s.log.Error("undo a superseded deploy", "command", x.id, "err", err)
		return
	}
	x.s.pub.Command(saved)
}
