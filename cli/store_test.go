package cli

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/palink/palink/yarn/sim"
)

// storeConfig writes a config whose store is dir/palink.db and whose
// cluster is never reached: the tests here only read and write the store.
func storeConfig(t *testing.T, dir string) (config, db string) {
	t.Helper()
	db = filepath.Join(dir, "palink.db")
	config = filepath.Join(dir, "config.yaml")
	yaml := "store: " + db + "\nsocket: " + filepath.Join(dir, "agent.sock") + `
clusters:
  - name: prod
    rm: [http://127.0.0.1:9]
    sql_gateway: http://127.0.0.1:9
    user: ops
    deploy:
      mode: yarn-per-job
      savepoint_dir: hdfs:///flink/savepoints
`
	if err := os.WriteFile(config, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return config, db
}

// runMain runs palink as a process of its own (this test binary, or bin if
// given), as cred if given, and returns its combined output and exit code.
func runMain(t *testing.T, bin string, cred *syscall.Credential, args ...string) (string, int) {
	t.Helper()
	if bin == "" {
		bin = os.Args[0]
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(os.Environ(), "PALINK_BE_MAIN=1", "GORACE=atexit_sleep_ms=0")
	if cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	}
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out), ee.ExitCode()
	}
	if err != nil {
		t.Fatalf("run %s: %v", strings.Join(args, " "), err)
	}
	return string(out), 0
}

// boltMeta reads what the newer of a bbolt file's two meta pages says: the
// page size, the root bucket's page and the page count. (The layout is
// bbolt's on-disk format: a 16-byte page header, then magic, version, page
// size, flags, root page, root sequence, freelist page, page count, txid.)
func boltMeta(t *testing.T, path string) (pageSize, root, pages int64) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var txid uint64
	for _, off := range []int64{0, 4096} {
		m := make([]byte, 80)
		if _, err := f.ReadAt(m, off); err != nil {
			t.Fatal(err)
		}
		le := binary.LittleEndian
		if le.Uint32(m[16:]) != 0xED0CDAED || le.Uint64(m[64:]) < txid {
			continue
		}
		txid = le.Uint64(m[64:])
		pageSize, root, pages = int64(le.Uint32(m[24:])), int64(le.Uint64(m[32:])), int64(le.Uint64(m[56:]))
	}
	if pageSize == 0 {
		t.Fatalf("%s has no bbolt meta page", path)
	}
	return pageSize, root, pages
}

// scribblePages overwrites pages of the file with random bytes: the root
// bucket's page, which every read goes through, and two in the middle.
func scribblePages(t *testing.T, path string) {
	t.Helper()
	size, root, pages := boltMeta(t, path)
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rnd := rand.New(rand.NewPCG(3, 4))
	for _, id := range []int64{root, pages / 2, pages/2 + 1} {
		junk := make([]byte, size)
		for i := range junk {
			junk[i] = byte(rnd.Uint32())
		}
		if _, err := f.WriteAt(junk, id*size); err != nil {
			t.Fatal(err)
		}
	}
}

