package localrun_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/localrun"
)

// With --out, every row goes to the file and the sink's count is all of
// them, but the run keeps only the first MaxDebugFinal in memory.
func TestDebuggerWithOutKeepsTheFirstRowsAndCountsThemAll(t *testing.T) {
	const rows = api.MaxDebugFinal + 500
	dir := t.TempDir()
	var b strings.Builder
	for i := range rows {
		fmt.Fprintf(&b, `{"id": %d}`+"\n", i)
	}
	data := filepath.Join(dir, "orders.jsonl")
	if err := os.WriteFile(data, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.jsonl")
	evs := drain(t, mustDebug(t, &localrun.Debugger{}, api.DebugRequest{
		SQL:  `CREATE TABLE orders (id BIGINT) WITH ('connector' = 'kafka', 'format' = 'json'); SELECT id * 2 AS twice FROM orders`,
		Data: map[string]string{"orders": data}, Out: out}))
	fin := evs[len(evs)-1]
	if fin.Kind != api.DebugFinished || fin.Err != nil {
		t.Fatalf("last event %v, error %v", fin.Kind, fin.Err)
	}
	if len(fin.Sinks) != 1 || fin.Sinks[0].Rows != rows {
		t.Fatalf("sinks %+v: want one with %d rows", fin.Sinks, rows)
	}
	var kept strings.Builder
	if err := fin.Output.WriteRows(&kept, 0); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(kept.String(), "\n"); n != api.MaxDebugFinal {
		t.Errorf("the run kept %d rows in memory, want the first %d", n, api.MaxDebugFinal)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n, last := 0, ""
	for sc.Scan() {
		n, last = n+1, sc.Text()
	}
	if n != rows || last != fmt.Sprintf(`{"twice":%d}`, 2*(rows-1)) {
		t.Errorf("the file has %d rows, the last %s; want %d, the last twice = %d", n, last, rows, 2*(rows-1))
	}
}
