package demo

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// A started demo is set up as a team's cluster would be: :tables lists
// the catalog (users in two versions, the second made in the hour, used by
// user-features, which defines neither of its sources and was deployed
// with both injected), the dimension database's password is a secret read
// from the environment, :udfs lists risk_score with fraud-scoring calling
// it, and :projects the sessionizer project with its artifact and the JAR
// job built from it.
func TestDemoShowsItsTablesVariablesUDFAndProject(t *testing.T) {
	d, _ := startTestDemo(t, warmJobs)
	ctx := t.Context()

	tables, err := d.svc.Tables(ctx, Cluster)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tb := range tables {
		names = append(names, tb.Name)
	}
	if !slices.Equal(names, []string{"orders", "users"}) {
		t.Fatalf("the demo's catalog holds %v, want orders and users", names)
	}
	users, err := d.svc.Table(ctx, api.TableRef{Cluster: Cluster, Name: "users"})
	if err != nil {
		t.Fatal(err)
	}
	if len(users.Versions) != 2 || users.Table.Version != 2 || users.Error != "" {
		t.Errorf("users: version %d of %d (%q), want version 2 of 2 that validates", users.Table.Version, len(users.Versions), users.Error)
	}
	// user-features-2 was deployed before users got its cache: the table
	// names it as changed at its next restart.
	var waiting bool
	for _, u := range users.Jobs {
		if u.JobName == "user-features-2" {
			waiting = !u.Own && u.Deployed == 1 && u.Changes
		}
	}
	if !waiting {
		t.Errorf("users' jobs %+v: want user-features-2, deployed with users@v1, changed at its next restart", users.Jobs)
	}

	// The deploy of user-features injected both tables.
	job, err := d.svc.Job(ctx, "user-features")
	if err != nil {
		t.Fatal(err)
	}
	var injected string
	for _, c := range job.Commands {
		if c.Kind == model.CmdSubmit && c.State == model.CmdSucceeded {
			injected = model.CatalogRefs(c.Params.Catalog)
		}
	}
	if injected != "orders@v1, users@v1" {
		t.Errorf("user-features's submit injected %q, want orders@v1, users@v1; commands %+v", injected, job.Commands)
	}

	vars, err := d.svc.Vars(ctx, Cluster)
	if err != nil {
		t.Fatal(err)
	}
	// The password is a secret read from the environment: the store keeps
	// where it comes from, never its value (the CLI and the TUI mask it).
	byName := map[string]model.Variable{}
	for _, v := range vars {
		byName[v.Name] = v
		if strings.Contains(v.Value, passwordValue) {
			t.Errorf("variable %s holds the secret's value", v.Name)
		}
	}
	if pw := byName["users_password"]; !pw.Secret() || pw.SecretEnv != passwordEnv || byName["kafka"].Value != "kafka:9092" {
		t.Errorf("variables %+v, want users_password a secret from %s and kafka's brokers", vars, passwordEnv)
	}

	udfs, err := d.svc.UDFs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var callers []string
	for _, u := range udfs {
		if u.Name == "risk_score" {
			for _, j := range u.Jobs {
				callers = append(callers, j.JobName)
			}
		}
	}
	if !slices.Contains(callers, "fraud-scoring") {
		t.Errorf("UDFs %+v: want risk_score called by fraud-scoring", udfs)
	}
	fraud, err := d.svc.Job(ctx, "fraud-scoring")
	if err != nil {
		t.Fatal(err)
	}
	if fraud.Job.State != model.StateRunning {
		t.Errorf("fraud-scoring, which calls the registered UDF, is %s, want RUNNING", fraud.Job.State)
	}

	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git: the demo has no project")
	}
	d.seedProject(ctx, d.dir) // as `palink demo` runs it, beside the warm-up
	projects, err := d.svc.Projects(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(projects) != 1 || projects[0].Name != project {
		t.Fatalf("projects %+v, want %s", projects, project)
	}
	arts, err := d.svc.Artifacts(ctx, project)
	if err != nil {
		t.Fatal(err)
	}
	if len(arts) != 1 || arts[0].File != "target/sessionizer-1.3.0.jar" || !strings.Contains(arts[0].Log, "BUILD SUCCESS") {
		t.Errorf("artifacts %+v, want the one build of target/sessionizer-1.3.0.jar", arts)
	}
	jar, err := d.svc.Job(ctx, project)
	if err != nil {
		t.Fatal(err)
	}
	if jar.Job.Kind != model.KindJAR || jar.Spec.Project != project {
		t.Errorf("job %s is %s of project %q, want a JAR job of %s", project, jar.Job.Kind, jar.Spec.Project, project)
	}
}

// Without git on the PATH the demo has no project, and says so only in
// its log: nothing else changes.
func TestDemoWithoutGitHasNoProject(t *testing.T) {
	d, _ := startTestDemo(t, 6)
	t.Setenv("PATH", t.TempDir())
	d.seedProject(t.Context(), d.dir)
	projects, err := d.svc.Projects(t.Context())
	if err != nil || len(projects) != 0 {
		t.Errorf("projects %+v (%v), want none without git", projects, err)
	}
	if _, err := d.svc.Job(t.Context(), project); err == nil {
		t.Errorf("a %s job without its project", project)
	}
}