// copyForNobody prepares dir so that another user can run palink in it (a copy of
// this binary, the config readable, the directories searchable, the store
// file left 0600 and root's) and returns the binary and that user. Root
// reads any file, so only another user meets the file's mode.
func copyForNobody(t *testing.T, dir string) (string, *syscall.Credential) {
	t.Helper()
	if os.Getuid() != 0 {
		return "", nil // not root: the caller takes its own read permission away
	}
	bin := filepath.Join(dir, "palink")
	in, err := os.Open(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(bin, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	for d := dir; d != "/" && d != os.TempDir(); d = filepath.Dir(d) {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return bin, &syscall.Credential{Uid: 65534, Gid: 65534}
}

// TestCLIDamagedStore: every way a store file can be unusable gives one
// line that names the file, what is wrong and what to do, and a non-zero
// exit; never a Go panic with its goroutine trace, never an empty store.
func TestCLIDamagedStore(t *testing.T) {
	if testing.Short() {
		t.Skip("runs palink processes")
	}
	cases := []struct {
		name   string
		damage func(t *testing.T, dir, db string) (bin string, cred *syscall.Credential)
		want   []string
	}{
		{"truncated", func(t *testing.T, _, db string) (string, *syscall.Credential) {
			st, _ := os.Stat(db)
			if err := os.Truncate(db, st.Size()/2); err != nil {
				t.Fatal(err)
			}
			return "", nil
		}, []string{"the file is damaged: it is truncated", "restore it from a backup: palink --db "}},
		{"zero length", func(t *testing.T, _, db string) (string, *syscall.Credential) {
			if err := os.Truncate(db, 0); err != nil {
				t.Fatal(err)
			}
			return "", nil
		}, []string{"the file is damaged: it is empty (0 bytes)", "restore it from a backup: palink --db "}},
		{"pages overwritten", func(t *testing.T, _, db string) (string, *syscall.Credential) {
			scribblePages(t, db)
			return "", nil
		}, []string{"the file is damaged: bbolt: ", "restore it from a backup: palink --db "}},
		{"a directory", func(t *testing.T, _, db string) (string, *syscall.Credential) {
			if err := os.Remove(db); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(db, 0o755); err != nil {
				t.Fatal(err)
			}
			return "", nil
		}, []string{"it is a directory, not a store file"}},
		{"unreadable", func(t *testing.T, dir, db string) (string, *syscall.Credential) {
			bin, cred := copyForNobody(t, dir)
			if cred == nil {
				if err := os.Chmod(db, 0); err != nil {
					t.Fatal(err)
				}
			}
			return bin, cred
		}, []string{"permission denied", "run palink as the file's owner"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			config, db := storeConfig(t, dir)
			sql := writeTemp(t, "job.sql", e2eSQL)
			for _, name := range []string{"orders", "clicks", "payments"} {
				if _, stderr, err := runCLI(t, "--config", config, "job", "create", "--name", name, "--sql", sql); err != nil {
					t.Fatalf("job create: %v\n%s", err, stderr)
				}
			}
			bin, cred := c.damage(t, dir, db)
			before, _ := os.ReadFile(db)
			for _, args := range [][]string{{"jobs"}, {"commands"}, {"job", "show", "orders"}, {"--read-only", "jobs"}} {
				out, code := runMain(t, bin, cred, append([]string{"--config", config}, args...)...)
				line := strings.TrimSuffix(out, "\n")
				if code == 0 || strings.Contains(line, "\n") || !strings.HasPrefix(line, "palink: ") ||
					strings.Contains(out, "goroutine") || strings.Contains(out, "panic") {
					t.Errorf("palink %s: exit %d, output:\n%s\nwant one line of error and a non-zero exit", strings.Join(args, " "), code, out)
					continue
				}
				for _, w := range append([]string{db}, c.want...) {
					if !strings.Contains(line, w) {
						t.Errorf("palink %s said %q, which lacks %q", strings.Join(args, " "), line, w)
					}
				}
			}
			if after, _ := os.ReadFile(db); string(after) != string(before) {
				t.Error("a palink that refused the store changed its file")
			}
		})
	}
}

// TestCLIStoreCheck: `palink store check` says ok for a sound store, lists
// what it found in a damaged one and exits 1, and checks through the agent
// when one owns the store.
func TestCLIStoreCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("runs palink processes")
	}
	dir := t.TempDir()
	config, db := storeConfig(t, dir)
	sql := writeTemp(t, "job.sql", e2eSQL)
	if _, stderr, err := runCLI(t, "--config", config, "job", "create", "--name", "orders", "--sql", sql); err != nil {
		t.Fatalf("job create: %v\n%s", err, stderr)
	}
	out, code := runMain(t, "", nil, "--config", config, "store", "check")
	if code != 0 || !strings.HasPrefix(out, db+": ok: schema ") || !strings.Contains(out, "1 job, 0 commands") {
		t.Fatalf("store check of a sound store: exit %d\n%s", code, out)
	}

	scribblePages(t, db)
	out, code = runMain(t, "", nil, "--config", config, "store", "check")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 1 || len(lines) < 3 || !strings.Contains(out, db+": ") || !strings.Contains(out, "\n  bbolt: ") ||
		strings.Contains(out, "goroutine") || strings.Contains(out, "panic") {
		t.Fatalf("store check of a damaged store: exit %d\n%s", code, out)
	}
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "palink: check store "+db+": the file is damaged: ") ||
		!strings.Contains(last, "restore it from a backup: palink --db "+db+" store restore BACKUP") {
		t.Errorf("last line %q, want the damage and the restore command", last)
	}
}

