package leader

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"github.com/palink/palink/internal/etcdtest"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

const ttl = 2 * time.Second

func client(t *testing.T, c *etcdtest.Cluster) *clientv3.Client {
	t.Helper()
	cli, err := clientv3.New(clientv3.Config{Endpoints: c.Endpoints(), DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cli.Close() })
	return cli
}

func freshPrefix() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return "/test-" + hex.EncodeToString(b) + "/"
}

// candidate is one Elector running in the test, as one palink would.
type candidate struct {
	name   string
	el     *Elector
	cancel context.CancelFunc
	done   chan struct{}

	mu    sync.Mutex
	terms []*Term
	ended []error
}

func (c *candidate) leading() *Term { return c.el.Term() }

func start(t *testing.T, cli *clientv3.Client, prefix, name string, lead func(ctx context.Context, t *Term) error) *candidate {
	t.Helper()
	c := &candidate{name: name, done: make(chan struct{})}
	c.el = New(Options{Client: cli, Prefix: prefix, TTL: ttl, Log: testLog(t, name),
		Self: Member{ID: name, Host: "host-" + name, PID: os.Getpid(), What: "test", Started: time.Now()}})
	ctx, cancel := context.WithCancel(context.Background())
	c.cancel = cancel
	go func() {
		defer close(c.done)
		_ = c.el.Run(ctx, func(ctx context.Context, tm *Term) error {
			c.mu.Lock()
			c.terms = append(c.terms, tm)
			c.mu.Unlock()
			var err error
			if lead != nil {
				err = lead(ctx, tm)
			}
			<-ctx.Done()
			c.mu.Lock()
			c.ended = append(c.ended, context.Cause(ctx))
			c.mu.Unlock()
			return err
		})
	}()
	t.Cleanup(func() { c.stop() })
	return c
}

func (c *candidate) stop() {
	c.cancel()
	<-c.done
}

// waitLeader waits until exactly one of cs leads, and returns it.
func waitLeader(t *testing.T, within time.Duration, cs ...*candidate) *candidate {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		var leaders []*candidate
		for _, c := range cs {
			if c.leading() != nil {
				leaders = append(leaders, c)
			}
		}
		if len(leaders) > 1 {
			t.Fatalf("%d leaders at once: %s and %s", len(leaders), leaders[0].name, leaders[1].name)
		}
		if len(leaders) == 1 {
			return leaders[0]
		}
		if time.Now().After(deadline) {
			t.Fatalf("no leader within %s", within)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestOneLeaderTakesOverWhenTheLeaderStops: of three candidates exactly
// one leads; when it stops (and resigns) another leads at once, and when
// that one is cut off from etcd (its client closed: it no longer keeps its
// lease alive, nor resigns) the last leads within the TTL. Status names
// the leader and the members.
func TestOneLeaderTakesOverWhenTheLeaderStops(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	prefix := freshPrefix()
	clients := map[string]*clientv3.Client{}
	var cs []*candidate
	for _, name := range []string{"a", "b", "c"} {
		clients[name] = client(t, c)
		cs = append(cs, start(t, clients[name], prefix, name, nil))
	}
	first := waitLeader(t, 5*time.Second, cs...)

	st, err := Read(context.Background(), client(t, c), prefix)
	if err != nil {
		t.Fatal(err)
	}
	if st.Leader == nil || st.Leader.ID != first.name || st.Leader.Since.IsZero() || len(st.Members) != 3 {
		t.Fatalf("status = leader %+v, %d members; want %s with a since, 3 members", st.Leader, len(st.Members), first.name)
	}

	// A leader that stops resigns: another leads at once, not after the TTL.
	stopped := time.Now()
	first.stop()
	cs = slices.DeleteFunc(cs, func(x *candidate) bool { return x == first })
	second := waitLeader(t, ttl/2, cs...)
	t.Logf("after a resignation, %s leads in %s", second.name, time.Since(stopped))
	third := cs[0]
	if third == second {
		third = cs[1]
	}

	// One cut off keeps its lead only as long as its lease.
	cutAt := time.Now()
	clients[second.name].Close()
	waitLeader(t, ttl+3*time.Second, third)
	took := time.Since(cutAt)
	t.Logf("after the leader was cut off, %s leads in %s (TTL %s)", third.name, took, ttl)
	if took > ttl+time.Second {
		t.Errorf("took %s to take over from a leader cut off; the TTL is %s", took, ttl)
	}
	for deadline := time.Now().Add(time.Second); second.leading() != nil; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the leader cut off still believes it leads")
		}
	}
}

