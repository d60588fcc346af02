package store

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/palink/palink/model"
)

// Fixtures: testdata/store-v<N>.db is a store written by the palink of schema
// N, and store-v<N>.json what it holds. Every fixture must open with today's
// code to the same contents, which tests each migration from real old files.
// When a migration raises SchemaVersion, generate the new version's fixture
// (older ones are kept as they are):
//
//	go test ./store -run TestFixtures -update
var updateFixtures = flag.Bool("update", false, "write testdata/store-v<SchemaVersion>.{db,json} from seedFixture")

// seedFixture writes a small but complete history: every record family,
// every command state, a rename, a duplicate restore point.
func seedFixture(tx Tx) error {
	at := func(min int) time.Time { return t0.Add(time.Duration(min) * time.Minute) }
	orders := sampleJob("j-001", "orders-enrich")
	orders.State, orders.AppID, orders.FlinkJobID = model.StateRunning, "application_1732_0042", "3f9ca21e"
	orders.TrackingURL, orders.JMAddress = "http://rm:8088/proxy/application_1732_0042/", "node7:40121"
	orders.LatestCheckpoint = &model.RestorePoint{JobID: "j-001", Kind: model.Checkpoint, Path: "hdfs:///ck/j-001/chk-12", Time: at(30), CheckID: 12, Origin: "sync"}
	orders.LatestSavepoint = &model.RestorePoint{JobID: "j-001", Kind: model.Savepoint, Path: "hdfs:///sp/j-001/sp-7f3a21", Time: at(20), Origin: "PAUSE #2"}
	orders.RestoredFrom, orders.StartedAt, orders.SyncedAt = "hdfs:///sp/j-001/sp-7f3a21", at(25), at(31)
	clicks := sampleJob("j-002", "clicks-old")
	clicks.Kind, clicks.Config = model.KindJAR, nil
	idle := sampleJob("j-003", "idle")
	for _, j := range []model.Job{orders, clicks, idle} {
		if err := tx.CreateJob(j); err != nil {
			return err
		}
	}
	clicks.Name, clicks.State, clicks.PlatformRestarts = "clicks", model.StateFailed, 2
	clicks.Drift = &model.Drift{Expected: "RUNNING", Observed: "YARN FAILED", Since: at(40)}
	clicks.Diagnostics, clicks.NextRestart = "java.lang.OutOfMemoryError", at(45)
	if err := tx.PutJob(clicks); err != nil {
		return err
	}
	for _, s := range []model.Spec{
		{JobID: "j-001", SQL: "INSERT INTO enriched SELECT * FROM orders", Author: "ana", CreatedAt: at(1)},
		{JobID: "j-001", SQL: "INSERT INTO enriched SELECT o.*, u.name FROM orders o JOIN users u", Note: "join users", Author: "ana", CreatedAt: at(10)},
		{JobID: "j-002", JarPath: "/jars/clicks.jar", EntryClass: "com.acme.Clicks", Args: []string{"--window", "5m"}, Author: "bo", CreatedAt: at(2)},
	} {
		if _, err := tx.AddSpec(s); err != nil {
			return err
		}
	}
	cmd := func(job string, kind model.CommandKind, state model.CommandState, min int) model.Command {
		c := sampleCommand(job, kind, state)
		c.CreatedAt = at(min)
		if state != model.CmdUndo {
			c.StartedAt, c.Attempts = at(min), 1
		}
		if state.Final() {
			c.EndedAt = at(min + 1)
		}
		return c
	}
	failed := cmd("j-001", model.CmdPause, model.CmdFailed, 15)
	failed.Error = "stop-with-savepoint: jobmanager unavailable"
	doing := cmd("j-002", model.CmdRestart, model.CmdDoing, 41)
	doing.LeaseOwner, doing.LeaseUntil, doing.Params.Auto = "ops-host-1", at(43), true
	doing.Params.Restore, doing.Params.AppID = model.RestoreCheckpoint, "application_1732_0051"
	doing.Logf(at(41), "deploying from %s", "hdfs:///ck/j-002/chk-3")
	var ids []string // as stored: the form of the schema that wrote them
	for _, c := range []model.Command{
		cmd("j-001", model.CmdSubmit, model.CmdSucceeded, 3), failed,
		cmd("j-002", model.CmdSubmit, model.CmdSucceeded, 4), doing,
		cmd("j-001", model.CmdKill, model.CmdUndo, 50),
	} {
		c, err := tx.PutCommand(c)
		if err != nil {
			return err
		}
		ids = append(ids, c.ID)
	}
	for _, e := range []model.Event{
		{JobID: "j-001", Time: at(3), From: model.StateNone, To: model.StateDeploying, Reason: "SUBMIT #1 by ops", CommandID: ids[0]},
		{JobID: "j-001", Time: at(5), From: model.StateDeploying, To: model.StateDeploySucceeded, Reason: "SUBMIT #1 succeeded", CommandID: ids[0]},
		{JobID: "j-001", Time: at(6), From: model.StateDeploySucceeded, To: model.StateRunning, Reason: "sync: YARN RUNNING, Flink RUNNING"},
		{JobID: "j-002", Time: at(40), From: model.StateRunning, To: model.StateFailed, Reason: "sync: YARN FAILED"},
	} {
		if _, err := tx.AppendEvent(e); err != nil {
			return err
		}
	}
	for _, rp := range []model.RestorePoint{*orders.LatestSavepoint, *orders.LatestCheckpoint, *orders.LatestCheckpoint,
		{JobID: "j-002", Kind: model.Checkpoint, Path: "hdfs:///ck/j-002/chk-3", Time: at(39), CheckID: 3, Origin: "sync"}} {
		if _, err := tx.AddRestorePoint(rp); err != nil {
			return err
		}
	}
	for _, a := range []model.Alert{
		{Rule: "job-failed", Kind: "job_failed", Severity: "critical", JobID: "j-002", JobName: "clicks", Cluster: "prod",
			State: model.AlertFiring, Since: at(40), Value: "FAILED", Message: "clicks is FAILED", Notified: []string{"ops"}, UpdatedAt: at(40)},
		{Rule: "backpressure", Kind: "backpressure", Severity: "warning", JobID: "j-001", JobName: "orders-enrich", Cluster: "prod",
			State: model.AlertResolved, Since: at(20), ResolvedAt: at(28), Value: "87%", Notified: []string{"ops"}, ResolveNotified: []string{"ops"}, UpdatedAt: at(28)},
	} {
		if err := tx.PutAlert(a); err != nil {
			return err
		}
	}
	timeout := model.JobException{Time: at(38), Name: "java.lang.Exception", FlinkJobID: "3f9ca21e", AppID: "application_1732_0051",
		Stacktrace: "java.lang.Exception: Could not complete the stream element\nCaused by: java.util.concurrent.TimeoutException: Async function call has timed out.\n",
		Task:       "LookupJoin[3] (2/4)#1", Endpoint: "node7:36001", TaskManager: "container_e01_1732_0051_01_000003", SeenAt: at(39),
		Concurrent: []model.JobException{{Time: at(38), Name: "java.lang.Exception", Task: "LookupJoin[3] (3/4)#1", JobID: "j-002"}}}
	if _, err := tx.AddExceptions("j-002", []model.JobException{timeout,
		{Time: at(40), Name: "org.apache.flink.runtime.JobException", Stacktrace: "org.apache.flink.runtime.JobException: Recovery is suppressed", SeenAt: at(40)}}); err != nil {
		return err
	}
	if err := tx.PutProject(model.Project{Name: "dedup", Repo: "git@git.acme:stream/dedup.git", Ref: "main",
		Build: "mvn -B -q package -DskipTests", Artifact: "target/dedup-*.jar", Timeout: 20 * time.Minute, CreatedBy: "ana", CreatedAt: at(1)}); err != nil {
		return err
	}
	if _, err := tx.AddArtifact(model.Artifact{Project: "dedup", Ref: "main", Commit: "9c1f2e3d4b5a69788796a5b4c3d2e1f00112233a", Subject: "dedup by event id",
		SHA256: "5f2b9c0e8d7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c", Size: 48213, Path: "/var/cache/palink/projects/dedup/artifacts/5f2b9c0e.jar",
		File: "target/dedup-1.4.jar", Log: "[INFO] BUILD SUCCESS\n", BuiltBy: "ana", BuiltAt: at(2), Took: 95 * time.Second}); err != nil {
		return err
	}
	for _, tb := range []model.CatalogTable{
		{Cluster: "prod", Name: "users", SQL: "CREATE TABLE users (id BIGINT, name STRING) WITH ('connector' = 'jdbc', 'url' = 'jdbc:postgresql://db/app', 'table-name' = 'users')", Author: "ana", CreatedAt: at(0)},
		{Cluster: "prod", Name: "users", SQL: "CREATE TABLE users (id BIGINT, name STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'jdbc', 'url' = 'jdbc:postgresql://db/app', 'table-name' = 'users')", Note: "primary key", Author: "ana", CreatedAt: at(9)},
		{Cluster: "test", Name: "orders", SQL: "CREATE TABLE orders (id BIGINT) WITH ('connector' = 'datagen')", Author: "bo", CreatedAt: at(2)},
	} {
		if _, err := tx.PutCatalogTable(tb); err != nil {
			return err
		}
	}
	for _, v := range []model.Variable{
		{Name: "db_url", Value: "jdbc:postgresql://db/app", Author: "ana", UpdatedAt: at(0)},
		{Cluster: "prod", Name: "db_pass", SecretEnv: "PROD_DB_PASS", Author: "ana", UpdatedAt: at(1)},
	} {
		if err := tx.PutVar(v); err != nil {
			return err
		}
	}
	for _, u := range []model.UDF{
		{Name: "mask", Class: "com.example.udf.Mask", Language: model.UDFJava, Project: "dedup", ArtifactVersion: 1,
			Signature: "(STRING) -> STRING", Author: "ana", CreatedAt: at(3)},
		{Name: "geo", Class: "geo.lookup", Language: model.UDFPython, PyFile: "/srv/udf/geo.py", Author: "bo", CreatedAt: at(4)},
	} {
		if err := tx.PutUDF(u); err != nil {
			return err
		}
	}
	for _, tm := range []model.Team{
		{Name: "payments", Owns: []model.Holding{{Cluster: "prod"}}, CreatedAt: at(5), CreatedBy: "ana",
			Members: []model.Member{{User: "ana", Role: model.Admin, GrantedBy: "ana", GrantedAt: at(5)}, {User: "eve", Role: model.Operator, GrantedBy: "ana", GrantedAt: at(6)}}},
		{Name: "ads", Owns: []model.Holding{{Cluster: "shared", Queue: "ads"}}, CreatedAt: at(7), CreatedBy: "ana",
			Members: []model.Member{{User: "bo", Role: model.Viewer, GrantedBy: "ana", GrantedAt: at(7)}}},
	} {
		if err := tx.PutTeam(tm); err != nil {
			return err
		}
	}
	for _, a := range []model.AuditEntry{
		// The hosts are named: the fixture must not depend on the host
		// that writes it.
		{Time: at(0), User: "ana", Host: "ops1", Action: "create", JobID: "j-001", Outcome: "accepted"},
		{Time: at(3), User: "ana", Host: "ops1", Action: "submit", JobID: "j-001", CommandID: ids[0], Outcome: "succeeded"},
		{Time: at(50), User: "eve", Host: "ops2", Action: "kill", JobID: "j-001", CommandID: ids[4], Outcome: "accepted"},
		{Time: at(51), User: "eve", Host: "ops2", Action: "kill", JobID: "nope", Outcome: "refused: no such job"},
	} {
		if _, err := tx.AppendAudit(a); err != nil {
			return err
		}
	}
	return nil
}

