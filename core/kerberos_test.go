package core_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/core/internal/coretest"
	"github.com/palink/palink/internal/krbtest"
	"github.com/palink/palink/model"
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
