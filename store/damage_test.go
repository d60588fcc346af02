package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/palink/palink/model"
)

// livePages lists the pages of a closed store that hold its tree (branch
// and leaf pages, not free ones), in file order, and the page size.
func livePages(t *testing.T, path string) ([]int, int) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var ids []int
	err = db.View(func(tx *bolt.Tx) error {
		for id := 2; ; {
			p, err := tx.Page(id)
			if err != nil || p == nil {
				return err
			}
			if p.Type == "branch" || p.Type == "leaf" {
				ids = append(ids, id)
			}
			id += 1 + p.OverflowCount
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return ids, db.Info().PageSize
}

// scribble overwrites the given pages of the file with random bytes, as a
// bad disk or a stray write would.
func scribble(t *testing.T, path string, pageSize int, pages ...int) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rnd := rand.New(rand.NewPCG(1, 2))
	junk := make([]byte, pageSize)
	for _, id := range pages {
		for i := range junk {
			junk[i] = byte(rnd.Uint32())
		}
		if _, err := f.WriteAt(junk, int64(id)*int64(pageSize)); err != nil {
			t.Fatal(err)
		}
	}
}

// bigStore writes n jobs, with commands and events, into a new store at
// path and closes it: enough that each bucket spans pages.
func bigStore(t *testing.T, path string, n int) {
	t.Helper()
	s := openT(t, path, Options{NoSync: true})
	update(t, s, func(tx Tx) error {
		for i := range n {
			id := fmt.Sprintf("j-%03d", i)
			if err := tx.CreateJob(sampleJob(id, "job-"+id)); err != nil {
				return err
			}
			if _, err := tx.PutCommand(sampleCommand(id, model.CmdSubmit, model.CmdSucceeded)); err != nil {
				return err
			}
			if _, err := tx.AppendEvent(model.Event{JobID: id, Time: t0, To: model.StateDeploying, Reason: "SUBMIT"}); err != nil {
				return err
			}
		}
		return nil
	})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

// wantDamage fails unless err is one line of ErrCorrupt naming the file,
// what is wrong, and the restore command for it.
func wantDamage(t *testing.T, err error, path, what string) {
	t.Helper()
	wantErr(t, err, ErrCorrupt, path, what, "restore it from a backup: palink --db "+path+" store restore BACKUP")
	if msg := err.Error(); strings.Contains(msg, "\n") || strings.Contains(msg, "panic") || strings.Contains(msg, "goroutine") {
		t.Errorf("error is not one clean line: %q", msg)
	}
}

func TestOpenRefusesDamagedFiles(t *testing.T) {
	cases := []struct {
		name, what string
		damage     func(t *testing.T, path string)
	}{
		{"empty", "it is empty (0 bytes)", func(t *testing.T, path string) {
			if err := os.Truncate(path, 0); err != nil {
				t.Fatal(err)
			}
		}},
		{"truncated to half", "it is truncated", func(t *testing.T, path string) {
			st, _ := os.Stat(path)
			if err := os.Truncate(path, st.Size()/2); err != nil {
				t.Fatal(err)
			}
		}},
		{"truncated inside the meta pages", "it is truncated: 5000 bytes", func(t *testing.T, path string) {
			if err := os.Truncate(path, 5000); err != nil {
				t.Fatal(err)
			}
		}},
		// Pages deeper in are found at first use
		// (TestDamageInsideIsFoundAtFirstUse): Open reads these.
		{"the tree's root page overwritten", "bbolt: ", func(t *testing.T, path string) {
			_, size := livePages(t, path)
			root, _ := metaOf(t, path)
			scribble(t, path, size, root)
		}},
		{"a bucket's root page overwritten", ", the root of bucket ", func(t *testing.T, path string) {
			_, size := livePages(t, path)
			roots := rootPages(t, path)
			scribble(t, path, size, roots[len(roots)/2])
		}},
		{"meta pages overwritten", "no bbolt header", func(t *testing.T, path string) {
			_, size := livePages(t, path)
			scribble(t, path, size, 0, 1)
		}},
		{"freelist page overwritten", "bbolt: invalid freelist page", func(t *testing.T, path string) {
			_, size := livePages(t, path)
			_, freelist := metaOf(t, path)
			scribble(t, path, size, freelist)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "palink.db")
			bigStore(t, path, 300)
			c.damage(t, path)
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, ro := range []bool{false, true} {
				s, err := Open(path, Options{ReadOnly: ro, NoSync: true})
				if err == nil {
					s.Close()
					t.Fatalf("Open(read-only %t) of a damaged file succeeded", ro)
				}
				wantDamage(t, err, path, c.what)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
				t.Error("a refused Open changed the file")
			}
			// Nothing is left locked: the backup goes back in place.
			backup := filepath.Join(t.TempDir(), "backup.db")
			want := seededStore(t, backup)
			if err := Restore(backup, path); err != nil {
				t.Fatalf("restore after the damage: %v", err)
			}
			sameDump(t, "restored", dump(t, openT(t, path, Options{NoSync: true})), want)
		})
	}
}

func TestOpenRefusesWhatIsNoStoreFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "palink.db")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, ro := range []bool{false, true} {
		_, err := Open(dir, Options{ReadOnly: ro})
		if err == nil || !strings.Contains(err.Error(), dir+": it is a directory, not a store file") || errors.Is(err, ErrCorrupt) {
			t.Errorf("Open(read-only %t) of a directory = %v, want it named as a directory, not damage", ro, err)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("Open wrote into the directory: %v", entries)
	}
}

