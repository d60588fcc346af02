package clusters_test

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/internal/krbtest"
	"github.com/palink/palink/yarn"
	"github.com/palink/palink/yarn/sim"
)

// TestKerberosLoginPerCluster: two clusters of one palink, with two
// principals, each act as their own in the same process — no process-wide
// login, no shared credential cache — and doAs carries the issuer only
// where the cluster is set up for it.
func TestKerberosLoginPerCluster(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a KDC and the simulator")
	}
	r := krbtest.Start(t, krbtest.Options{})
	httpKT := r.MustAddPrincipal(t, "HTTP/localhost", 0)
	opsKT := r.MustAddPrincipal(t, "ops", 0)
	viewerKT := r.MustAddPrincipal(t, "viewer", 0)
	s, err := sim.New(sim.Options{Seed: 3, Speed: 20, User: "ops", Apps: 4,
		Kerberos: &sim.Kerberos{Keytab: httpKT, ProxyUsers: map[string][]string{"ops": {"*"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(t.Context(), "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	ccBefore := os.Getenv("KRB5CCNAME")

	spec := func(name, user, kt string, doAs bool) clusters.Spec {
		return clusters.Spec{Name: name, RM: s.RMURLs(), DoAs: doAs,
			Kerberos: &clusters.Kerberos{Principal: r.Principal(user), Keytab: kt, Krb5Conf: r.Krb5Conf}}
	}
	cs, err := clusters.New([]clusters.Spec{spec("as-ops", "ops", opsKT, true), spec("as-viewer", "viewer", viewerKT, false)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	sub, err := s.Submit(ctx, sim.SubmitRequest{Name: "orders", Mode: sim.ModePerJob})
	if err != nil {
		t.Fatal(err)
	}
	for {
		a, _ := s.App(sub.AppID)
		if a.State == "RUNNING" {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	// Both log in and list, side by side.
	for _, name := range []string{"as-ops", "as-viewer"} {
		if _, err := cs[name].RM.Applications(ctx, yarn.AppFilter{}); err != nil {
			t.Fatalf("%s: list: %v", name, err)
		}
	}
	// viewer's cluster acts as viewer, whoever issues the kill.
	_, err = cs["as-viewer"].RMFor("alice").Kill(ctx, sub.AppID)
	var acl *yarn.ACLError
	if !errors.As(err, &acl) || acl.User != "viewer" {
		t.Fatalf("kill on the viewer's cluster: %v", err)
	}
	// ops's cluster passes the issuer as doAs: the RM acts as alice.
	_, err = cs["as-ops"].RMFor("alice").Kill(ctx, sub.AppID)
	if !errors.As(err, &acl) || acl.User != "alice" {
		t.Fatalf("kill as alice through doAs: %v", err)
	}
	// The restart policy is palink itself: ops's own rights.
	if _, err := cs["as-ops"].RMFor("policy").Kill(ctx, sub.AppID); err != nil {
		t.Fatalf("kill as ops: %v", err)
	}
	if os.Getenv("KRB5CCNAME") != ccBefore {
		t.Error("a login changed the process's KRB5CCNAME")
	}
}

// TestFlinkHTTPS: with the JobManagers' REST on HTTPS, palink reaches
// amRPCAddress with https://, in both access modes.
func TestFlinkHTTPS(t *testing.T) {
	app := yarn.Application{ID: "application_1_0001", State: yarn.AppRunning, TrackingUI: "ApplicationMaster",
		TrackingURL: "https://rm1:8090/proxy/application_1_0001/", AMRPCAddress: "nm3:41234"}
	for _, access := range []string{"proxy", "direct"} {
		for _, https := range []bool{false, true} {
			c, err := clusters.NewCluster(clusters.Spec{Name: "a", RM: []string{"https://rm1:8090"}, FlinkAccess: access, FlinkHTTPS: https})
			if err != nil {
				t.Fatal(err)
			}
			f, err := c.Flink(app)
			if err != nil {
				t.Fatal(err)
			}
			want := "http://nm3:41234"
			if https {
				want = "https://nm3:41234"
			}
			if f.DirectBase() != want {
				t.Errorf("%s, https %v: direct base %s, want %s", access, https, f.DirectBase(), want)
			}
		}
	}
}
