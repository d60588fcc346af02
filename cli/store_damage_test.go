package cli

import (
	"bytes"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// scribblePageWith overwrites, with random bytes, the page of the store
// file that holds marker: a page deep in the store's tree, which Open does
// not look at.
func scribblePageWith(t *testing.T, path, marker string) {
	t.Helper()
	size, _, _ := boltMeta(t, path)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	at := bytes.Index(data, []byte(marker))
	if at < 0 {
		t.Fatalf("%s does not hold %q", path, marker)
	}
	page := int64(at) / size
	junk := make([]byte, size)
	rnd := rand.New(rand.NewPCG(5, 6))
	for i := range junk {
		junk[i] = byte(rnd.Uint32())
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(junk, page*size); err != nil {
		t.Fatal(err)
	}
}

// TestCLIDamageDeepInTheStore: opening the store looks at the pages every
// read starts from, at the same cost for any size, so a page damaged deeper
// in (a job's spec here) is found by the first command that reads it, with
// the one line of a damaged store; a command that does not read it works.
// The agent walks every page once after it starts, and stops with that line.
func TestCLIDamageDeepInTheStore(t *testing.T) {
	if testing.Short() {
		t.Skip("runs palink processes")
	}
	dir := t.TempDir()
	config, db := storeConfig(t, dir)
	const marker = "-- the spec of orders, kept on pages of its own"
	sql := writeTemp(t, "job.sql", e2eSQL+marker+"\n"+strings.Repeat("-- "+strings.Repeat("x", 76)+"\n", 200))
	for _, name := range []string{"orders", "clicks"} {
		if _, stderr, err := runCLI(t, "--config", config, "job", "create", "--name", name, "--sql", sql); err != nil {
			t.Fatalf("job create: %v\n%s", err, stderr)
		}
	}
	scribblePageWith(t, db, marker)
	damaged := func(what, out string, code int) {
		t.Helper()
		lines := strings.Split(strings.TrimSpace(out), "\n")
		last := lines[len(lines)-1]
		if code != 1 || !strings.HasPrefix(last, "palink: ") || !strings.Contains(last, db+": the file is damaged: ") ||
			!strings.Contains(last, "restore it from a backup: palink --db "+db+" store restore BACKUP") ||
			strings.Contains(out, "goroutine") || strings.Contains(out, "panic:") {
			t.Errorf("%s: exit %d, output:\n%s\nwant exit 1 and the damage with the restore command", what, code, out)
		}
	}

	if out, code := runMain(t, "", nil, "--config", config, "jobs"); code != 0 || !strings.Contains(out, "orders") {
		t.Errorf("palink jobs, which reads no spec: exit %d\n%s", code, out)
	}
	out, code := runMain(t, "", nil, "--config", config, "job", "show", "orders")
	damaged("palink job show orders", out, code)
	out, code = runMain(t, "", nil, "--config", config, "agent")
	damaged("palink agent", out, code)
	if !strings.Contains(out, "check store "+db) {
		t.Errorf("palink agent said:\n%s\nwant its walk of every page (check store) to name the damage", out)
	}
}
