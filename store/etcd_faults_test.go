package store

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/palink/palink/internal/etcdtest"
	"github.com/palink/palink/model"
)

// rawClient is a plain etcd client on c, to change keys behind the store's back.
func rawClient(t *testing.T, c *etcdtest.Cluster) *clientv3.Client {
	t.Helper()
	cli, err := clientv3.New(clientv3.Config{Endpoints: c.Endpoints(), DialTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cli.Close() })
	return cli
}

func openEtcdT(t *testing.T, url string, o Options) *Etcd {
	t.Helper()
	e, err := OpenEtcd(url, o)
	if err != nil {
		t.Fatalf("open %s: %v", url, err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// TestEtcdURLs: the forms a store's name takes, and the refusals.
func TestEtcdURLs(t *testing.T) {
	for in, want := range map[string]string{
		"etcd://10.0.0.1:2379,10.0.0.2:2379/palink": "etcd://10.0.0.1:2379,10.0.0.2:2379/palink",
		"etcd://etcd-a,etcd-b:2380/team/palink/":    "etcd://etcd-a:2379,etcd-b:2380/team/palink",
		"etcd://[::1]:2379/p":                       "etcd://[::1]:2379/p",
	} {
		u, err := ParseEtcdURL(in)
		if err != nil || u.String() != want {
			t.Errorf("ParseEtcdURL(%q) = %q, %v; want %q", in, u.String(), err, want)
		}
	}
	for in, why := range map[string]string{
		"etcd://10.0.0.1:2379":               "no key prefix",
		"etcd://10.0.0.1:2379/":              "no key prefix",
		"etcd://,h:2379/p":                   "an empty host",
		"etcd://user:pw@h:2379/p":            "no user",
		"etcd://h:2379/p?dial_timeout=1s":    "no user, query",
		"/var/lib/palink/palink.db":          "not an etcd URL",
		"http://127.0.0.1:2379/palink":       "not an etcd URL",
		"etcd://h1:2379/p?password=s3cr3t#x": "no user, query or fragment",
	} {
		_, err := ParseEtcdURL(in)
		if err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("ParseEtcdURL(%q) = %v, want an error saying %q", in, err, why)
		}
	}
}

// TestEtcdUnreachableAtStart: no member answers; Open says so within its
// dial timeout, naming every endpoint.
func TestEtcdUnreachableAtStart(t *testing.T) {
	var dead []string
	for range 2 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		dead = append(dead, l.Addr().String())
		l.Close()
	}
	url := EtcdScheme + strings.Join(dead, ",") + "/palink"
	start := time.Now()
	_, err := OpenEtcd(url, Options{Etcd: EtcdOptions{DialTimeout: 700 * time.Millisecond}})
	if err == nil {
		t.Fatal("open succeeded with no etcd running")
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("open took %v to give up, want about its dial timeout", took)
	}
	for _, want := range append(dead, "no etcd endpoint answered within 700ms", url) {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

// TestEtcdRefusesANewerSchema: a store written by a newer palink is
// refused, naming both versions; so is a prefix holding keys but no
// schema version, and a read-only palink creates no store.
func TestEtcdRefusesANewerSchema(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	cli := rawClient(t, c)
	ctx := context.Background()

	url := freshURL(c)
	s := openEtcdT(t, url, Options{})
	update(t, s, func(tx Tx) error { return tx.CreateJob(sampleJob("j1", "a")) })
	u, _ := ParseEtcdURL(url)
	if _, err := cli.Put(ctx, u.Prefix+"meta/version", strconv.Itoa(SchemaVersion+1)); err != nil {
		t.Fatal(err)
	}
	_, err := OpenEtcd(url, Options{})
	wantErr(t, err, ErrSchema, url, fmt.Sprintf("store schema %d is newer than this palink (%d)", SchemaVersion+1, SchemaVersion), "upgrade palink")
	// The palink that had it open may not write over the newer palink's.
	err = s.Update(ctx, func(tx Tx) error { return tx.CreateJob(sampleJob("j2", "b")) })
	wantErr(t, err, ErrReplaced, url)

	half := freshURL(c)
	h, _ := ParseEtcdURL(half)
	if _, err := cli.Put(ctx, h.Prefix+"jobs/j1", "{}"); err != nil {
		t.Fatal(err)
	}
	_, err = OpenEtcd(half, Options{})
	wantErr(t, err, ErrCorrupt, half, "no schema version", "did not finish")

	_, err = OpenEtcd(freshURL(c), Options{ReadOnly: true})
	if err == nil || !strings.Contains(err.Error(), "creates none") {
		t.Errorf("read-only open of an empty prefix = %v, want a refusal", err)
	}
}

// TestEtcdReadOnly: a read-only store reads and refuses every Update.
func TestEtcdReadOnly(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	url := freshURL(c)
	update(t, openEtcdT(t, url, Options{}), func(tx Tx) error { return tx.CreateJob(sampleJob("j1", "a")) })
	ro := openEtcdT(t, url, Options{ReadOnly: true})
	view(t, ro, func(tx ReadTx) error { _, err := tx.Job("j1"); return err })
	err := ro.Update(context.Background(), func(tx Tx) error { return nil })
	wantErr(t, err, ErrReadOnly, url)
}

// TestEtcdTransactionLimits: a transaction as large as etcd takes (its
// --max-txn-ops, its --max-request-bytes) commits; one operation or a few
// bytes more fails with ErrTooLarge, naming the limit, and writes nothing.
func TestEtcdTransactionLimits(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	url := freshURL(c)
	s := openEtcdT(t, url, Options{})
	ctx := context.Background()
	audits := func(n int) func(Tx) error {
		return func(tx Tx) error {
			for i := range n {
				if _, err := tx.AppendAudit(model.AuditEntry{Time: t0, User: "ops", Action: fmt.Sprint("a", i)}); err != nil {
					return err
				}
			}
			return nil
		}
	}
	// n entries, the audit sequence and the Update counter: n+2 operations.
	err := s.Update(ctx, audits(DefaultEtcdMaxTxnOps-1))
	wantErr(t, err, ErrTooLarge, "129 operations", "at most 128", "max_txn_ops")
	update(t, s, audits(DefaultEtcdMaxTxnOps-2))
	view(t, s, func(tx ReadTx) error {
		as, err := tx.Audit(0, 0)
		if err == nil && (len(as) != DefaultEtcdMaxTxnOps-2 || as[len(as)-1].Seq != DefaultEtcdMaxTxnOps-2) {
			t.Errorf("after a refused and a committed transaction: %d entries, the last #%d", len(as), as[len(as)-1].Seq)
		}
		return err
	})

	// The largest spec palink lets through must be one etcd takes.
	update(t, s, func(tx Tx) error { return tx.CreateJob(sampleJob("j1", "big")) })
	spec := func(n int) error {
		return s.Update(ctx, func(tx Tx) error {
			_, err := tx.AddSpec(model.Spec{JobID: "j1", SQL: strings.Repeat("x", n), CreatedAt: t0})
			return err
		})
	}
	lo, hi := DefaultEtcdMaxRequestBytes-64<<10, DefaultEtcdMaxRequestBytes
	if err := spec(lo); err != nil {
		t.Fatalf("a spec of %d bytes: %v", lo, err)
	}
	if err := spec(hi); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("a spec of %d bytes: %v, want ErrTooLarge", hi, err)
	}
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if err := spec(mid); err == nil {
			lo = mid
		} else {
			hi = mid
			wantErr(t, err, ErrTooLarge, "max_request_bytes", "about")
		}
	}
	if DefaultEtcdMaxRequestBytes-lo > 2048 {
		t.Errorf("the largest spec written is %d bytes, %d short of etcd's limit: the estimate is too careful", lo, DefaultEtcdMaxRequestBytes-lo)
	}
	view(t, s, func(tx ReadTx) error {
		ss, err := tx.Specs("j1")
		if err == nil && len(ss) != ss[len(ss)-1].Version {
			t.Errorf("spec versions not dense after refusals: %d specs, the last v%d", len(ss), ss[len(ss)-1].Version)
		}
		return err
	})
}

// TestEtcdLimitsBeyondTheCluster: options that promise more than the
// cluster takes still fail as ErrTooLarge, with etcd's word for it.
func TestEtcdLimitsBeyondTheCluster(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{MaxTxnOps: 16})
	s := openEtcdT(t, freshURL(c), Options{Etcd: EtcdOptions{MaxTxnOps: 64}})
	err := s.Update(context.Background(), func(tx Tx) error {
		for i := range 20 {
			if err := tx.CreateJob(sampleJob(fmt.Sprint("j", i), fmt.Sprint("n", i))); err != nil {
				return err
			}
		}
		return nil
	})
	wantErr(t, err, ErrTooLarge, "too many operations", "max_txn_ops")
	view(t, s, func(tx ReadTx) error {
		jobs, err := tx.Jobs()
		if err == nil && len(jobs) != 0 {
			t.Errorf("a refused transaction left %d jobs", len(jobs))
		}
		return err
	})
}

