package store

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// What bbolt allows, checked below: flock is per open file, so a second Open
// conflicts even in the same process; a writer excludes everyone; read-only
// stores share the lock with each other but not with a writer.

const shortLock = 150 * time.Millisecond

func TestLockSameProcess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "palink.db")
	openT(t, path, Options{NoSync: true})

	start := time.Now()
	_, err := Open(path, Options{LockTimeout: shortLock})
	waited := time.Since(start)
	wantErr(t, err, ErrLocked, path, "--db", "palink agent")
	if waited < shortLock-50*time.Millisecond {
		t.Errorf("Open gave up after %v, want about the %v LockTimeout", waited, shortLock)
	}
	if runtime.GOOS == "linux" {
		wantErr(t, err, ErrLocked, fmt.Sprintf("this palink (pid %d)", os.Getpid()))
	}

	_, err = Open(path, Options{ReadOnly: true, LockTimeout: shortLock})
	wantErr(t, err, ErrLocked, path, "palink agent")
}

// noReadOnlyAdvice fails if a locked error offers --read-only: it cannot
// share a store with the writer that holds it.
func noReadOnlyAdvice(t *testing.T, err error) {
	t.Helper()
	if strings.Contains(err.Error(), "--read-only") {
		t.Errorf("error %q offers --read-only, which cannot share a store with a writer", err)
	}
}

func TestLockReadOnlyBlocksWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "palink.db")
	w := openT(t, path, Options{NoSync: true})
	_ = w.Close()
	openT(t, path, Options{ReadOnly: true})
	openT(t, path, Options{ReadOnly: true, LockTimeout: -1})
	_, err := Open(path, Options{LockTimeout: -1})
	wantErr(t, err, ErrLocked, path)
}

func TestLockWaitsForRelease(t *testing.T) {
	path := filepath.Join(t.TempDir(), "palink.db")
	first, err := Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	released := make(chan struct{})
	go func() {
		defer close(released)
		time.Sleep(200 * time.Millisecond)
		_ = first.Close()
	}()
	start := time.Now()
	second := openT(t, path, Options{LockTimeout: 5 * time.Second})
	<-released
	if waited := time.Since(start); waited < 150*time.Millisecond {
		t.Errorf("second Open returned after %v, before the first store was closed", waited)
	}
	update(t, second, func(tx Tx) error { return tx.CreateJob(sampleJob("j1", "a")) })
}

// TestLockHolderProcess is not a test: it is the other palink of
// TestLockAcrossProcesses, run as a child process. It opens the store named
// in the environment, says "locked", and holds it until its stdin closes.
func TestLockHolderProcess(t *testing.T) {
	path := os.Getenv("PALINK_STORE_HOLD")
	if path == "" {
		t.Skip("helper process for TestLockAcrossProcesses")
	}
	b, err := Open(path, Options{ReadOnly: os.Getenv("PALINK_STORE_HOLD_RO") != ""})
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println("locked")
	_, _ = io.Copy(io.Discard, os.Stdin)
	_ = b.Close()
	os.Exit(0)
}

// holdInChild starts a child process holding the store at path and returns
// its pid and a function that makes it let go and exit.
func holdInChild(t *testing.T, path string, readOnly bool) (int, func()) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockHolderProcess$")
	// The race detector otherwise sleeps a second at exit.
	cmd.Env = append(os.Environ(), "PALINK_STORE_HOLD="+path, "GORACE=atexit_sleep_ms=0")
	if readOnly {
		cmd.Env = append(cmd.Env, "PALINK_STORE_HOLD_RO=1")
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	release := func() {
		_ = stdin.Close()
		_ = cmd.Wait()
	}
	t.Cleanup(release)
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if strings.TrimSpace(line) != "locked" {
		t.Fatalf("helper process said %q, %v", line, err)
	}
	return cmd.Process.Pid, release
}

func TestLockAcrossProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	path := filepath.Join(t.TempDir(), "palink.db")
	pid, release := holdInChild(t, path, false)

	// A writer holds it: the advice is to wait, stop it, or share it through
	// an agent; --read-only would fail too, so it is not offered.
	_, err := Open(path, Options{LockTimeout: shortLock})
	wantErr(t, err, ErrLocked, path, "wait for it to finish or stop it", "run `palink agent`")
	noReadOnlyAdvice(t, err)
	if runtime.GOOS == "linux" {
		wantErr(t, err, ErrLocked, fmt.Sprintf("another palink (pid %d) holds %s", pid, path))
	}
	_, err = Open(path, Options{ReadOnly: true, LockTimeout: shortLock})
	wantErr(t, err, ErrLocked, path, "wait for it to finish or stop it", "run `palink agent`")
	noReadOnlyAdvice(t, err)

	release()
	b := openT(t, path, Options{LockTimeout: shortLock})
	update(t, b, func(tx Tx) error { return tx.CreateJob(sampleJob("j1", "a")) })
	_ = b.Close()

	// A read-only palink elsewhere: a writer may not join, and is told to
	// come in read-only; following that advice works.
	_, release = holdInChild(t, path, true)
	_, err = Open(path, Options{LockTimeout: shortLock})
	wantErr(t, err, ErrLocked, path)
	if runtime.GOOS == "linux" {
		wantErr(t, err, ErrLocked, "open read-only", "--read-only too")
	}
	ro := openT(t, path, Options{ReadOnly: true, LockTimeout: shortLock})
	view(t, ro, func(tx ReadTx) error { _, err := tx.Job("j1"); return err })
	_ = ro.Close()
	release()
}

func TestLockedErrorMatches(t *testing.T) {
	err := lockedError("/x/palink.db", false, time.Second)
	if !errors.Is(err, ErrLocked) || strings.Contains(err.Error(), ErrLocked.Error()) {
		t.Errorf("lockedError = %q: must match ErrLocked without repeating its text", err)
	}
}
