package store

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"testing"

	"github.com/palink/palink/internal/etcdtest"
	"github.com/palink/palink/model"
)

// contractTeams: a team is kept whole, by name, across a reopen; a team
// the store cannot keep is refused with ErrInvalid.
func contractTeams(t *testing.T, open opener) {
	{
		s := open(t)
		pay := model.Team{Name: "payments", Owns: []model.Holding{{Cluster: "prod"}, {Cluster: "shared", Queue: "pay"}},
			Members:   []model.Member{{User: "ana", Role: model.Admin, GrantedBy: "root", GrantedAt: t0}, {User: "bo", Role: model.Viewer}},
			CreatedAt: t0, CreatedBy: "root"}
		ads := model.Team{Name: "ads", Owns: []model.Holding{{Cluster: "shared", Queue: "ads"}}}
		update(t, s, func(tx Tx) error {
			if err := tx.PutTeam(pay); err != nil {
				return err
			}
			return tx.PutTeam(ads)
		})
		for _, bad := range []model.Team{
			{Name: "has space"},
			{Name: "x", Owns: []model.Holding{{Queue: "q"}}},
			{Name: "x", Members: []model.Member{{User: "ana", Role: model.NoRole}}},
			{Name: "x", Members: []model.Member{{User: "ana", Role: model.Viewer}, {User: "ana", Role: model.Admin}}},
			{Name: "x", Members: []model.Member{{User: "a b", Role: model.Viewer}}},
		} {
			err := s.Update(context.Background(), func(tx Tx) error { return tx.PutTeam(bad) })
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("PutTeam(%+v) = %v, want ErrInvalid", bad, err)
			}
		}
		view(t, s, func(tx ReadTx) error {
			got, err := tx.Team("payments")
			if err != nil {
				return err
			}
			if got.Name != pay.Name || !slices.Equal(got.Owns, pay.Owns) || !slices.Equal(got.Members, pay.Members) || !got.CreatedAt.Equal(t0) {
				t.Errorf("Team(payments) = %+v, want %+v", got, pay)
			}
			all, err := tx.Teams()
			if err != nil {
				return err
			}
			var names []string
			for _, tm := range all {
				names = append(names, tm.Name)
			}
			if !slices.Equal(names, []string{"ads", "payments"}) {
				t.Errorf("Teams() = %v, want ads and payments, by name", names)
			}
			if _, err := tx.Team("x"); !errors.Is(err, ErrNotFound) {
				t.Errorf("Team(x) = %v, want ErrNotFound", err)
			}
			return nil
		})
		s.Close()
	}
	s := open(t)
	defer s.Close()
	view(t, s, func(tx ReadTx) error {
		got, err := tx.Team("payments")
		if err == nil && len(got.Members) != 2 {
			t.Errorf("after a reopen, payments has %d members, want 2", len(got.Members))
		}
		return err
	})
}

// TestEtcdMigratesSchema7: a store on etcd written at schema 7 (before the
// teams) is brought to today's schema when a palink opens it for writing,
// keeps its records, and takes teams; a read-only palink refuses it, and
// a palink that had it open at schema 7 may no longer write.
func TestEtcdMigratesSchema7(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	cli := rawClient(t, c)
	ctx := context.Background()
	url := freshURL(c)
	old := openEtcdT(t, url, Options{})
	update(t, old, func(tx Tx) error { return tx.CreateJob(sampleJob("j1", "kept")) })
	u, _ := ParseEtcdURL(url)
	if _, err := cli.Put(ctx, u.Prefix+"meta/version", "7"); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenEtcd(url, Options{ReadOnly: true}); !errors.Is(err, ErrSchema) {
		t.Fatalf("read-only open of a schema-7 store: %v, want ErrSchema", err)
	}
	s := openEtcdT(t, url, Options{})
	got, err := cli.Get(ctx, u.Prefix+"meta/version")
	if err != nil || len(got.Kvs) != 1 || string(got.Kvs[0].Value) != strconv.Itoa(SchemaVersion) {
		t.Fatalf("schema version after the migration: %v %v, want %d", got, err, SchemaVersion)
	}
	update(t, s, func(tx Tx) error {
		if _, err := tx.Job("j1"); err != nil {
			return err
		}
		return tx.PutTeam(model.Team{Name: "t", Owns: []model.Holding{{Cluster: "c"}}})
	})
	err = old.Update(ctx, func(tx Tx) error { return tx.CreateJob(sampleJob("j2", "late")) })
	if !errors.Is(err, ErrReplaced) {
		t.Errorf("a palink that opened the store at schema 7 wrote after the migration: %v", err)
	}
}
