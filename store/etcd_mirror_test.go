package store

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/palink/palink/internal/etcdtest"
	"github.com/palink/palink/model"
)

// TestMirrorAnActionIsOneRequest: what an action does — read the job, its
// pending commands through the state index, its restore points and the
// sequences, then record a command, an event and an audit entry — sends
// etcd one request from a mirrored store, its commit; the same on a store
// without a mirror sends a request per read.
func TestMirrorAnActionIsOneRequest(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	url := freshURL(c)
	plain := openEtcdT(t, url, Options{})
	for i := range 20 {
		update(t, plain, func(tx Tx) error {
			id := fmt.Sprintf("j%02d", i)
			if err := tx.CreateJob(sampleJob(id, "job-"+id)); err != nil {
				return err
			}
			_, err := tx.PutCommand(sampleCommand(id, model.CmdSavepoint, model.CmdSucceeded))
			return err
		})
	}
	mirrored := openEtcdT(t, url, Options{Etcd: EtcdOptions{Mirror: true}})
	action := func(s *Etcd, id string) {
		t.Helper()
		update(t, s, func(tx Tx) error {
			j, err := tx.Job(id)
			if err != nil {
				return err
			}
			if _, err := tx.Commands(CommandFilter{States: []model.CommandState{model.CmdUndo, model.CmdDoing, model.CmdUnknown}, JobID: j.ID}); err != nil {
				return err
			}
			if _, err := tx.RestorePoints(j.ID); err != nil {
				return err
			}
			if _, err := tx.PutCommand(sampleCommand(j.ID, model.CmdSavepoint, model.CmdUndo)); err != nil {
				return err
			}
			if _, err := tx.AppendEvent(model.Event{JobID: j.ID, Time: t0, From: model.StateRunning, To: model.StateRunning}); err != nil {
				return err
			}
			_, err = tx.AppendAudit(model.AuditEntry{Time: t0, User: "ops", Action: "savepoint", JobID: j.ID, Outcome: "accepted"})
			return err
		})
	}
	requests := func(s *Etcd, id string) int64 {
		before := s.Stats().Requests
		action(s, id)
		return s.Stats().Requests - before
	}
	if n := requests(plain, "j01"); n < 5 {
		t.Errorf("the action on a store without a mirror sent %d requests; the test no longer measures reads", n)
	}
	// The other palink's write reaches the mirror by its watch; an
	// action on a copy not yet current would fail its commit and read
	// again from etcd (TestMirrorSeesOtherPalinks).
	waitFor(t, func() bool {
		var n int
		view(t, mirrored, func(tx ReadTx) error {
			cs, err := tx.Commands(CommandFilter{JobID: "j01", States: []model.CommandState{model.CmdUndo}})
			n = len(cs)
			return err
		})
		return n == 1
	}, "the mirror holding the other palink's command")
	for _, id := range []string{"j02", "j03", "j02"} {
		if n := requests(mirrored, id); n != 1 {
			t.Errorf("the action on %s from a mirrored store sent %d requests, want 1 (its commit)", id, n)
		}
	}
	// A read of what the action wrote, right after, is served too, and
	// sees it (this process's last commit is in the snapshot).
	before := mirrored.Stats()
	view(t, mirrored, func(tx ReadTx) error {
		cmds, err := tx.Commands(CommandFilter{JobID: "j02", States: []model.CommandState{model.CmdUndo}})
		if len(cmds) != 2 {
			t.Errorf("j02 has %d UNDO commands right after two actions, want 2", len(cmds))
		}
		return err
	})
	if after := mirrored.Stats(); after.Requests != before.Requests || after.Mirrored <= before.Mirrored {
		t.Errorf("a view after the actions sent %d requests and the mirror served %d reads, want 0 and some",
			after.Requests-before.Requests, after.Mirrored-before.Mirrored)
	}
}

