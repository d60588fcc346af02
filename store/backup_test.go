package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/palink/palink/model"
)

// gateWriter holds a backup after its first chunk until the live store has
// committed `more` further updates, proving that writers are not blocked by
// a backup in progress. It gives up after a deadline rather than hang.
type gateWriter struct {
	w         io.Writer
	committed *atomic.Int64
	more      int64
	opened    bool
	err       error
}

func (g *gateWriter) Write(p []byte) (int, error) {
	if !g.opened {
		g.opened = true
		target := g.committed.Load() + g.more
		deadline := time.Now().Add(10 * time.Second)
		for g.committed.Load() < target {
			if time.Now().After(deadline) {
				g.err = fmt.Errorf("writers made %d of %d commits while a backup was open: blocked by it?", g.committed.Load()-target+g.more, g.more)
				return 0, g.err
			}
			time.Sleep(time.Millisecond)
		}
	}
	return g.w.Write(p)
}

// growFile makes the file big enough that the writes of a test need no new
// memory map: bbolt cannot remap while a read transaction (the backup) is
// open, so growth would wait for the backup (as Backup's doc says).
func growFile(t *testing.T, b *Bolt) {
	t.Helper()
	err := b.db.Update(func(tx *bolt.Tx) error {
		scratch, err := tx.CreateBucket([]byte("scratch"))
		if err != nil {
			return err
		}
		return scratch.Put([]byte("x"), make([]byte, 8<<20))
	})
	if err == nil {
		err = b.db.Update(func(tx *bolt.Tx) error { return tx.DeleteBucket([]byte("scratch")) })
	}
	if err != nil {
		t.Fatal(err)
	}
}

func TestBackupWhileWritingThenRestore(t *testing.T) {
	dir := t.TempDir()
	live := openT(t, filepath.Join(dir, "live.db"), Options{NoSync: true})
	jobs := []string{"j1", "j2", "j3"}
	update(t, live, func(tx Tx) error {
		for _, id := range jobs {
			if err := tx.CreateJob(sampleJob(id, "job-"+id)); err != nil {
				return err
			}
		}
		return nil
	})
	growFile(t, live)

	// Writers: each update bumps a job's counter and appends its event, and
	// now and then files a command, so a consistent snapshot has exactly
	// as many events per job as its counter says.
	var committed atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	writeErr := make(chan error, 2)
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				id := jobs[(w+i)%len(jobs)]
				err := live.Update(context.Background(), func(tx Tx) error {
					j, err := tx.Job(id)
					if err != nil {
						return err
					}
					j.PlatformRestarts++
					j.State = model.JobStates()[j.PlatformRestarts%len(model.JobStates())]
					if err := tx.PutJob(j); err != nil {
						return err
					}
					if _, err := tx.AppendEvent(model.Event{JobID: id, To: j.State, Reason: fmt.Sprint("update ", j.PlatformRestarts)}); err != nil {
						return err
					}
					if j.PlatformRestarts%5 == 0 {
						_, err = tx.PutCommand(sampleCommand(id, model.CmdSavepoint, model.CmdUndo))
					}
					return err
				})
				if err != nil {
					writeErr <- err
					return
				}
				committed.Add(1)
			}
		}()
	}
	stopWriters := func() {
		select {
		case <-stop:
		default:
			close(stop)
		}
		wg.Wait()
		select {
		case err := <-writeErr:
			t.Fatalf("writer: %v", err)
		default:
		}
	}
	t.Cleanup(stopWriters)
	for committed.Load() < 20 {
		time.Sleep(time.Millisecond)
	}

	backup := filepath.Join(dir, "backup.db")
	f, err := os.Create(backup)
	if err != nil {
		t.Fatal(err)
	}
	gate := &gateWriter{w: f, committed: &committed, more: 30}
	n, err := live.Backup(context.Background(), gate)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatalf("backup (%d bytes): %v", n, err)
	}
	if st, _ := os.Stat(backup); st.Size() != n {
		t.Errorf("Backup reported %d bytes, file has %d", n, st.Size())
	}
	stopWriters()

	restored := filepath.Join(dir, "restored", "palink.db")
	if err := Restore(backup, restored); err != nil {
		t.Fatal(err)
	}
	r := openT(t, restored, Options{NoSync: true})
	if err := r.Check(context.Background()); err != nil {
		t.Fatalf("restored store: %v", err)
	}
	liveDump, got := dump(t, live), dump(t, r)
	var restoredEvents, liveEvents int
	for _, j := range got.Jobs {
		evs := got.Events[j.ID]
		restoredEvents += len(evs)
		if len(evs) != j.PlatformRestarts {
			t.Errorf("backup of job %s: counter %d but %d events: not one snapshot", j.ID, j.PlatformRestarts, len(evs))
		}
		if all := liveDump.Events[j.ID]; len(all) < len(evs) || !reflect.DeepEqual(all[:len(evs)], evs) {
			t.Errorf("backup of job %s: events are not a prefix of the live ones", j.ID)
		}
	}
	for _, evs := range liveDump.Events {
		liveEvents += len(evs)
	}
	if liveEvents-restoredEvents < int(gate.more) {
		t.Errorf("live store has %d events, backup %d: the %d writes made during the backup should be missing from it",
			liveEvents, restoredEvents, gate.more)
	}

	// Once quiet, a backup restored over that store gives the live contents.
	_ = r.Close()
	var final strings.Builder
	if _, err := live.Backup(context.Background(), &final); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(backup, []byte(final.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Restore(backup, restored); err != nil {
		t.Fatal(err)
	}
	r = openT(t, restored, Options{NoSync: true})
	sameDump(t, "restore of a quiet store", dump(t, r), liveDump)
	if st, err := os.Stat(restored); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("restored file mode = %v, %v; want 0600", st.Mode().Perm(), err)
	}
	leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(restored), ".*restore*"))
	if len(leftovers) != 0 {
		t.Errorf("Restore left temp files: %v", leftovers)
	}
}

