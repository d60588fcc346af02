package demo

import (
	"bufio"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	_ "modernc.org/sqlite" // the demo's dimension table, without cgo

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/localrun"
)

// dimURL is the lookup table's database in the demo's SQL, as a real
// job names it; debug runs are redirected to the demo's SQLite copy.
const dimURL = "jdbc:mysql://dim-db:3306/app"

var userNames = []string{"Ada", "Grace", "Linus", "Margaret", "Ken", "Barbara", "Dennis", "Frances",
	"Edsger", "Radia", "Tim", "Hedy", "Alan", "Katherine", "John", "Sophie", "Niklaus", "Shafi", "Leslie", "Joan"}

// writeData writes the demo's debug data into dir: sample input of the
// fleet's Kafka sources (orders, payments), and the users dimension table
// its lookup joins read, in an SQLite file. It returns the debugger that
// uses them, and offers a stand-in for the demo's UDF, so that ctrl-d in
// the editor gives rows at once.
func writeData(dir string) (*localrun.Debugger, error) {
	samples := filepath.Join(dir, "samples")
	if err := os.MkdirAll(samples, 0o700); err != nil {
		return nil, err
	}
	// 400 orders of 60 users, of whom the table knows 50: some lookups miss.
	if err := writeLines(filepath.Join(samples, "orders.jsonl"), 400, func(i int) string {
		return fmt.Sprintf(`{"order_id": %d, "user_id": %d, "amount": %d.%02d}`, 1000+i, 1+(i*7)%60, 5+(i*37)%240, (i*13)%100)
	}); err != nil {
		return nil, err
	}
	// Payments arrive a second apart, one in ten twice (the dedup job's reason to be).
	if err := writeLines(filepath.Join(samples, "payments.jsonl"), 400, func(i int) string {
		id := i - i/10
		return fmt.Sprintf(`{"payment_id": "p-%05d", "amount": %d.5, "ts": "2026-12-01 09:%02d:%02d.000"}`, id, 3+(id*29)%400, (i/60)%60, i%60)
	}); err != nil {
		return nil, err
	}
	db := filepath.Join(dir, "dim.db")
	if err := writeUsers(db); err != nil {
		return nil, err
	}
	return &localrun.Debugger{Samples: []string{samples}, Databases: map[string]string{dimURL: "jdbc:sqlite:" + db},
		StandIns: standIns}, nil
}

func writeLines(path string, n int, line func(i int) string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	for i := range n {
		fmt.Fprintln(w, line(i))
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func writeUsers(path string) error {
	db, err := sql.Open("sqlite", path)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.Exec("CREATE TABLE users (id BIGINT PRIMARY KEY, name TEXT NOT NULL)"); err != nil {
		return fmt.Errorf("demo dimension table: %w", err)
	}
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	for id := 1; id <= 50; id++ {
		name := fmt.Sprintf("%s %c.", userNames[(id-1)%len(userNames)], 'A'+rune((id-1)/len(userNames)))
		if _, err := tx.Exec("INSERT INTO users VALUES (?, ?)", id, name); err != nil {
			tx.Rollback()
			return err
		}
	}
	return tx.Commit()
}

// DebugLimit is the rows per sink of `palink debug --demo` unless --limit
// says otherwise.
const DebugLimit = 20

// Debug is what `palink debug --demo NAME` runs: the SQL of the demo job
// NAME (orders-enrich-3 is an orders-enrich), and a debugger on the demo's
// data written into a temporary directory that cleanup removes.
func Debug(name string) (sql string, dbg api.Debugger, cleanup func(), err error) {
	var names []string
	for _, j := range fleet {
		names = append(names, j.name)
		if name == j.name || strings.HasPrefix(name, j.name+"-") {
			sql = j.sql
		}
	}
	if sql == "" {
		return "", nil, nil, fmt.Errorf("no demo job %q: want one of %s", name, strings.Join(names, ", "))
	}
	dir, err := os.MkdirTemp("", "palink-demo-debug-")
	if err != nil {
		return "", nil, nil, err
	}
	cleanup = func() { os.RemoveAll(dir) }
	d, err := writeData(dir)
	if err != nil {
		cleanup()
		return "", nil, nil, err
	}
	return sql, d, cleanup, nil
}
