package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/palink/palink/config"
	"github.com/palink/palink/internal/etcdtest"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn/sim"
)

// --read-only, proven by enumeration: every runnable command of the CLI
// has an example here (a command without one fails the test), and each is
// run twice on its own copy of one store: with --read-only, which must
// leave the store and the cluster as they were; then without, which shows
// whether it writes. A command that wrote must have refused under
// --read-only, saying so. So `store restore`, or any command added later
// that writes behind api.Service's back, cannot ignore --read-only.

// roExample is a command's arguments (after its path), made on the fixture.
type roExample struct {
	args func(f *roFixture) []string
	// run bounds a command that runs until interrupted (agent, sync).
	run time.Duration
	// fails: the example fails without --read-only too, and why.
	fails string
	// skip: the command does not open the user's store at all, and why.
	skip string
	// syncs: it writes what it reads of the cluster into the store, as
	// state sync does (opening a job syncs it): allowed under --read-only,
	// where it reads without keeping.
	syncs bool
}

type roFixture struct {
	dir, sql, table, table2, udf, backup, savepoint, appID, brokers, vertex string
	// etcd is a store on etcd to migrate into: a new prefix each call,
	// on one member started at the first.
	etcd func() string
}

func job(args ...string) func(*roFixture) []string {
	return func(*roFixture) []string { return args }
}

