package core_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/core/internal/coretest"
	"github.com/palink/palink/internal/krbtest"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn/sim"
)

// secureEnv is core over the simulator in secure mode, with a real KDC:
// the cluster authenticates as user from its keytab, or with ccache from
// a credential cache that kinit filled. ops owns the cluster's
// applications.
func secureEnv(t *testing.T, user string, ccache bool) *coretest.Env {
	t.Helper()
	if testing.Short() {
		t.Skip("runs a KDC and the simulator")
	}
	r := krbtest.Start(t, krbtest.Options{})
	httpKT := r.MustAddPrincipal(t, "HTTP/localhost", 0)
	kts := map[string]string{"ops": r.MustAddPrincipal(t, "ops", 0), "viewer": r.MustAddPrincipal(t, "viewer", 0)}
	return coretest.New(t, sim.Options{User: "ops", Kerberos: &sim.Kerberos{Keytab: httpKT}}, func(c *clusters.Spec) {
		c.User = ""
		c.Kerberos = &clusters.Kerberos{Principal: r.Principal(user), Keytab: kts[user], Krb5Conf: r.Krb5Conf}
		if ccache {
			cc := filepath.Join(t.TempDir(), "krb5cc")
			r.Kinit(t, user, kts[user], cc)
			c.Kerberos.Keytab, c.Kerberos.CCache = "", cc
		}
	})
}

// TestKerberosJobLifecycle: on a cluster that requires SPNEGO, with a
// keytab and with a ccache from kinit, palink submits, syncs, pauses,
// restarts and kills a job.
func TestKerberosJobLifecycle(t *testing.T) {
	t.Run("keytab", func(t *testing.T) { jobLifecycle(t, secureEnv(t, "ops", false)) })
	t.Run("ccache", func(t *testing.T) { jobLifecycle(t, secureEnv(t, "ops", true)) })
}

func jobLifecycle(t *testing.T, e *coretest.Env) {
	e.CreateSQL("orders")
	if c := e.Act("orders", model.CmdSubmit, 0); c.State != model.CmdSucceeded {
		t.Fatalf("submit: %s %s\n%v", c.State, c.Error, c.Log)
	}
	e.SyncUntil("orders", "RUNNING with a checkpoint", func(j model.Job) bool { return coretest.Running(j) && j.LatestCheckpoint != nil })
	if c := e.Act("orders", model.CmdPause, 0); c.State != model.CmdSucceeded {
		t.Fatalf("pause: %s %s\n%v", c.State, c.Error, c.Log)
	}
	if c := e.Act("orders", model.CmdRestart, 0); c.State != model.CmdSucceeded {
		t.Fatalf("restart: %s %s\n%v", c.State, c.Error, c.Log)
	}
	j := e.SyncUntil("orders", "RUNNING after restart", coretest.Running)
	if c := e.Act("orders", model.CmdKill, 0); c.State != model.CmdSucceeded {
		t.Fatalf("kill: %s %s\n%v", c.State, c.Error, c.Log)
	}
	if a, err := e.Sim.App(j.AppID); err != nil || a.State != "KILLED" {
		t.Errorf("application %s after kill: %+v %v", j.AppID, a, err)
	}
}

// TestKerberosKillRefusedByACL: a cluster whose principal may not modify
// the job's application fails the kill with the ACL's words, and the
// application still runs.
func TestKerberosKillRefusedByACL(t *testing.T) {
	e := secureEnv(t, "viewer", false)
	e.CreateSQL("orders")
	if c := e.Act("orders", model.CmdSubmit, 0); c.State != model.CmdSucceeded {
		t.Fatalf("submit: %s %s\n%v", c.State, c.Error, c.Log)
	}
	j := e.SyncUntil("orders", "RUNNING", coretest.Running)
	c := e.Act("orders", model.CmdKill, 0)
	if c.State != model.CmdFailed {
		t.Fatalf("kill as viewer: %s %s", c.State, c.Error)
	}
	if want := "user viewer may not kill application " + j.AppID + ": YARN ACL"; !strings.Contains(c.Error, want) {
		t.Errorf("kill error %q lacks %q", c.Error, want)
	}
	if a, err := e.Sim.App(j.AppID); err != nil || a.State != "RUNNING" {
		t.Errorf("application %s after the refused kill: %+v %v", j.AppID, a, err)
	}
}