// TestMirrorSeesOtherPalinks: the writes of another palink reach the
// mirror, and Updates of two mirrored palinks that race on one record
// lose nothing: an Update that read a copy the watch had not brought up
// to date yet fails its commit and runs again on etcd's.
func TestMirrorSeesOtherPalinks(t *testing.T) {
	c := etcdtest.Start(t, 3, etcdtest.Options{})
	url := freshURL(c)
	a := openEtcdT(t, url, Options{Etcd: EtcdOptions{Mirror: true}})
	b := openEtcdT(t, url, Options{Etcd: EtcdOptions{Mirror: true}})
	update(t, a, func(tx Tx) error { return tx.CreateJob(sampleJob("j1", "a")) })
	deadline := time.Now().Add(5 * time.Second)
	for {
		var err error
		view(t, b, func(tx ReadTx) error { _, err = tx.Job("j1"); return nil })
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a job another palink created is not seen after 5s: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	const each = 40
	var wg sync.WaitGroup
	for _, s := range []*Etcd{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				if err := s.Update(context.Background(), func(tx Tx) error {
					n, err := restarts(tx, "j1")
					if err != nil {
						return err
					}
					return setRestarts(tx, "j1", n+1)
				}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, s := range []*Etcd{a, b} {
		waitFor(t, func() bool {
			var n int
			view(t, s, func(tx ReadTx) error { n, _ = restarts(tx, "j1"); return nil })
			return n == 2*each
		}, "both palinks' increments counted")
	}
	if a.Stats().Mirrored == 0 || b.Stats().Mirrored == 0 {
		t.Errorf("the mirrors served no read (%+v, %+v)", a.Stats(), b.Stats())
	}
}

// TestMirrorCutOff: a mirrored palink whose etcd stops answering does not
// go on serving its copy as if nothing happened: within mirrorStale its
// reads go to etcd again, and fail as a palink's without a mirror do.
func TestMirrorCutOff(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	url := freshURL(c)
	s := openEtcdT(t, url, Options{Etcd: EtcdOptions{Mirror: true, RequestTimeout: time.Second}})
	update(t, s, func(tx Tx) error { return tx.CreateJob(sampleJob("j1", "a")) })
	c.Members()[0].Pause()
	defer c.Members()[0].Resume()
	deadline := time.Now().Add(mirrorStale + 3*time.Second)
	for {
		err := s.View(context.Background(), func(tx ReadTx) error { _, err := tx.Job("j1"); return err })
		if err != nil {
			if !strings.Contains(err.Error(), "etcd") {
				t.Errorf("the read failed with %q, which does not say etcd is not answering", err)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("reads served from the copy %s after etcd stopped answering", mirrorStale+3*time.Second)
		}
		time.Sleep(100 * time.Millisecond)
	}
	c.Members()[0].Resume()
	waitFor(t, func() bool {
		before := s.Stats().Mirrored
		err := s.View(context.Background(), func(tx ReadTx) error { _, err := tx.Job("j1"); return err })
		return err == nil && s.Stats().Mirrored > before
	}, "the mirror serving again once etcd answers")
}

// waitFor polls cond for up to 10s.
func waitFor(t *testing.T, cond func() bool, what string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("not within 10s: %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestMirrorReadsAtASnapshot: the mirror answers a read at a snapshot
// exactly as etcd would, or not at all — a key changed, created or
// deleted after the snapshot is left to etcd, a key deleted before it is
// missing, and a snapshot older than what the mirror holds is refused.
func TestMirrorReadsAtASnapshot(t *testing.T) {
	e := &Etcd{etcdKeys: etcdKeys{prefix: "/p/"}, url: EtcdURL{Prefix: "/p/"}}
	m := &etcdMirror{e: e, moved: make(chan struct{})}
	m.tree, m.rev, m.floor, m.live, m.heard = newMirrorTree(), 10, 10, true, time.Now()
	put := func(key string, rev int64) *clientv3.Event {
		return &clientv3.Event{Type: mvccpb.PUT, Kv: &mvccpb.KeyValue{Key: []byte(key), Value: []byte(key), ModRevision: rev, Version: 1}}
	}
	del := func(key string, rev int64) *clientv3.Event {
		return &clientv3.Event{Type: mvccpb.DELETE, Kv: &mvccpb.KeyValue{Key: []byte(key), ModRevision: rev}}
	}
	m.apply(clientv3.WatchResponse{Events: []*clientv3.Event{put("/p/jobs/a", 11), put("/p/jobs/b", 11), put("/p/jobs/c", 11)}})
	m.apply(clientv3.WatchResponse{Events: []*clientv3.Event{put("/p/jobs/b", 12), del("/p/jobs/c", 12)}})
	m.apply(clientv3.WatchResponse{Events: []*clientv3.Event{del("/p/jobs/a", 13), put("/p/events/a/x", 13)}})
	type want struct {
		v  string
		ok bool
	}
	for _, c := range []struct {
		key string
		at  int64
		want
	}{
		{"/p/jobs/a", 11, want{"", false}}, // deleted at 13: a tombstone keeps no value
		{"/p/jobs/a", 13, want{"", true}},
		{"/p/jobs/b", 11, want{"", false}}, // changed at 12: etcd knows its value at 11
		{"/p/jobs/b", 12, want{"/p/jobs/b", true}},
		{"/p/jobs/c", 11, want{"", false}}, // deleted at 12: its value at 11 is etcd's
		{"/p/jobs/c", 12, want{"", true}},
		{"/p/jobs/d", 13, want{"", true}},       // never there
		{"/p/jobs/a", 9, want{"", false}},       // before the floor
		{"/p/jobs/a", 14, want{"", false}},      // after what the mirror holds
		{"/p/events/a/x", 13, want{"", false}},  // a family it skips
		{"/p/events/a", 13, want{"", true}},     // that family's sequence is copied
		{"/p/job_names/zz", 13, want{"", true}}, // another family, empty
	} {
		v, _, ok := m.get(c.key, c.at)
		if string(v) != c.v || ok != c.ok {
			t.Errorf("get %s at %d = %q, %t; want %q, %t", c.key, c.at, v, ok, c.v, c.ok)
		}
	}
	keys := func(kvs []*mvccpb.KeyValue) string {
		var ks []string
		for _, kv := range kvs {
			ks = append(ks, strings.TrimPrefix(string(kv.Key), "/p/jobs/"))
		}
		return strings.Join(ks, ",")
	}
	for _, c := range []struct {
		at    int64
		limit int
		desc  bool
		want  string
		more  bool
		ok    bool
	}{
		{13, 10, false, "b", false, true},
		{13, 10, true, "b", false, true},
		{12, 10, false, "", false, false}, // a deleted at 13: its value at 12 is etcd's
		{11, 10, false, "", false, false},
	} {
		kvs, more, ok := m.page("/p/jobs/", "/p/jobs0", c.at, c.limit, c.desc)
		if keys(kvs) != c.want || more != c.more || ok != c.ok {
			t.Errorf("page at %d (desc %t) = %q more %t ok %t; want %q %t %t", c.at, c.desc, keys(kvs), more, ok, c.want, c.more, c.ok)
		}
	}
	// Pages of a range with more keys than the limit, both ways, and
	// starting from the range's first key.
	var evs []*clientv3.Event
	for _, k := range []string{"e", "f", "g", "h"} {
		evs = append(evs, put("/p/jobs/"+k, 14))
	}
	m.apply(clientv3.WatchResponse{Events: evs})
	for _, c := range []struct {
		lo, hi string
		desc   bool
		want   string
		more   bool
	}{
		{"/p/jobs/", "/p/jobs0", false, "b,e", true},
		{"/p/jobs/e", "/p/jobs0", false, "e,f", true},
		{"/p/jobs/", "/p/jobs0", true, "h,g", true},
		{"/p/jobs/b", "/p/jobs/f", true, "e,b", false},
		{"/p/jobs/b", "/p/jobs/g", true, "f,e", true},
	} {
		kvs, more, ok := m.page(c.lo, c.hi, 14, 2, c.desc)
		if keys(kvs) != c.want || more != c.more || !ok {
			t.Errorf("page [%s, %s) desc %t = %q more %t ok %t; want %q %t", c.lo, c.hi, c.desc, keys(kvs), more, ok, c.want, c.more)
		}
	}
	// Too many tombstones: the mirror forgets them and serves no snapshot
	// from before.
	for i := range mirrorMaxTombs + 1 {
		m.apply(clientv3.WatchResponse{Events: []*clientv3.Event{del(fmt.Sprintf("/p/jobs/t%05d", i), 15+int64(i))}})
	}
	if m.floor <= 14 || m.tombs >= mirrorMaxTombs || m.tree.Len() > 8+m.tombs {
		t.Errorf("after %d deletes: floor %d, %d tombstones, %d keys; want the floor moved and the tombstones forgotten",
			mirrorMaxTombs+1, m.floor, m.tombs, m.tree.Len())
	}
	if _, _, ok := m.get("/p/jobs/b", 14); ok {
		t.Error("a snapshot from before the tombstones were forgotten was served")
	}
	if v, _, ok := m.get("/p/jobs/b", m.rev); !ok || string(v) != "/p/jobs/b" {
		t.Errorf("get b at the newest revision = %q, %t", v, ok)
	}
}

// TestEtcdWatchSaysWhoseChange: a change this store committed is marked
// Own in its own watch, and not in another palink's.
func TestEtcdWatchSaysWhoseChange(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	url := freshURL(c)
	a, b := openEtcdT(t, url, Options{}), openEtcdT(t, url, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fromA, fromB := a.Watch(ctx), b.Watch(ctx)
	time.Sleep(100 * time.Millisecond) // the watches are set up by then
	update(t, a, func(tx Tx) error { return tx.CreateJob(sampleJob("j1", "a")) })
	update(t, b, func(tx Tx) error { return tx.CreateJob(sampleJob("j2", "b")) })
	for name, ch := range map[string]<-chan Change{"a": fromA, "b": fromB} {
		for _, job := range []string{"j1", "j2"} {
			select {
			case got := <-ch:
				want := job == "j1" && name == "a" || job == "j2" && name == "b"
				if len(got.Jobs) != 1 || got.Jobs[0] != job || got.Own != want {
					t.Errorf("%s's watch: change of %v own %t, want %s own %t", name, got.Jobs, got.Own, job, want)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("%s's watch: the change of %s not reported", name, job)
			}
		}
	}
}

// TestMirrorTakesItsOwnCommitsAsEtcd: a commit that follows the mirror's
// newest revision goes into the mirror at once (the next transaction
// needs no watch), and holds then exactly what etcd holds: puts, deletes,
// a dropped bucket, the deletion marks and the Update counter.
func TestMirrorTakesItsOwnCommitsAsEtcd(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	url := freshURL(c)
	s := openEtcdT(t, url, Options{Etcd: EtcdOptions{Mirror: true}})
	m := s.mirror
	table := model.CatalogTable{Cluster: "prod", Name: "users", SQL: "CREATE TABLE users (id BIGINT) WITH ('connector' = 'datagen')", Author: "ana", CreatedAt: t0}
	steps := []func(tx Tx) error{
		func(tx Tx) error { return tx.CreateJob(sampleJob("j1", "a")) },
		func(tx Tx) error {
			_, err := tx.PutCommand(sampleCommand("j1", model.CmdSubmit, model.CmdUndo))
			return err
		},
		func(tx Tx) error {
			cs, err := tx.Commands(CommandFilter{JobID: "j1"})
			if err != nil {
				return err
			}
			cs[0].State = model.CmdDoing // a move between state indexes: a delete and a put
			_, err = tx.PutCommand(cs[0])
			return err
		},
		func(tx Tx) error { _, err := tx.PutCatalogTable(table); return err },
		func(tx Tx) error { _, err := tx.PutCatalogTable(table); return err },
		func(tx Tx) error { return tx.DeleteCatalogTable("prod", "users") }, // a dropped bucket
		func(tx Tx) error { return tx.PutVar(model.Variable{Name: "region", Value: "eu"}) },
		func(tx Tx) error { return tx.DeleteVar("", "region") },
	}
	for i, step := range steps {
		update(t, s, step)
		m.mu.RLock()
		rev := m.rev
		m.mu.RUnlock()
		if want := s.committed.Load(); rev != want {
			t.Errorf("step %d: the mirror is at revision %d right after the commit at %d", i, rev, want)
		}
	}
	// What etcd holds now, key by key, against the mirror's live keys.
	resp, err := s.cli.Get(context.Background(), s.url.Prefix, clientv3.WithPrefix())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, kv := range resp.Kvs {
		if s.mirrors(string(kv.Key)) {
			want[string(kv.Key)] = string(kv.Value)
		}
	}
	got := map[string]string{}
	m.mu.RLock()
	m.tree.Ascend(func(kv *mvccpb.KeyValue) bool {
		if kv.Version > 0 {
			got[string(kv.Key)] = string(kv.Value)
		}
		return true
	})
	m.mu.RUnlock()
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: mirror %q, etcd %q", k, got[k], v)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s: in the mirror, not in etcd", k)
		}
	}
}
