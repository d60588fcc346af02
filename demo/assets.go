package demo

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// The demo's cluster is set up as a team's would be: a table catalog that
// its SQL jobs read without defining the tables (:tables, and the strip
// in the editor), variables with a secret among them (palink var), a UDF
// a job calls (:udfs), and a project that JAR jobs are built from
// (:projects). None of it is needed for the demo to open: a step that
// fails is logged and the demo goes on without it.

// passwordEnv is the environment variable the demo's secret variable
// reads; the demo sets it in its own process, as an ops host's palink
// would have it set by its service manager.
const (
	passwordEnv   = "PALINK_DEMO_DIM_PASSWORD"
	passwordValue = "demo-dim-db-pw"
)

// tableVersion is one version of a catalog table.
type tableVersion struct{ name, note, sql string }

// tables are the catalog's tables as the hour begins; tableEdit
// is its change in the hour (plan's "table"): users gets a lookup
// cache, so that the jobs deployed before it show the change waiting for
// their next restart.
var (
	tables = []tableVersion{
		{"orders", "orders topic, JSON", `CREATE TABLE orders (
  order_id BIGINT,
  user_id BIGINT,
  amount DECIMAL(10, 2),
  proc_time AS PROCTIME()
) WITH (
  'connector' = 'kafka',
  'topic' = 'orders',
  'properties.bootstrap.servers' = '${kafka}',
  'properties.group.id' = 'palink-demo',
  'scan.startup.mode' = 'latest-offset',
  'format' = 'json'
)`},
		{"users", "the users dimension (app database)", usersDDL("")},
	}
	tableEdit = tableVersion{"users", "cache lookups: the join was waiting on the database", usersDDL(`,
  'lookup.cache' = 'PARTIAL',
  'lookup.partial-cache.max-rows' = '10000',
  'lookup.partial-cache.expire-after-write' = '10 min'`)}
)

func usersDDL(more string) string {
	return `CREATE TABLE users (
  id BIGINT,
  name STRING,
  PRIMARY KEY (id) NOT ENFORCED
) WITH (
  'connector' = 'jdbc',
  'url' = '` + dimURL + `',
  'table-name' = 'users',
  'username' = 'flink_ro',
  'password' = '${users_password}'` + more + `
)`
}

// vars are the variables: the brokers of every cluster, and the
// dimension database's password, a secret read from the environment.
var vars = []model.Variable{
	{Name: "kafka", Value: "kafka:9092"},
	{Cluster: Cluster, Name: "users_password", SecretEnv: passwordEnv},
}

// udf is the registered function fraud-scoring calls; its jar is
// written by the demo, holding the class the registry checks for.
var udf = model.UDF{Name: "risk_score", Class: "com.acme.fraud.RiskScore", Language: model.UDFJava,
	Signature: "(STRING, DOUBLE) -> DOUBLE"}

// standIns stand in for the demo's UDF in its debug runs (a local run
// cannot load a jar).
var standIns = []string{"risk_score(id, amount)=amount / 400"}

// seedAssets creates the demo's catalog tables, variables and UDF (dir
// holds the UDF's jar). It is cheap — a few store writes — and runs before
// the fleet is created, whose jobs use them. A failure is logged, never
// fatal: the demo opens without that part.
func (d *World) seedAssets(ctx context.Context, dir string) {
	os.Setenv(passwordEnv, passwordValue)
	for _, t := range tables {
		if err := d.putTable(ctx, t, true); err != nil {
			d.log.Warn("demo: catalog table", "table", t.name, "err", err)
		}
	}
	for _, v := range vars {
		v.Author = "demo"
		if _, err := d.svc.SetVar(ctx, v); err != nil {
			d.log.Warn("demo: variable", "var", v.Name, "err", err)
		}
	}
	jar := filepath.Join(dir, "fraud-udfs-1.4.0.jar")
	u := udf
	u.Jar, u.Author = jar, "demo"
	err := writeJar(jar, strings.ReplaceAll(u.Class, ".", "/")+".class")
	if err == nil {
		_, err = d.svc.AddUDF(ctx, api.AddUDFRequest{UDF: u, Replace: true})
	}
	if err != nil {
		d.log.Warn("demo: UDF", "udf", u.Name, "err", err)
	}
}

// putTable adds a catalog table (create) or makes its next version.
func (d *World) putTable(ctx context.Context, t tableVersion, create bool) error {
	_, err := d.svc.PutTable(ctx, api.PutTableRequest{Cluster: Cluster, Name: t.name, SQL: t.sql, Note: t.note,
		Create: create, Author: "demo"})
	return err
}