// TestKerberosTeamActsAsItsPrincipal: on a cluster palink reads as viewer
// (who may not modify applications), team payments has a principal of its
// own, which owns the applications. A kill of a job the team owns is made
// as payments — the YARN ACL lets it — while the same kill with the team
// owning nothing is made as viewer and refused, the application left
// running.
func TestKerberosTeamActsAsItsPrincipal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a KDC and the simulator")
	}
	r := krbtest.Start(t, krbtest.Options{})
	httpKT := r.MustAddPrincipal(t, "HTTP/localhost", 0)
	viewerKT, payKT := r.MustAddPrincipal(t, "viewer", 0), r.MustAddPrincipal(t, "payments", 0)
	fake, err := filepath.Abs("testdata/fake-flink")
	if err != nil {
		t.Fatal(err)
	}
	e := coretest.New(t, sim.Options{User: "payments", Kerberos: &sim.Kerberos{Keytab: httpKT}}, func(c *clusters.Spec) {
		c.User = ""
		c.Kerberos = &clusters.Kerberos{Principal: r.Principal("viewer"), Keytab: viewerKT, Krb5Conf: r.Krb5Conf}
		c.TeamKerberos = map[string]*clusters.Kerberos{"payments": {Principal: r.Principal("payments"), Keytab: payKT}}
		c.Deploy.JarDeployer = "exec"
		c.Deploy.Command = fake + " run -t {target} -d {dynamic} {restore} -c {class} {jar} {args}"
	})
	own := func(cluster string) {
		t.Helper()
		if err := e.St.Update(e.Ctx, func(tx store.Tx) error {
			return tx.PutTeam(model.Team{Name: "payments", Owns: []model.Holding{{Cluster: cluster}}, CreatedAt: time.Now()})
		}); err != nil {
			t.Fatal(err)
		}
	}
	own("sim")
	e.CreateSQL("orders")
	if c := e.Act("orders", model.CmdSubmit, 0); c.State != model.CmdSucceeded {
		t.Fatalf("submit: %s %s\n%v", c.State, c.Error, c.Log)
	}
	j := e.SyncUntil("orders", "RUNNING", coretest.Running)
	if c := e.Act("orders", model.CmdKill, 0); c.State != model.CmdSucceeded {
		t.Fatalf("kill as team payments: %s %s\n%v", c.State, c.Error, c.Log)
	}
	if a, err := e.Sim.App(j.AppID); err != nil || a.State != "KILLED" {
		t.Fatalf("application %s after the team's kill: %+v %v", j.AppID, a, err)
	}

	// `flink run` logs in as the team, whatever a job's config names.
	jar := filepath.Join(t.TempDir(), "ledger.jar")
	if err := os.WriteFile(jar, []byte("PK\x03\x04 not really a jar"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Svc.CreateJob(e.Ctx, api.CreateJobRequest{Name: "ledger", Cluster: "sim", Kind: model.KindJAR,
		Spec:   model.Spec{JarPath: jar, EntryClass: "com.acme.Ledger"},
		Config: map[string]string{"security.kerberos.login.principal": r.Principal("viewer"), "security.kerberos.login.keytab": viewerKT}}); err != nil {
		t.Fatal(err)
	}
	c := e.Act("ledger", model.CmdSubmit, 0)
	if c.State != model.CmdSucceeded {
		t.Fatalf("submit ledger: %s %s\n%v", c.State, c.Error, c.Log)
	}
	logged := strings.Join(coretest.LogTexts(c), "\n")
	for _, want := range []string{"-Dsecurity.kerberos.login.principal=" + r.Principal("payments"), "-Dsecurity.kerberos.login.keytab=" + payKT} {
		if !strings.Contains(logged, want) {
			t.Errorf("flink run lacks %s:\n%s", want, logged)
		}
	}
	if strings.Contains(logged, viewerKT) {
		t.Errorf("flink run was given the keytab the job's config named:\n%s", logged)
	}

	own("elsewhere")
	killed := j.AppID
	if c := e.Act("orders", model.CmdResubmit, model.RestoreNone); c.State != model.CmdSucceeded {
		t.Fatalf("resubmit: %s %s\n%v", c.State, c.Error, c.Log)
	}
	j = e.SyncUntil("orders", "RUNNING again", func(j model.Job) bool { return coretest.Running(j) && j.AppID != killed })
	c = e.Act("orders", model.CmdKill, 0)
	if want := "user viewer may not kill application " + j.AppID + ": YARN ACL"; c.State != model.CmdFailed || !strings.Contains(c.Error, want) {
		t.Fatalf("kill with no team owning the job: %s %q, want FAILED with %q", c.State, c.Error, want)
	}
	if a, err := e.Sim.App(j.AppID); err != nil || a.State != "RUNNING" {
		t.Errorf("application %s after the refused kill: %+v %v", j.AppID, a, err)
	}
}