// TestEtcdRestoreReplacesForRunningPalinks: a palink that opened the
// store before a restore into it is refused its writes (it would write
// over the restored records with what it read before); opened again, it
// works on the restored store.
func TestEtcdRestoreReplacesForRunningPalinks(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	url := freshURL(c)
	s := openEtcdT(t, url, Options{})
	update(t, s, func(tx Tx) error { return tx.CreateJob(sampleJob("j1", "kept")) })
	backup := filepath.Join(t.TempDir(), "backup.db")
	f, err := os.Create(backup)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Backup(context.Background(), f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	update(t, s, func(tx Tx) error { return tx.CreateJob(sampleJob("j2", "lost")) })
	if err := RestoreEtcd(backup, url, Options{}); err != nil {
		t.Fatal(err)
	}
	err = s.Update(context.Background(), func(tx Tx) error { return tx.CreateJob(sampleJob("j3", "late")) })
	wantErr(t, err, ErrReplaced, url, "open it again")

	again := openEtcdT(t, url, Options{})
	if again.ID() != s.ID() {
		t.Errorf("restored store id %s, was %s", again.ID(), s.ID())
	}
	view(t, again, func(tx ReadTx) error {
		jobs, err := tx.Jobs()
		if err == nil && (len(jobs) != 1 || jobs[0].Name != "kept") {
			t.Errorf("after the restore: %+v", jobs)
		}
		return err
	})
	update(t, again, func(tx Tx) error { return tx.CreateJob(sampleJob("j3", "late")) })
}

// TestEtcdCommitOutcome: a commit whose answer was lost is looked up by
// its token: found once it applied, and never applied after the lookup.
func TestEtcdCommitOutcome(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	s := openEtcdT(t, freshURL(c), Options{})
	ctx := context.Background()
	cause := errors.New("the answer was lost")
	rev := func() int64 {
		r, err := s.cli.Get(ctx, s.key(etcdTxnKey))
		if err != nil {
			t.Fatal(err)
		}
		return r.Header.Revision
	}

	before := rev()
	if _, err := s.cli.Put(ctx, s.key(etcdTxnKey), "applied-token"); err != nil {
		t.Fatal(err)
	}
	update(t, s, func(tx Tx) error { return tx.CreateJob(sampleJob("j1", "after")) })
	if ok, err := s.resolve(before, "applied-token", cause); !ok || err != nil {
		t.Errorf("resolve of an applied commit = %t, %v; want true", ok, err)
	}

	before = rev()
	update(t, s, func(tx Tx) error { return tx.CreateJob(sampleJob("j2", "other")) })
	ok, err := s.resolve(before, "lost-token", cause)
	if ok || err == nil || !strings.Contains(err.Error(), "not committed") || !strings.Contains(err.Error(), cause.Error()) {
		t.Errorf("resolve of a commit never applied = %t, %v; want false, not committed", ok, err)
	}
	// The lookup fenced it off: the lost request, which compares what it
	// read and the absence of its token's fence, can no longer apply.
	late, err := s.cli.Txn(ctx).If(s.unfenced("lost-token")).
		Then(clientv3.OpPut(s.key(etcdTxnKey), "lost-token")).Commit()
	if err != nil || late.Succeeded {
		t.Errorf("the lost commit applied after its lookup: %v, %v", late, err)
	}
}

// TestEtcdWatch: a change by another palink on the store is reported with
// the families and jobs it touched, in order.
func TestEtcdWatch(t *testing.T) {
	c := etcdtest.Start(t, 3, etcdtest.Options{})
	url := freshURL(c)
	watcher, writer := openEtcdT(t, url, Options{}), openEtcdT(t, url, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	changes := watcher.Watch(ctx)
	time.Sleep(100 * time.Millisecond) // the watch is set up by then
	update(t, writer, func(tx Tx) error {
		if err := tx.CreateJob(sampleJob("j1", "a")); err != nil {
			return err
		}
		_, err := tx.AppendEvent(model.Event{JobID: "j1", To: model.StateDeploying})
		return err
	})
	update(t, writer, func(tx Tx) error {
		_, err := tx.PutCommand(sampleCommand("j1", model.CmdSubmit, model.CmdUndo))
		return err
	})
	update(t, writer, func(tx Tx) error { return tx.PutVar(model.Variable{Name: "region", Value: "eu"}) })
	want := []string{
		"[events job_names jobs] [j1]",
		"[commands commands_by_job commands_by_state] [j1]",
		"[vars] []",
	}
	var last int64
	for i, w := range want {
		select {
		case ch := <-changes:
			if got := fmt.Sprint(ch.Families, " ", ch.Jobs); got != w || ch.Resync || ch.Revision <= last {
				t.Errorf("change %d = %s (rev %d, resync %t), want %s after rev %d", i, got, ch.Revision, ch.Resync, w, last)
			}
			last = ch.Revision
		case <-time.After(10 * time.Second):
			t.Fatalf("change %d (%s) not reported", i, w)
		}
	}
	cancel()
	for range changes { // closed once ctx is done
	}
}

// TestEtcdFencedWrites: a store fenced by an election's key commits while
// the key is the one its holder won; once the key is gone, or won again by
// another, its writes are refused whole, and the unfenced store writes on.
func TestEtcdFencedWrites(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	cli := rawClient(t, c)
	ctx := context.Background()
	s := openEtcdT(t, freshURL(c), Options{})
	const leader = "/palink-election/leader"
	won, err := cli.Put(ctx, leader, "host-a")
	if err != nil {
		t.Fatal(err)
	}
	fenced := s.Fenced(Fence{Key: leader, CreateRevision: won.Header.Revision})
	update(t, fenced, func(tx Tx) error { return tx.CreateJob(sampleJob("j1", "a")) })

	// The key is deleted (the lease ended) and created again by another.
	if _, err := cli.Delete(ctx, leader); err != nil {
		t.Fatal(err)
	}
	if _, err := cli.Put(ctx, leader, "host-b"); err != nil {
		t.Fatal(err)
	}
	err = fenced.Update(ctx, func(tx Tx) error {
		if err := tx.CreateJob(sampleJob("j2", "b")); err != nil {
			return err
		}
		_, err := tx.PutCommand(sampleCommand("j1", model.CmdKill, model.CmdUndo))
		return err
	})
	wantErr(t, err, ErrFenced, leader, fmt.Sprint(won.Header.Revision))
	update(t, s, func(tx Tx) error { return tx.CreateJob(sampleJob("j3", "c")) })
	view(t, s, func(tx ReadTx) error {
		jobs, _ := tx.Jobs()
		cmds, err := tx.Commands(CommandFilter{})
		if len(jobs) != 2 || len(cmds) != 0 {
			t.Errorf("after a fenced write: %d jobs, %d commands; want j1 and j3, none", len(jobs), len(cmds))
		}
		return err
	})
}

// TestEtcdLargestExceptionSync: the largest AddExceptions a sync makes —
// a job keeping its newest MaxStoredExceptions when as many again and
// more arrive, newer — fits in one etcd transaction: it puts the ones
// kept and deletes the ones they push out, nothing more.
func TestEtcdLargestExceptionSync(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	s := openEtcdT(t, freshURL(c), Options{})
	batch := func(from, n int) []model.JobException {
		var es []model.JobException
		for i := range n {
			es = append(es, sampleException("j1", from+i, "java.lang.RuntimeException"))
		}
		return es
	}
	update(t, s, func(tx Tx) error {
		if err := tx.CreateJob(sampleJob("j1", "a")); err != nil {
			return err
		}
		_, err := tx.AddExceptions("j1", batch(0, model.MaxStoredExceptions))
		return err
	})
	update(t, s, func(tx Tx) error {
		j, err := tx.Job("j1")
		if err != nil {
			return err
		}
		if _, err := tx.AddExceptions("j1", batch(1000, 4*model.MaxStoredExceptions)); err != nil {
			return err
		}
		j.Diagnostics = "failed"
		return tx.PutJob(j)
	})
	view(t, s, func(tx ReadTx) error {
		es, err := tx.Exceptions("j1")
		if err == nil && (len(es) != model.MaxStoredExceptions || !es[0].Time.Equal(t0.Add(1199*time.Minute))) {
			t.Errorf("kept %d exceptions, the newest at %v", len(es), es[0].Time)
		}
		return err
	})
}

// TestEtcdCompactedSnapshotRunsAgain: a transaction whose revision etcd
// compacts away while it reads runs again on a new snapshot, and sees
// what was written meanwhile.
func TestEtcdCompactedSnapshotRunsAgain(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	cli := rawClient(t, c)
	s := openEtcdT(t, freshURL(c), Options{})
	update(t, s, func(tx Tx) error { return tx.CreateJob(sampleJob("j1", "a")) })
	runs := 0
	var seen []string
	view(t, s, func(tx ReadTx) error {
		runs++
		seen = seen[:0]
		if _, err := tx.Job("j1"); err != nil {
			return err
		}
		if runs == 1 {
			update(t, s, func(tx Tx) error { return tx.CreateJob(sampleJob("j2", "b")) })
			r, err := cli.Get(context.Background(), "any")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := cli.Compact(context.Background(), r.Header.Revision); err != nil {
				t.Fatal(err)
			}
		}
		jobs, err := tx.Jobs()
		for _, j := range jobs {
			seen = append(seen, j.ID)
		}
		return err
	})
	if runs != 2 || strings.Join(seen, " ") != "j1 j2" {
		t.Errorf("the view ran %d times and saw %v; want twice, the second run seeing j1 and j2", runs, seen)
	}
}

// TestEtcdUnreachableDuringWork: a store whose etcd stops answering fails
// a View and an Update with an error that names the endpoints and is
// model.ErrUnavailable — a moment's trouble, which a command retries,
// not a fault of what it does.
func TestEtcdUnreachableDuringWork(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	s := etcdOpener(freshURL(c), EtcdOptions{RequestTimeout: 500 * time.Millisecond})(t)
	defer s.Close()
	update(t, s, func(tx Tx) error { return tx.CreateJob(sampleJob("j1", "a")) })
	m := c.Members()[0]
	m.Pause()
	defer m.Resume()
	errs := map[string]error{
		"View":   s.View(context.Background(), func(tx ReadTx) error { _, err := tx.Job("j1"); return err }),
		"Update": s.Update(context.Background(), func(tx Tx) error { return tx.PutJob(sampleJob("j1", "a")) }),
	}
	for op, err := range errs {
		if !errors.Is(err, model.ErrUnavailable) || !strings.Contains(err.Error(), c.Endpoints()[0]) {
			t.Errorf("%s with etcd paused: %v; want model.ErrUnavailable, naming the endpoint", op, err)
		}
	}
}