// seededStore writes seedFixture into a new store at path and closes it.
func seededStore(t *testing.T, path string) storeDump {
	t.Helper()
	s, err := Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	update(t, s, seedFixture)
	return dump(t, s)
}

func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

func writeFixture(t *testing.T) {
	base := filepath.Join("testdata", fmt.Sprintf("store-v%d", SchemaVersion))
	tmp := filepath.Join(t.TempDir(), "palink.db")
	want := seededStore(t, tmp)
	want.StoreID = openT(t, tmp, Options{ReadOnly: true}).ID()
	if err := os.MkdirAll("testdata", 0o755); err != nil {
		t.Fatal(err)
	}
	copyFile(t, tmp, base+".db")
	js, err := json.MarshalIndent(want, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(base+".json", append(js, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s.db and %s.json", base, base)
}

func TestFixtures(t *testing.T) {
	if *updateFixtures {
		writeFixture(t)
	}
	current := filepath.Join("testdata", fmt.Sprintf("store-v%d.db", SchemaVersion))
	if _, err := os.Stat(current); err != nil {
		t.Fatalf("no fixture for schema %d (%v): run go test ./store -run TestFixtures -update", SchemaVersion, err)
	}
	files, err := filepath.Glob(filepath.Join("testdata", "store-v*.db"))
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			js, err := os.ReadFile(strings.TrimSuffix(file, ".db") + ".json")
			if err != nil {
				t.Fatal(err)
			}
			var want storeDump
			if err := json.Unmarshal(js, &want); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "palink.db")
			copyFile(t, file, path)
			s := openT(t, path, Options{NoSync: true})
			if err := s.Check(context.Background()); err != nil {
				t.Fatalf("after opening %s: %v", file, err)
			}
			// The store id is the one written at schema 3, or, for an older
			// store, one minted by its migration.
			if want.StoreID != "" && s.ID() != want.StoreID || !validStoreID(s.ID()) {
				t.Errorf("store id %q, want %q (or a new one before schema 3)", s.ID(), want.StoreID)
			}
			want.StoreID = ""
			sameDump(t, file, dump(t, s), want)
			// The migrated store keeps working: seqs go on from the old ones,
			// with ids of today's form, and every command, old ids or new,
			// is found by its seq.
			var next model.Command
			update(t, s, func(tx Tx) (err error) {
				next, err = tx.PutCommand(sampleCommand("j-003", model.CmdSubmit, model.CmdUndo))
				return err
			})
			wantNewID(t, next, int64(len(want.Commands)+1))
			view(t, s, func(tx ReadTx) error {
				for _, c := range append(want.Commands, next) {
					got, err := tx.CommandBySeq(c.Seq)
					if err != nil {
						return err
					}
					if got.ID != c.ID || got.Seq != c.Seq {
						t.Errorf("CommandBySeq(%d) = %s, want %s", c.Seq, got.ID, c.ID)
					}
				}
				return nil
			})
		})
	}
	// The fixture of the current schema holds what seedFixture writes today.
	// Command ids differ in their random part only.
	fixture := mustLoadDump(t, current)
	fixture.StoreID = ""
	sameDump(t, "seedFixture vs "+current, sameRandom(t, seededStore(t, filepath.Join(t.TempDir(), "fresh.db"))), sameRandom(t, fixture))
}

