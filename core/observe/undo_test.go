package observe

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// TestUndoTakesBackAnAckOrASilence: the issuer of an acknowledgement or a
// silence takes it back within api.AlertUndoWindow and the alert is again
// what it was before (an earlier silence of someone else's included);
// nobody else can, nor can anyone once the window passed or the alert was
// changed since. So whether the alert lives in memory (this process judges
// the rules) or only in the store.
func TestUndoTakesBackAnAckOrASilence(t *testing.T) {
	for _, inMemory := range []bool{true, false} {
		name := "in the store"
		if inMemory {
			name = "in memory"
		}
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			st, err := store.Open(filepath.Join(t.TempDir(), "palink.db"), store.Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			now := time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)
			earlier := now.Add(90 * time.Minute) // bob's silence, set before
			al := model.Alert{Rule: "lag", Kind: "lag", Severity: "warning", JobID: "j1", JobName: "orders", State: model.AlertFiring,
				Since: now.Add(-time.Hour), Value: "lag 2M", SilencedUntil: earlier, SilencedBy: "bob"}
			err = st.Update(ctx, func(tx store.Tx) error {
				if err := tx.CreateJob(model.Job{ID: "j1", Name: "orders", Kind: model.KindSQL, Cluster: "c", SpecVersion: 1, CreatedAt: now}); err != nil {
					return err
				}
				return tx.PutAlert(al)
			})
			if err != nil {
				t.Fatal(err)
			}
			o := New(Options{Store: st, Now: func() time.Time { return now }, Publisher: &chanPublisher{ch: make(chan api.Change, 100)}})
			if inMemory {
				o.al.load([]model.Alert{al})
			}
			act := func(a api.AlertAction) (model.Alert, error) {
				a.Rule, a.JobRef = "lag", "orders"
				return o.ActOnAlert(ctx, a)
			}
			refused := func(what string, a api.AlertAction, why string) {
				t.Helper()
				if _, err := act(a); !errors.Is(err, model.ErrRefused) || !strings.Contains(err.Error(), why) {
					t.Errorf("%s: %v, want refused: %s", what, err, why)
				}
			}

			// alice acknowledges; bob cannot take it back for her; she can.
			if got, err := act(api.AlertAction{Ack: true, Issuer: "alice"}); err != nil || got.AckedBy != "alice" {
				t.Fatalf("ack: %+v %v", got, err)
			}
			now = now.Add(5 * time.Second)
			refused("bob undoes alice's ack", api.AlertAction{Undo: true, Issuer: "bob"}, "nothing to undo")
			got, err := act(api.AlertAction{Undo: true, Issuer: "alice"})
			if err != nil || got.AckedBy != "" || !got.AckedAt.IsZero() || got.SilencedBy != "bob" || !got.SilencedUntil.Equal(earlier) {
				t.Fatalf("alice undoes her ack: %+v %v", got, err)
			}
			refused("a second undo", api.AlertAction{Undo: true, Issuer: "alice"}, "nothing to undo")

			// alice silences for 2h over bob's silence; her undo brings bob's back.
			if got, err := act(api.AlertAction{Silence: 2 * time.Hour, Issuer: "alice"}); err != nil || got.SilencedBy != "alice" {
				t.Fatalf("silence: %+v %v", got, err)
			}
			got, err = act(api.AlertAction{Undo: true, Issuer: "alice"})
			if err != nil || got.SilencedBy != "bob" || !got.SilencedUntil.Equal(earlier) || got.AckedBy != "" {
				t.Fatalf("alice undoes her silence: %+v %v", got, err)
			}
			stored, err := o.Alerts(ctx, api.AlertFilter{})
			if err != nil || len(stored) != 1 || stored[0].SilencedBy != "bob" || !stored[0].SilencedUntil.Equal(earlier) {
				t.Fatalf("stored after the undo: %+v %v", stored, err)
			}

			// Once the window (and the trip's grace) passed, it stays.
			if _, err := act(api.AlertAction{Ack: true, Issuer: "alice"}); err != nil {
				t.Fatal(err)
			}
			now = now.Add(api.AlertUndoWindow + undoGrace + time.Second)
			refused("an undo too late", api.AlertAction{Undo: true, Issuer: "alice"}, "nothing to undo")

			// Changed since by someone else: the undo would wipe their change.
			if _, err := act(api.AlertAction{Silence: time.Hour, Issuer: "alice"}); err != nil {
				t.Fatal(err)
			}
			if _, err := act(api.AlertAction{Unsilence: true, Issuer: "bob"}); err != nil {
				t.Fatal(err)
			}
			refused("an undo after bob lifted the silence", api.AlertAction{Undo: true, Issuer: "alice"}, "changed since")
		})
	}
}