func TestOpenCreatesWholeStoresOnly(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "palink.db")
	s := openT(t, path, Options{NoSync: true})
	if err := s.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("creating a store left %d files in its directory, want 1", len(entries))
	}
	_ = s.Close()

	// An empty file is not made into a store: it may be one that lost its contents.
	empty := filepath.Join(dir, "empty.db")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Open(empty, Options{NoSync: true})
	wantDamage(t, err, empty, "it is empty (0 bytes)")
	if !strings.Contains(err.Error(), "delete it to start a new one") {
		t.Errorf("error %q does not say how to start afresh", err)
	}
	if st, _ := os.Stat(empty); st.Size() != 0 {
		t.Errorf("Open wrote %d bytes into an empty file", st.Size())
	}
}

// TestViewOverDamagedPageIsErrCorrupt damages a page under an open store,
// past Open's look at it: bbolt panics as it reads the page, and the store
// returns ErrCorrupt instead; it then refuses to write.
func TestViewOverDamagedPageIsErrCorrupt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "palink.db")
	bigStore(t, path, 300)
	s := openT(t, path, Options{NoSync: true})
	var root int
	_ = s.db.View(func(tx *bolt.Tx) error { root = int(tx.Bucket(bucketJobs).Root()); return nil })
	if root == 0 {
		t.Fatal("the jobs bucket is inline: the test needs it on pages")
	}
	scribble(t, path, s.db.Info().PageSize, root)
	before, _ := os.ReadFile(path)

	err := s.View(context.Background(), func(tx ReadTx) error { _, err := tx.Jobs(); return err })
	wantDamage(t, err, path, "read store "+path+": the file is damaged: bbolt: ")

	err = s.Update(context.Background(), func(tx Tx) error { return tx.CreateJob(sampleJob("j-new", "new")) })
	wantDamage(t, err, path, "nothing is written to a damaged store")
	if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
		t.Error("an Update wrote to the damaged store")
	}
	// Reads that miss the damaged page still work.
	view(t, s, func(tx ReadTx) error { _, err := tx.Audit(0, 0); return err })
}