func TestRestoreRefusesBadBackups(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "palink.db")
	want := seededStore(t, target)

	seeded := func(t *testing.T, name string, edit func(tx *bolt.Tx) error) string {
		p := filepath.Join(t.TempDir(), name)
		seededStore(t, p)
		corrupt(t, p, edit)
		return p
	}
	text := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(text, []byte(strings.Repeat("hello\n", 2000)), 0o600); err != nil {
		t.Fatal(err)
	}
	bare := filepath.Join(dir, "bare.db")
	corrupt(t, bare, func(tx *bolt.Tx) error { _, err := tx.CreateBucket([]byte("other")); return err })

	cases := []struct {
		name, backup, reason string
		is                   error
	}{
		{"missing file", filepath.Join(dir, "nope.db"), "nope.db", os.ErrNotExist},
		{"not bbolt", text, "not a bbolt store", nil},
		{"not palink", bare, "no schema version", nil},
		{"newer schema", seeded(t, "newer.db", func(tx *bolt.Tx) error { return writeVersion(tx, SchemaVersion+1) }),
			fmt.Sprintf("store schema %d is newer than this palink", SchemaVersion+1), ErrSchema},
		{"broken index", seeded(t, "broken.db", func(tx *bolt.Tx) error {
			return tx.Bucket(bucketCommandsByState).Bucket([]byte("UNDO")).Delete(storedCommandID(tx, 5))
		}), "backup is damaged", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := Restore(c.backup, target)
			if err == nil {
				t.Fatal("Restore accepted it")
			}
			for _, s := range []string{target, c.reason} {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q lacks %q", err, s)
				}
			}
			if c.is != nil && !errors.Is(err, c.is) {
				t.Errorf("error %v does not match %v", err, c.is)
			}
			s := openT(t, target, Options{NoSync: true})
			sameDump(t, "target after a refused restore", dump(t, s), want)
			_ = s.Close()
			if left, _ := filepath.Glob(filepath.Join(dir, ".*restore*")); len(left) != 0 {
				t.Errorf("refused restore left %v", left)
			}
		})
	}
}

func TestRestoreRefusesOpenStore(t *testing.T) {
	dir := t.TempDir()
	backup := filepath.Join(dir, "backup.db")
	seededStore(t, backup)
	target := filepath.Join(dir, "palink.db")
	s := openT(t, target, Options{NoSync: true})
	update(t, s, func(tx Tx) error { return tx.CreateJob(sampleJob("mine", "mine")) })

	err := Restore(backup, target)
	wantErr(t, err, ErrLocked, target)
	view(t, s, func(tx ReadTx) error { _, err := tx.Job("mine"); return err })
}

func TestBackupCancelled(t *testing.T) {
	s := openT(t, filepath.Join(t.TempDir(), "palink.db"), Options{NoSync: true})
	update(t, s, seedFixture)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Backup(ctx, io.Discard); !errors.Is(err, context.Canceled) {
		t.Errorf("Backup with a cancelled ctx = %v", err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	cancelling := writerFunc(func(p []byte) (int, error) { cancel(); return len(p), nil })
	n, err := s.Backup(ctx, cancelling)
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), s.Path()) {
		t.Errorf("Backup cancelled midway = %d bytes, %v; want context.Canceled naming the store", n, err)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// storedCommandID is the id of the command with seq, read from the file.
func storedCommandID(tx *bolt.Tx, seq int64) []byte {
	k, _ := tx.Bucket(bucketCommands).Cursor().Seek([]byte(CommandID(seq)))
	if !commandIDHasSeq(k, seq) {
		return nil
	}
	return cloneBytes(k)
}