// TestCLIStoreCheckThroughAgent: while an agent owns the store, no other
// palink may open it; store check checks a snapshot the agent takes.
func TestCLIStoreCheckThroughAgent(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	e := newCLIEnv(t, sim.Options{}, nil)
	sqlFile := writeTemp(t, "job.sql", e2eSQL)
	e.mustRun("job", "create", "--name", "orders", "--sql", sqlFile)
	ctx, cancel := context.WithCancel(context.Background())
	agentDone := make(chan error, 1)
	go func() { _, err := e.run(ctx, "agent"); agentDone <- err }()
	defer func() { cancel(); <-agentDone }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		out, code := runMain(t, "", nil, "--config", e.config, "store", "check")
		if code == 0 && strings.Contains(out, "(a snapshot taken through the agent): ok:") && strings.Contains(out, "1 job") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("store check with an agent: exit %d\n%s", code, out)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// TestCLIRestoreAfterDamage: a backup taken with `palink store backup`
// comes back after the store is damaged, by running exactly the command the
// damage error gives: jobs, commands and events as they were.
func TestCLIRestoreAfterDamage(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	e := newCLIEnv(t, sim.Options{}, nil)
	sqlFile := writeTemp(t, "job.sql", e2eSQL)
	e.mustRun("job", "create", "--name", "orders", "--sql", sqlFile)
	e.mustRun("job", "create", "--name", "clicks", "--sql", sqlFile)
	e.mustRun("job", "submit", "orders", "--wait")
	// What the store holds, read without syncing anything.
	contents := func() string {
		return e.mustRun("jobs", "-o", "json") + e.mustRun("commands", "-o", "json") +
			e.mustRun("job", "history", "orders", "-o", "json") + e.mustRun("job", "history", "clicks", "-o", "json")
	}
	var history struct{ Events, Commands []json.RawMessage }
	if err := decodeWire([]byte(e.mustRun("job", "history", "orders", "-o", "json")), &history); err != nil {
		t.Fatal(err)
	}
	if len(history.Commands) == 0 || len(history.Events) < 2 {
		t.Fatalf("the job has %d commands and %d events; the test needs some", len(history.Commands), len(history.Events))
	}
	want := contents()

	backup := filepath.Join(t.TempDir(), "backup.db")
	e.mustRun("store", "backup", backup)
	db := filepath.Join(filepath.Dir(e.config), "palink.db")
	st, _ := os.Stat(db)
	if err := os.Truncate(db, st.Size()/2); err != nil {
		t.Fatal(err)
	}

	out, code := runMain(t, "", nil, "--config", e.config, "jobs")
	_, advice, ok := strings.Cut(strings.TrimSpace(out), "restore it from a backup: ")
	if code == 0 || !ok {
		t.Fatalf("palink jobs on the damaged store: exit %d\n%s", code, out)
	}
	advice, _, _ = strings.Cut(advice, " (")
	args := strings.Fields(strings.Replace(advice, "BACKUP", backup, 1))
	if args[0] != "palink" {
		t.Fatalf("advice %q is not a palink command", advice)
	}
	if out, code := runMain(t, "", nil, args[1:]...); code != 0 {
		t.Fatalf("%s: exit %d\n%s", strings.Join(args, " "), code, out)
	}

	if got := contents(); got != want {
		t.Errorf("the store after the restore holds:\n%s\nwant:\n%s", got, want)
	}
}