// randomPart is the random suffix of new command ids.
var randomPart = regexp.MustCompile(`(c[0-9]{9})-[0-9a-f]{12}`)

// sameRandom gives every command id in d the same random part, so that two
// stores with the same history compare equal.
func sameRandom(t *testing.T, d storeDump) storeDump {
	t.Helper()
	js, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	var out storeDump
	if err := json.Unmarshal(randomPart.ReplaceAll(js, []byte("$1-000000000000")), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func mustLoadDump(t *testing.T, dbFile string) storeDump {
	t.Helper()
	js, err := os.ReadFile(strings.TrimSuffix(dbFile, ".db") + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var d storeDump
	if err := json.Unmarshal(js, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

func TestSchemaVersionMatchesSteps(t *testing.T) {
	for i, m := range migrations {
		if m.to != i+1 {
			t.Errorf("migrations[%d] goes to schema %d, want %d: steps must be consecutive", i, m.to, i+1)
		}
	}
	if last := migrations[len(migrations)-1].to; last != SchemaVersion {
		t.Errorf("the last migration goes to schema %d, SchemaVersion is %d", last, SchemaVersion)
	}
}

// stripToV0 rewrites a schema 1 store into the synthetic schema 0 layout:
// the primary buckets alone, no meta, no indexes.
func stripToV0(t *testing.T, path string) {
	t.Helper()
	corrupt(t, path, func(tx *bolt.Tx) error {
		for _, name := range [][]byte{bucketMeta, bucketJobNames, bucketCommandsByState, bucketCommandsByJob, bucketRestorePointPaths} {
			if err := tx.DeleteBucket(name); err != nil {
				return fmt.Errorf("delete %s: %w", name, err)
			}
		}
		return nil
	})
}

func rawVersion(t *testing.T, path string) int {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var v int
	if err := db.View(func(tx *bolt.Tx) (err error) { v, err = readVersion(tx); return err }); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestMigrateFromV0(t *testing.T) {
	path := filepath.Join(t.TempDir(), "palink.db")
	want := seededStore(t, path)
	stripToV0(t, path)
	if v := rawVersion(t, path); v != 0 {
		t.Fatalf("stripped store has schema %d, want 0", v)
	}

	s := openT(t, path, Options{NoSync: true})
	_ = s.db.View(func(tx *bolt.Tx) error {
		if v, err := readVersion(tx); v != SchemaVersion || err != nil {
			t.Errorf("after Open, schema %d (%v), want %d", v, err, SchemaVersion)
		}
		return nil
	})
	if err := s.Check(context.Background()); err != nil {
		t.Fatalf("migrated store: %v", err)
	}
	sameDump(t, "v0 migrated", dump(t, s), want)
	view(t, s, func(tx ReadTx) error {
		// The rebuilt indexes answer the scheduler and the name lookup.
		active, err := tx.Commands(CommandFilter{States: []model.CommandState{model.CmdUndo, model.CmdDoing}})
		if ids := commandIDs(active); err != nil || len(ids) != 2 || ids[0] != want.Commands[3].ID || ids[1] != want.Commands[4].ID {
			t.Errorf("active commands after migration = %v, %v; want c…4 and c…5", ids, err)
		}
		if j, err := tx.JobByName("clicks"); err != nil || j.ID != "j-002" {
			t.Errorf("JobByName(clicks) after migration = %q, %v", j.ID, err)
		}
		return nil
	})
	update(t, s, func(tx Tx) error {
		added, err := tx.AddRestorePoint(model.RestorePoint{JobID: "j-001", Kind: model.Checkpoint, Path: "hdfs:///ck/j-001/chk-12"})
		if added {
			t.Error("the rebuilt path index lets a known restore point in twice")
		}
		return err
	})
}

func TestMigrateFailureChangesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "palink.db")
	seededStore(t, path)
	stripToV0(t, path)
	// Two v0 jobs with one name cannot get a unique name index.
	corrupt(t, path, func(tx *bolt.Tx) error {
		j := sampleJob("j-004", "idle")
		v, _ := json.Marshal(j)
		return tx.Bucket(bucketJobs).Put([]byte(j.ID), v)
	})
	_, err := Open(path, Options{NoSync: true})
	if err == nil {
		t.Fatal("Open migrated a store whose job names collide")
	}
	for _, want := range []string{path, "schema 0 to 1", "j-003", "j-004", `"idle"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if v := rawVersion(t, path); v != 0 {
		t.Errorf("failed migration left schema %d, want 0", v)
	}
	corrupt(t, path, func(tx *bolt.Tx) error {
		if tx.Bucket(bucketJobNames) != nil || tx.Bucket(bucketCommandsByState) != nil {
			t.Error("failed migration left index buckets behind")
		}
		return nil
	})
}

func TestMigrationChainIsOneTransaction(t *testing.T) {
	path := filepath.Join(t.TempDir(), "palink.db")
	seededStore(t, path)
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// Synthetic steps after today's last one: the store is at SchemaVersion.
	n := SchemaVersion
	next := migration{to: n + 1, what: "add widgets", run: func(tx *bolt.Tx) error {
		_, err := tx.CreateBucket([]byte("widgets"))
		return err
	}}
	broken := migration{to: n + 2, what: "break", run: func(*bolt.Tx) error { return errors.New("disk says no") }}
	chain := func(steps ...migration) []migration { return append(slices.Clone(migrations), steps...) }

	err = db.Update(func(tx *bolt.Tx) error { return migrate(tx, chain(next, broken)) })
	if want := fmt.Sprintf("from schema %d to %d (break): disk says no", n+1, n+2); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("failing chain = %v, want %q", err, want)
	}
	_ = db.View(func(tx *bolt.Tx) error {
		v, _ := readVersion(tx)
		if v != n || tx.Bucket([]byte("widgets")) != nil {
			t.Errorf("after a failed chain: schema %d, widgets bucket %t; want %d and none (step %d rolled back)", v, tx.Bucket([]byte("widgets")) != nil, n, n+1)
		}
		return nil
	})

	gap := migration{to: n + 3, what: "gap", run: func(*bolt.Tx) error { return nil }}
	err = db.Update(func(tx *bolt.Tx) error { return migrate(tx, chain(gap)) })
	if want := fmt.Sprintf("no step from schema %d to %d", n, n+3); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("chain with a gap = %v, want %q", err, want)
	}

	if err := db.Update(func(tx *bolt.Tx) error { return migrate(tx, chain(next)) }); err != nil {
		t.Fatal(err)
	}
	_ = db.View(func(tx *bolt.Tx) error {
		if v, _ := readVersion(tx); v != n+1 || tx.Bucket([]byte("widgets")) == nil {
			t.Errorf("after step %d: schema %d; want %d with a widgets bucket", n+1, v, n+1)
		}
		return nil
	})
}

func TestNewerSchemaRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "palink.db")
	seededStore(t, path)
	corrupt(t, path, func(tx *bolt.Tx) error { return writeVersion(tx, SchemaVersion+1) })
	before, _ := os.ReadFile(path)
	for _, ro := range []bool{false, true} {
		_, err := Open(path, Options{ReadOnly: ro, NoSync: true})
		wantErr(t, err, ErrSchema, path, fmt.Sprintf("store schema %d is newer than this palink (%d); upgrade palink", SchemaVersion+1, SchemaVersion))
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("a refused Open changed the file")
	}
}

func TestReadOnlyDoesNotMigrate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "palink.db")
	seededStore(t, path)
	stripToV0(t, path)
	_, err := Open(path, Options{ReadOnly: true})
	wantErr(t, err, ErrSchema, path, "schema 0 is older", "without --read-only")
	if v := rawVersion(t, path); v != 0 {
		t.Errorf("read-only Open migrated the store to %d", v)
	}
}

func TestDamagedVersionReported(t *testing.T) {
	path := filepath.Join(t.TempDir(), "palink.db")
	seededStore(t, path)
	corrupt(t, path, func(tx *bolt.Tx) error { return tx.Bucket(bucketMeta).Put(keyVersion, []byte("seven")) })
	_, err := Open(path, Options{})
	if err == nil || !strings.Contains(err.Error(), `"seven" is not a version`) || !strings.Contains(err.Error(), path) {
		t.Errorf("Open of a store with a garbled version = %v", err)
	}
}

// TestStoreIDKeptAndRequired: migrating to schema 3 mints the id once; a
// store of schema 3 without one is damaged, not silently given a new one
// (its applications on YARN carry the old).
func TestStoreIDKeptAndRequired(t *testing.T) {
	path := filepath.Join(t.TempDir(), "palink.db")
	copyFile(t, filepath.Join("testdata", "store-v2.db"), path)
	_, err := Open(path, Options{ReadOnly: true})
	wantErr(t, err, ErrSchema, "schema 2 is older", "without --read-only")

	s := openT(t, path, Options{NoSync: true})
	id := s.ID()
	_ = s.Close()
	ro := openT(t, path, Options{ReadOnly: true})
	if ro.ID() != id {
		t.Errorf("store id %q after reopening, minted as %q", ro.ID(), id)
	}
	_ = ro.Close()

	corrupt(t, path, func(tx *bolt.Tx) error { return tx.Bucket(bucketMeta).Delete(keyStoreID) })
	for _, ro := range []bool{false, true} {
		_, err := Open(path, Options{ReadOnly: ro, NoSync: true})
		wantDamage(t, err, path, `its store_id is ""`)
	}
	r, err := CheckFile(context.Background(), path, Options{})
	if err != nil || len(r.Problems) != 1 || !strings.Contains(r.Problems[0], "store_id") {
		t.Errorf("CheckFile of a store without its id: %q, %v", r.Problems, err)
	}
}

// TestAFailedStepIsNamed: a step that fails says which one it was, by the
// schema numbers and what the step does, so that a person knows what the
// store was being made into.
func TestAFailedStepIsNamed(t *testing.T) {
	for i, step := range migrations {
		if step.what == "" {
			t.Errorf("step to schema %d says nothing of what it does", step.to)
			continue
		}
		path := filepath.Join(t.TempDir(), "palink.db")
		seededStore(t, path)
		stripToV0(t, path)
		steps := slices.Clone(migrations)
		steps[i].run = func(*bolt.Tx) error { return errors.New("the disk said no") }
		corrupt(t, path, func(tx *bolt.Tx) error {
			err := migrate(tx, steps)
			want := fmt.Sprintf("migrate store from schema %d to %d (%s): the disk said no", step.to-1, step.to, step.what)
			if err == nil || err.Error() != want {
				t.Errorf("step %d failing: %v, want %q", i, err, want)
			}
			return nil
		})
	}
}