// writeJar writes a jar (a zip) holding a manifest and the named class
// files, empty: enough for the registry's check and the simulator.
func writeJar(path string, classes ...string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	z := zip.NewWriter(f)
	files := append([]string{"META-INF/MANIFEST.MF"}, classes...)
	for _, name := range files {
		w, err := z.Create(name)
		if err != nil {
			f.Close()
			return err
		}
		body := "\xca\xfe\xba\xbe"
		if strings.HasPrefix(name, "META-INF/") {
			body = "Manifest-Version: 1.0\n"
		}
		if _, err := w.Write([]byte(body)); err != nil {
			f.Close()
			return err
		}
	}
	if err := z.Close(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// The demo's project: a small git repository in the demo's directory whose
// build script zips a jar in a moment, and the JAR job built from it.
const (
	project      = "sessionizer"
	projectClass = "com.acme.Sessionizer"
	buildScript  = `#!/bin/sh
# A stand-in for mvn package: the demo has no JDK to spare.
set -e
echo "[INFO] Building sessionizer 1.3.0"
echo "[INFO] --- compiler:3.11.0:compile (default-compile) @ sessionizer ---"
mkdir -p target
git archive --format=zip -o target/sessionizer-1.3.0.jar HEAD META-INF com
echo "[INFO] BUILD SUCCESS"
`
)

// seedProject creates the demo's git repository in dir, adds it as a
// project, builds it (a build takes a moment: this runs beside the
// warm-up, never before the UI) and creates a JAR job from its artifact.
// Without git on the PATH there is no project, quietly.
func (d *World) seedProject(ctx context.Context, dir string) {
	if _, err := exec.LookPath("git"); err != nil {
		d.log.Info("demo: no git on the PATH: the demo has no project")
		return
	}
	if err := d.buildProject(ctx, dir); err != nil && ctx.Err() == nil {
		d.log.Warn("demo: project", "project", project, "err", err)
	}
}

func (d *World) buildProject(ctx context.Context, dir string) error {
	repo := filepath.Join(dir, "sessionizer")
	files := map[string]string{
		"META-INF/MANIFEST.MF":                 "Manifest-Version: 1.0\nMain-Class: " + projectClass + "\n",
		"com/acme/Sessionizer.class":           "\xca\xfe\xba\xbe",
		"com/acme/SessionWindowFunction.class": "\xca\xfe\xba\xbe",
		"build.sh":                             buildScript,
	}
	for name, body := range files {
		p := filepath.Join(repo, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			return err
		}
	}
	for _, args := range [][]string{
		{"init", "--quiet"},
		{"checkout", "--quiet", "-b", "main"},
		{"add", "-A"},
		{"commit", "--quiet", "--no-gpg-sign", "-m", "sessionize clicks with a 30 minute gap"},
	} {
		cmd := exec.CommandContext(ctx, "git", append([]string{"-C", repo}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=Demo", "GIT_AUTHOR_EMAIL=demo@palink.invalid",
			"GIT_COMMITTER_NAME=Demo", "GIT_COMMITTER_EMAIL=demo@palink.invalid", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %s: %w: %s", args[0], err, strings.TrimSpace(string(out)))
		}
	}
	_, err := d.svc.AddProject(ctx, model.Project{Name: project, Repo: repo, Ref: "main", Build: "./build.sh",
		Artifact: "target/*.jar", CreatedBy: "demo"})
	if err != nil {
		return err
	}
	if _, err := d.svc.BuildProject(ctx, api.BuildRequest{Project: project, Issuer: "demo"}); err != nil {
		return err
	}
	// Created, not deployed: the demo's cluster has no `flink run` for a
	// JAR job's deploy.
	_, err = d.svc.CreateJob(ctx, api.CreateJobRequest{Name: project, Cluster: Cluster, Kind: model.KindJAR,
		Spec:        model.Spec{Project: project, EntryClass: projectClass, Args: []string{"--gap", "30min"}, Note: "demo"},
		Parallelism: 2, Issuer: "demo"})
	if errors.Is(err, model.ErrExists) {
		return nil
	}
	return err
}

// DebugAssets gives `palink debug --demo` what the demo's cluster gives
// its jobs' debug runs: the catalog's tables (newest versions), the
// variables with the secret's environment set, the UDF, and a stand-in for
// the UDF unless the user gave one.
func DebugAssets(r *api.DebugRequest) {
	os.Setenv(passwordEnv, passwordValue)
	var catalog []model.CatalogTable
	for _, t := range append(slices.Clone(tables), tableEdit) {
		i := slices.IndexFunc(catalog, func(c model.CatalogTable) bool { return c.Name == t.name })
		if i < 0 {
			i, catalog = len(catalog), append(catalog, model.CatalogTable{Cluster: Cluster, Name: t.name})
		}
		catalog[i].Version++
		catalog[i].SQL, catalog[i].Note = t.sql, t.note
	}
	r.Catalog = append(r.Catalog, catalog...)
	r.Vars = append(r.Vars, vars...)
	r.UDFs = append(r.UDFs, udf)
	for _, s := range standIns {
		name, _, _ := strings.Cut(s, "(")
		given := false
		for _, u := range r.StandIns {
			given = given || strings.EqualFold(strings.TrimSpace(strings.SplitN(u, "(", 2)[0]), name)
		}
		if !given {
			r.StandIns = append(r.StandIns, s)
		}
	}
}