// TestCallerPanicIsNotDamage: only bbolt's panics are damage; one in the
// caller's own function is its bug, and goes on as it was.
func TestCallerPanicIsNotDamage(t *testing.T) {
	s := openT(t, filepath.Join(t.TempDir(), "palink.db"), Options{NoSync: true})
	var none []int
	var nilJob *model.Job
	bugs := map[string]func(){
		"panic":       func() { panic("caller bug") },
		"index":       func() { _ = none[3] },
		"nil pointer": func() { _ = nilJob.Name },
	}
	for name, bug := range bugs {
		for _, op := range []func(){
			func() { _ = s.View(context.Background(), func(ReadTx) error { bug(); return nil }) },
			func() { _ = s.Update(context.Background(), func(Tx) error { bug(); return nil }) },
		} {
			func() {
				defer func() {
					r := recover()
					if err, ok := r.(error); r == nil || ok && errors.Is(err, ErrCorrupt) {
						t.Errorf("%s in the caller's fn: recovered %v, want the caller's own panic", name, r)
					}
				}()
				op()
			}()
		}
	}
	update(t, s, func(tx Tx) error { return tx.CreateJob(sampleJob("j1", "a")) })
}

func TestCheckFileReports(t *testing.T) {
	path := filepath.Join(t.TempDir(), "palink.db")
	bigStore(t, path, 300)
	r, err := CheckFile(context.Background(), path, Options{})
	if err != nil || len(r.Problems) != 0 || r.Err() != nil {
		t.Fatalf("sound store: %+v, %v", r, err)
	}
	if r.Jobs != 300 || r.Commands != 300 || r.Schema != SchemaVersion || r.Size == 0 {
		t.Errorf("report of a sound store = %+v, want 300 jobs and commands at schema %d", r, SchemaVersion)
	}

	// A command missing from its state index: found by the record check.
	corrupt(t, path, func(tx *bolt.Tx) error {
		return tx.Bucket(bucketCommandsByState).Bucket([]byte("SUCCEEDED")).Delete(firstKey(tx, bucketCommands))
	})
	r, err = CheckFile(context.Background(), path, Options{})
	if err != nil || len(r.Problems) != 1 || !strings.Contains(r.Problems[0], "missing from the SUCCEEDED index") {
		t.Fatalf("broken index: %q, %v", r.Problems, err)
	}
	wantDamage(t, r.Err(), path, "1 problem found")

	// Overwritten pages, among them the root of the jobs bucket, which both
	// bbolt's page check and the record walk read: found, without a panic,
	// and each problem listed once.
	live, size := livePages(t, path)
	var jobsRoot int
	corrupt(t, path, func(tx *bolt.Tx) error { jobsRoot = int(tx.Bucket(bucketJobs).Root()); return nil })
	scribble(t, path, size, jobsRoot, live[len(live)/2])
	r, err = CheckFile(context.Background(), path, Options{})
	if err != nil || len(r.Problems) == 0 || !strings.HasPrefix(r.Problems[0], "bbolt: ") {
		t.Fatalf("overwritten pages: %q, %v", r.Problems, err)
	}
	if len(slices.Compact(slices.Sorted(slices.Values(r.Problems)))) != len(r.Problems) {
		t.Errorf("a problem is listed twice: %q", r.Problems)
	}

	st, _ := os.Stat(path)
	if err := os.Truncate(path, st.Size()/2); err != nil {
		t.Fatal(err)
	}
	r, err = CheckFile(context.Background(), path, Options{})
	if err != nil || len(r.Problems) != 1 || !strings.Contains(r.Problems[0], "it is truncated") {
		t.Fatalf("truncated: %q, %v", r.Problems, err)
	}

	if _, err := CheckFile(context.Background(), filepath.Join(t.TempDir(), "none.db"), Options{}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("CheckFile of a missing file = %v, want ErrNotExist", err)
	}
}

func firstKey(tx *bolt.Tx, bucket []byte) []byte {
	k, _ := tx.Bucket(bucket).Cursor().First()
	return cloneBytes(k)
}