var roExamples = map[string]roExample{
	"palink adopt":              {args: func(f *roFixture) []string { return []string{f.appID, "--name", "adopted"} }},
	"palink agent":              {args: job(), run: 2 * time.Second},
	"palink agent status":       {args: job()},
	"palink alerts ack":         {args: job("job-failed", "walk-failed")},
	"palink alerts silence":     {args: job("job-failed", "walk-failed", "--for", "1h")},
	"palink alerts unsilence":   {args: job("job-failed", "walk-failed")},
	"palink cluster":            {args: job()},
	"palink commands":           {args: job()},
	"palink config check":       {args: job()},
	"palink debug":              {args: func(f *roFixture) []string { return []string{f.sql, "--limit", "2"} }},
	"palink demo":               {skip: "runs on a throwaway store of its own"},
	"palink sim":                {skip: "a simulated cluster; no store"},
	"palink job checkpoints":    {args: job("walk")},
	"palink job config":         {args: job("walk")},
	"palink job container-logs": {args: job("walk")},
	"palink job create": {args: func(f *roFixture) []string {
		return []string{"--name", "created", "--sql", f.sql}
	}},
	"palink job edit":       {args: func(f *roFixture) []string { return []string{"walk", "--sql", f.sql} }},
	"palink job exceptions": {args: job("walk")},
	"palink job flamegraph": {args: func(f *roFixture) []string { return []string{"walk", f.vertex, "--wait", "0s"} }},
	"palink job graph":      {args: job("walk")},
	"palink job metrics":    {args: job("walk")},
	"palink job chart":      {args: job("walk", "uptime")},
	"palink job history":    {args: job("walk")},
	"palink job kill":       {args: job("walk-kill", "--yes", "--wait")},
	"palink job pause":      {args: job("walk-pause", "--wait")},
	"palink job restart":    {args: job("walk-restart", "--wait")},
	"palink job resubmit":   {args: job("walk-resubmit", "--restore", "none", "--yes", "--wait")},
	"palink job savepoint":  {args: job("walk", "--wait")},
	"palink job savepoints": {args: job("walk")},
	"palink job show":       {args: job("walk"), syncs: true},
	"palink job submit":     {args: job("walk-new", "--wait")},
	"palink job vertices":   {args: job("walk")},
	"palink jobs":           {args: job()},
	"palink logs":           {args: job("walk")},
	"palink project add": {args: func(f *roFixture) []string {
		return []string{"p2", "--repo", filepath.Join(f.dir, "none.git"), "--build", "true", "--artifact", "x.jar"}
	}},
	"palink project artifacts": {args: job("walk-proj")},
	"palink project build":     {args: job("walk-proj"), fails: "the project's repository does not exist: the failed build is audited"},
	"palink project list":      {args: job()},
	"palink savepoint dispose": {args: func(f *roFixture) []string { return []string{f.savepoint, "--force", "--yes"} }},
	"palink sql check":         {args: func(f *roFixture) []string { return []string{f.sql} }},
	"palink sql complete":      {args: func(f *roFixture) []string { return []string{f.sql, "--line", "1", "--col", "1"} }},
	"palink sql fmt":           {args: func(f *roFixture) []string { return []string{f.sql} }},
	"palink store backup":      {args: job("{new}")},
	"palink store check":       {args: job()},
	"palink store compact":     {args: job()},
	"palink store restore":     {args: func(f *roFixture) []string { return []string{f.backup} }},
	"palink store migrate":     {args: job("--to", "{etcd}")},
	"palink sync":              {args: job(), run: 2 * time.Second},
	"palink table add":         {args: func(f *roFixture) []string { return []string{"t2", "--sql", f.table2} }},
	"palink table edit":        {args: func(f *roFixture) []string { return []string{"walk_fixed", "--sql", f.table} }},
	"palink table import": {args: func(f *roFixture) []string {
		return []string{"clicks", "--kafka", f.brokers, "--topic", "clicks", "--yes"}
	}},
	"palink table list":   {args: job()},
	"palink table rm":     {args: job("walk_fixed", "--yes")},
	"palink table show":   {args: job("walk_fixed")},
	"palink taskmanagers": {args: job("walk")},
	"palink udf add": {args: func(f *roFixture) []string {
		return []string{"fn2", "--class", "walk.fn", "--language", "python", "--py", f.udf}
	}},
	"palink udf list": {args: job()},
	// Teams, who one is, the audit log, and palink over SSH (cli/team.go, cli/serve.go).
	"palink team add":     {args: job("t-new", "--owns", "sim/dev")},
	"palink team grant":   {args: job("walk-team", "bob", "operator")},
	"palink team members": {args: job("walk-team")},
	"palink team list":    {args: job()},
	"palink whoami":       {args: job()},
	"palink audit":        {args: job("--since", "1h")},
	"palink serve": {args: func(f *roFixture) []string {
		return []string{"--ssh", "127.0.0.1:0", "--host-key", "{new}", "--authorized-keys", filepath.Join(f.dir, "authorized_keys")}
	}, run: 2 * time.Second},
	"palink udf rm":   {args: job("walk_fn")},
	"palink var list": {args: job()},
	"palink var rm":   {args: job("walk_v")},
	"palink var set":  {args: job("walk_v", "2")},
}

// leaves are the runnable commands without subcommands.
func leaves(c *cobra.Command) []*cobra.Command {
	var out []*cobra.Command
	if c.Runnable() && !c.HasSubCommands() {
		out = append(out, c)
	}
	for _, s := range c.Commands() {
		out = append(out, leaves(s)...)
	}
	return out
}

func fileSum(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// settle waits until no application is on its way somewhere by itself:
// starting, or a JobManager lingering after its job ended (a pause), so
// that only the command under test changes the cluster.
func settle(t *testing.T, c *sim.Cluster) {
	t.Helper()
	moving := func() bool {
		for _, a := range c.Apps() {
			switch a.State {
			case "NEW", "NEW_SAVING", "SUBMITTED", "ACCEPTED":
				return true
			case "RUNNING":
				ended := len(a.Jobs) > 0
				for _, j := range a.Jobs {
					switch j.State {
					case "FINISHED", "CANCELED", "FAILED":
					case "RUNNING", "SUSPENDED":
						ended = false
					default: // CREATED, INITIALIZING, RESTARTING, CANCELLING, …
						return true
					}
				}
				if ended {
					return true
				}
			}
		}
		return false
	}
	for deadline := time.Now().Add(time.Minute); moving(); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the cluster does not settle:\n%s", clusterState(c))
		}
	}
}

