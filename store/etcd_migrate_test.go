package store

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palink/palink/internal/etcdtest"
	"github.com/palink/palink/model"
)

// TestMigrateToEtcdAndBack: the schema-7 fixture goes into etcd and back
// into a file; each copy holds what the fixture holds, through the
// record API, with the store's id and its sequences: the next command,
// spec, event and audit entry take up the numbering where it was.
func TestMigrateToEtcdAndBack(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	dir := t.TempDir()
	fixture := filepath.Join("testdata", fmt.Sprintf("store-v%d.db", SchemaVersion))
	js, err := os.ReadFile(strings.TrimSuffix(fixture, ".db") + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var want storeDump
	if err := json.Unmarshal(js, &want); err != nil {
		t.Fatal(err)
	}
	id := want.StoreID
	want.StoreID = ""
	src := filepath.Join(dir, "palink.db")
	copyFile(t, fixture, src)

	url := freshURL(c)
	rep, err := Migrate(context.Background(), src, url, Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Records < 50 || rep.Sequences < 10 {
		t.Errorf("migrated %d records and %d sequences: too few for the fixture", rep.Records, rep.Sequences)
	}
	onEtcd := openEtcdT(t, url, Options{})
	if onEtcd.ID() != id {
		t.Errorf("store id on etcd %s, the file's %s", onEtcd.ID(), id)
	}
	sameDump(t, "the store on etcd", dump(t, onEtcd), want)
	next := func(s Store) string {
		var out string
		update(t, s, func(tx Tx) error {
			cmd, err := tx.PutCommand(sampleCommand("j-003", model.CmdSubmit, model.CmdUndo))
			if err != nil {
				return err
			}
			spec, err := tx.AddSpec(model.Spec{JobID: "j-003", CreatedAt: t0})
			if err != nil {
				return err
			}
			ev, err := tx.AppendEvent(model.Event{JobID: "j-003", To: model.StateRunning})
			if err != nil {
				return err
			}
			a, err := tx.AppendAudit(model.AuditEntry{Time: t0, User: "ops", Action: "x"})
			out = fmt.Sprintf("command #%d, spec v%d, event #%d, audit #%d", cmd.Seq, spec.Version, ev.Seq, a.Seq)
			return err
		})
		return out
	}
	fileNext := func() string {
		p := filepath.Join(t.TempDir(), "palink.db")
		copyFile(t, fixture, p)
		s := openT(t, p, Options{NoSync: true})
		defer s.Close()
		return next(s)
	}()
	if got := next(onEtcd); got != fileNext {
		t.Errorf("on etcd the next records are %s, in the file %s", got, fileNext)
	}

	back := filepath.Join(dir, "back.db")
	rep, err = Migrate(context.Background(), url, back, Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Revision == 0 {
		t.Error("a migration from etcd names no revision")
	}
	s := openT(t, back, Options{NoSync: true})
	if s.ID() != id {
		t.Errorf("store id back in a file %s, want %s", s.ID(), id)
	}
	if err := s.Check(context.Background()); err != nil {
		t.Errorf("the file written from etcd: %v", err)
	}
	sameDump(t, "back in a file", dump(t, s), dump(t, onEtcd))
}

// TestMigrateRefusesAStoreInPlace: a destination that holds a store is
// refused, untouched, unless forced; the same store is refused always.
func TestMigrateRefusesAStoreInPlace(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	ctx := context.Background()
	dir := t.TempDir()
	src := filepath.Join(dir, "palink.db")
	seededStore(t, src)

	url := freshURL(c)
	update(t, openEtcdT(t, url, Options{}), func(tx Tx) error { return tx.CreateJob(sampleJob("theirs", "theirs")) })
	_, err := Migrate(ctx, src, url, Options{}, false)
	if err == nil || !strings.Contains(err.Error(), "holds a store already") || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("migrate onto a store = %v, want a refusal", err)
	}
	view(t, openEtcdT(t, url, Options{}), func(tx ReadTx) error { _, err := tx.Job("theirs"); return err })
	if _, err := Migrate(ctx, src, url, Options{}, true); err != nil {
		t.Fatalf("forced: %v", err)
	}
	view(t, openEtcdT(t, url, Options{}), func(tx ReadTx) error {
		if _, err := tx.Job("theirs"); err == nil {
			t.Error("a forced migration kept the records it replaced")
		}
		return nil
	})

	taken := filepath.Join(dir, "taken.db")
	seededStore(t, taken)
	_, err = Migrate(ctx, url, taken, Options{}, false)
	if err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("migrate onto an existing file = %v, want a refusal", err)
	}
	if _, err := Migrate(ctx, url, url+"/", Options{}, true); err == nil || !strings.Contains(err.Error(), "the same store") {
		t.Errorf("migrate a store onto itself = %v", err)
	}
}

// TestMigrateStopsAtALockedFile: a file store in use by a writer is not
// copied from under it.
func TestMigrateStopsAtALockedFile(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	src := filepath.Join(t.TempDir(), "palink.db")
	openT(t, src, Options{NoSync: true, LockTimeout: -1})
	_, err := Migrate(context.Background(), src, freshURL(c), Options{LockTimeout: -1}, false)
	wantErr(t, err, ErrLocked, src, "stop the palink that uses it first")
}

// TestCompareNamesEveryDifference: the comparison behind a migration
// finds a record that differs, one missing, one extra and a sequence
// behind, and names each.
func TestCompareNamesEveryDifference(t *testing.T) {
	want, got := digest{}, digest{}
	for _, x := range []rawEntry{
		{b: in(bucketJobs), key: []byte("j1"), value: []byte(`{"id":"j1"}`)},
		{b: in(bucketJobs), key: []byte("j2"), value: []byte(`{"id":"j2"}`)},
		{b: in(bucketEvents, "j1"), key: u64Key(3), value: []byte(`{}`)},
		{b: in(bucketCommands), seq: 42},
	} {
		_ = want.add(x)
	}
	for _, x := range []rawEntry{
		{b: in(bucketJobs), key: []byte("j1"), value: []byte(`{"id":"j1","name":"changed"}`)},
		{b: in(bucketEvents, "j1"), key: u64Key(3), value: []byte(`{}`)},
		{b: in(bucketCommands), seq: 41},
		{b: in(bucketUDFs), key: []byte("mask"), value: []byte(`{}`)},
	} {
		_ = got.add(x)
	}
	diffs := strings.Join(compareDigests(want, got, "A", "B"), "\n")
	for _, line := range []string{
		`commands (sequence): differs between A and B`,
		`jobs "j1": differs between A and B`,
		`jobs "j2": missing in B`,
		`udfs "mask": only in B`,
	} {
		if !strings.Contains(diffs, line) {
			t.Errorf("differences\n%s\nlack %q", diffs, line)
		}
	}
	if strings.Contains(diffs, "events") {
		t.Errorf("an equal record reported:\n%s", diffs)
	}
}