// TestDeposedLeaderWritesAreFenced: a leader whose lease ended (revoked
// from outside, as etcd does when it expires) has its next write refused
// whole by etcd; the refusal is counted and ends its term, and it
// campaigns again.
func TestDeposedLeaderWritesAreFenced(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	prefix := freshPrefix()
	url := store.EtcdScheme + strings.Join(c.Endpoints(), ",") + strings.TrimSuffix(prefix, "/")
	st, err := store.OpenEtcd(url, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	admin := client(t, c)
	written, refused := make(chan error, 1), make(chan error, 1)
	var terms atomic.Int32
	a := start(t, st.Client(), prefix, "a", func(ctx context.Context, tm *Term) error {
		if terms.Add(1) > 1 {
			return nil // the second term: nothing to prove
		}
		fs := tm.Store(st)
		written <- fs.Update(ctx, func(tx store.Tx) error { return tx.CreateJob(job("j1")) })
		// Deposed: the lease goes, as when it expires.
		lease, _ := parseLease(tm.Key())
		if _, err := admin.Revoke(context.Background(), lease); err != nil {
			return err
		}
		refused <- fs.Update(context.Background(), func(tx store.Tx) error { return tx.CreateJob(job("j2")) })
		return nil
	})
	if err := <-written; err != nil {
		t.Fatalf("the leader's write: %v", err)
	}
	if err := <-refused; !errors.Is(err, store.ErrFenced) {
		t.Fatalf("the deposed leader's write = %v, want ErrFenced", err)
	}
	var jobs []model.Job
	if err := st.View(context.Background(), func(tx store.ReadTx) (err error) { jobs, err = tx.Jobs(); return err }); err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 1 || jobs[0].ID != "j1" {
		t.Errorf("jobs after the fenced write: %v, want j1 alone", jobs)
	}
	// It campaigns again and wins a new term (it is alone).
	deadline := time.Now().Add(5 * time.Second)
	for a.el.Stats().Terms < 2 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	s := a.el.Stats()
	if s.Terms < 2 || s.Fenced != 1 {
		t.Errorf("stats %+v, want a second term and 1 fenced write", s)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.ended) == 0 || !errors.Is(a.ended[0], ErrNotLeading) {
		t.Errorf("the first term ended with %v, want ErrNotLeading", a.ended)
	}
}

// TestCandidateWhoseLeaseEndsWhileWaitingCampaignsAgain: a candidate
// waiting behind the leader loses its lease (etcd deletes its key); when
// the leader resigns, it must not believe it leads with no key (etcd's
// Campaign then returns as if elected): it campaigns again on a new
// session, and leads with a key of its own.
func TestCandidateWhoseLeaseEndsWhileWaitingCampaignsAgain(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	prefix := freshPrefix()
	admin := client(t, c)
	a := start(t, client(t, c), prefix, "a", nil)
	waitLeader(t, 5*time.Second, a)
	b := start(t, client(t, c), prefix, "b", nil)
	// b's candidate key appears behind a's.
	var bKey string
	for deadline := time.Now().Add(5 * time.Second); bKey == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		resp, err := admin.Get(context.Background(), prefix+"election/", clientv3.WithPrefix())
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.Kvs) == 2 {
			bKey = string(resp.Kvs[1].Key)
			if resp.Kvs[0].CreateRevision > resp.Kvs[1].CreateRevision {
				bKey = string(resp.Kvs[0].Key)
			}
		}
	}
	if bKey == "" {
		t.Fatal("b never campaigned")
	}
	lease, err := parseLease(bKey)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Revoke(context.Background(), lease); err != nil {
		t.Fatal(err)
	}
	a.stop()
	lead := waitLeader(t, 5*time.Second, b)
	tm := lead.leading()
	resp, err := admin.Get(context.Background(), tm.Key())
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Kvs) != 1 || resp.Kvs[0].CreateRevision != tm.Rev() || tm.Key() == bKey {
		t.Errorf("b leads with key %s (revision %d); etcd holds %v; its revoked key was %s", tm.Key(), tm.Rev(), resp.Kvs, bKey)
	}
}

// TestMayActEndsWithTheLease: a leader whose etcd stops answering (the
// member paused, as a partition would) may act no longer once its lease
// is not known alive on its own clock, before etcd could elect another;
// its term ends.
func TestMayActEndsWithTheLease(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	prefix := freshPrefix()
	a := start(t, client(t, c), prefix, "a", nil)
	tm := waitLeader(t, 5*time.Second, a).leading()
	if err := tm.MayAct(); err != nil {
		t.Fatalf("a fresh leader may not act: %v", err)
	}
	c.Members()[0].Pause()
	paused := time.Now()
	defer c.Members()[0].Resume()
	for tm.MayAct() == nil {
		if time.Since(paused) > ttl {
			t.Fatalf("still may act %s after etcd stopped answering (TTL %s)", time.Since(paused), ttl)
		}
		time.Sleep(10 * time.Millisecond)
	}
	took := time.Since(paused)
	err := tm.MayAct()
	if !errors.Is(err, ErrNotLeading) || !strings.Contains(err.Error(), "no keepalive") {
		t.Errorf("MayAct = %v", err)
	}
	if took > ttl-ttl/3+100*time.Millisecond {
		t.Errorf("MayAct held %s after the last keepalive could have been answered; want at most %s", took, ttl-ttl/3)
	}
	t.Logf("MayAct refused %s after etcd stopped answering (TTL %s)", took, ttl)
}

func parseLease(key string) (clientv3.LeaseID, error) {
	i := strings.LastIndex(key, "/")
	var id int64
	_, err := fmt.Sscanf(key[i+1:], "%x", &id)
	return clientv3.LeaseID(id), err
}

func job(id string) model.Job {
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	return model.Job{ID: id, Name: "job-" + id, Kind: model.KindSQL, Cluster: "c1", SpecVersion: 1, State: model.StateNone, CreatedAt: now, UpdatedAt: now}
}

// testLog writes an elector's log into the test's.
func testLog(t *testing.T, name string) *slog.Logger {
	return slog.New(slog.NewTextHandler(testWriter{t, name}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type testWriter struct {
	t    *testing.T
	name string
}

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Logf("%s: %s", w.name, strings.TrimSpace(string(p)))
	return len(p), nil
}