// clusterState is what the simulator runs: every application and its state.
func clusterState(c *sim.Cluster) string {
	var b strings.Builder
	for _, a := range c.Apps() {
		fmt.Fprintf(&b, "%s %s %s", a.ID, a.State, a.FinalStatus)
		for _, j := range a.Jobs {
			fmt.Fprintf(&b, " %s", j.State)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func TestEveryCommandThatWritesRefusesReadOnly(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	var missing []string
	all := leaves(newRootCmd())
	for _, c := range all {
		if _, ok := roExamples[c.CommandPath()]; !ok {
			missing = append(missing, c.CommandPath())
		}
	}
	if len(missing) > 0 {
		t.Fatalf("commands without an example in readonly_test.go (say how to run each, or why it opens no store): %s", strings.Join(missing, ", "))
	}
	e, f := newReadOnlyFixture(t)
	cfgStore := e.storePath()
	for _, c := range all {
		path := c.CommandPath()
		ex := roExamples[path]
		if ex.skip != "" {
			continue
		}
		t.Run(strings.TrimPrefix(path, "palink "), func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "palink.db")
			copyFile(t, cfgStore, db)
			args := append(strings.Fields(strings.TrimPrefix(path, "palink")), ex.args(f)...)
			run := func(readOnly bool) error {
				a := []string{"--db", db}
				for _, x := range args {
					switch x {
					case "{new}":
						x = filepath.Join(t.TempDir(), "new")
					case "{etcd}":
						x = f.etcd()
					}
					a = append(a, x)
				}
				if readOnly {
					a = append([]string{"--read-only"}, a...)
				}
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				if ex.run > 0 {
					ctx, cancel = context.WithTimeout(context.Background(), ex.run)
				}
				defer cancel()
				_, err := e.run(ctx, a...)
				if ex.run > 0 && ctx.Err() != nil {
					return nil // ran until interrupted
				}
				return err
			}
			settle(t, e.sim)
			before, cluster := fileSum(t, db), clusterState(e.sim)
			roErr := run(true)
			if fileSum(t, db) != before {
				t.Errorf("%s --read-only changed the store (%v)", path, roErr)
			}
			if now := clusterState(e.sim); now != cluster {
				t.Errorf("%s --read-only changed the cluster:\nbefore:\n%safter:\n%s", path, cluster, now)
			}
			err := run(false)
			switch {
			case err != nil && ex.fails == "":
				t.Fatalf("%s (the example, without --read-only): %v", path, err)
			case err == nil && ex.fails != "":
				t.Errorf("%s: the example was to fail (%s), yet it ran", path, ex.fails)
			}
			refused := errors.Is(roErr, model.ErrReadOnly) || strings.Contains(fmt.Sprint(roErr), "palink is read-only")
			if wrote := fileSum(t, db) != before; wrote && !ex.syncs && !refused {
				t.Errorf("%s writes the store; under --read-only it must refuse with %q, got %v", path, model.ErrReadOnly, roErr)
			}
			if ex.syncs && refused {
				t.Errorf("%s only reads (and keeps what it read of the cluster); --read-only refused it: %v", path, roErr)
			}
		})
	}
}

// newReadOnlyFixture makes one store with something for every command to
// act on, its jobs on a simulator: walk RUNNING with a savepoint, one job
// per action in the state the action needs, a FAILED job whose alert
// fires, a catalog table, a variable, a UDF, a project, an application
// palink does not manage, and a Kafka topic to import.
func newReadOnlyFixture(t *testing.T) (*cliEnv, *roFixture) {
	// No restart policy: walk-failed stays FAILED, and its alert firing.
	off := false
	e := newCLIEnv(t, sim.Options{}, func(c *config.Config) { c.Restart.Enabled = &off })
	f := &roFixture{dir: t.TempDir()}
	var (
		etcdOnce sync.Once
		etcdEnds []string
		etcdN    int
	)
	f.etcd = func() string {
		etcdOnce.Do(func() { etcdEnds = etcdtest.Start(t, 1, etcdtest.Options{}).Endpoints() })
		etcdN++
		return fmt.Sprintf("etcd://%s/ro-%d", strings.Join(etcdEnds, ","), etcdN)
	}
	f.sql, f.table, f.udf = filepath.Join(f.dir, "job.sql"), filepath.Join(f.dir, "t.sql"), filepath.Join(f.dir, "fn.py")
	f.table2 = filepath.Join(f.dir, "t2.sql")
	for file, text := range map[string]string{f.sql: e2eSQL, f.udf: "def fn(s):\n    return s\n",
		f.table2: "CREATE TABLE t2 (id BIGINT) WITH ('connector' = 'datagen')",
		f.table:  "CREATE TABLE walk_fixed (id BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '7')"} {
		if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"walk", "walk-kill", "walk-pause", "walk-restart", "walk-resubmit", "walk-failed", "walk-new"} {
		e.mustRun("job", "create", "--name", name, "--sql", f.sql)
		if name != "walk-new" {
			e.mustRun("job", "submit", name, "--wait")
		}
	}
	for _, name := range []string{"walk", "walk-kill", "walk-pause", "walk-restart", "walk-resubmit", "walk-failed"} {
		e.syncUntil(name, "RUNNING", func(j model.Job) bool { return j.State == model.StateRunning })
	}
	e.mustRun("team", "add", "walk-team", "--owns", "sim/prod")
	if err := os.WriteFile(filepath.Join(f.dir, "authorized_keys"), []byte("# nobody\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	e.mustRun("job", "savepoint", "walk", "--wait")
	f.savepoint = e.job("walk").Job.LatestSavepoint.Path
	e.mustRun("job", "pause", "walk-restart", "--wait")
	e.mustRun("job", "pause", "walk-resubmit", "--wait")
	if err := e.sim.FailJob(e.job("walk-failed").Job.AppID); err != nil {
		t.Fatal(err)
	}
	e.syncUntil("walk-failed", "FAILED", func(j model.Job) bool { return j.State == model.StateFailed })
	// The alert rules run with state sync.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	_, _ = e.run(ctx, "sync")
	cancel()
	if o := e.mustRun("alerts", "-o", "json"); !strings.Contains(o, "walk-failed") {
		t.Fatalf("no alert fires for walk-failed: %s", o)
	}
	e.mustRun("table", "add", "walk_fixed", "--sql", f.table)
	e.mustRun("var", "set", "walk_v", "1")
	e.mustRun("udf", "add", "walk_fn", "--class", "walk.fn", "--language", "python", "--py", f.udf)
	e.mustRun("project", "add", "walk-proj", "--repo", filepath.Join(f.dir, "none.git"), "--build", "true", "--artifact", "x.jar")
	sub, err := e.sim.Submit(context.Background(), sim.SubmitRequest{Name: "not-ours", User: "ops"})
	if err != nil {
		t.Fatal(err)
	}
	f.appID = sub.AppID
	f.brokers = kafkaTopics(t, map[string][]string{"clicks": {`{"user":"a","n":1}`, `{"user":"b","n":2}`}})
	var g bytes.Buffer
	fmt.Fprint(&g, e.mustRun("job", "vertices", "walk", "-o", "json"))
	if i := strings.Index(g.String(), `"vertex_id": "`); i >= 0 {
		f.vertex = strings.SplitN(g.String()[i+14:], `"`, 2)[0]
	}
	if f.vertex == "" {
		t.Fatalf("no vertex of walk in %.300s", g.String())
	}
	f.backup = filepath.Join(f.dir, "backup.db")
	e.mustRun("store", "backup", f.backup)
	return e, f
}
