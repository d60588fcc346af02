package cli

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/config"
	"github.com/palink/palink/internal/etcdtest"
	"github.com/palink/palink/yarn/sim"
)

// leadStatus is what `palink agent status -o json` prints, as a script
// reads it.
type leadStatus struct {
	Leader *struct {
		ID    string    `json:"id"`
		Host  string    `json:"host"`
		PID   int       `json:"pid"`
		Since time.Time `json:"since"`
	} `json:"leader"`
	Members []struct {
		ID    string `json:"id"`
		Leads bool   `json:"leads"`
	} `json:"members"`
	Self        string `json:"self"`
	Unreachable string `json:"unreachable"`
}

// TestCLIFollowerCutOffFromEtcd: two agents share a store on etcd; `palink
// agent status -o json` through either names the same leader and both
// members. Once etcd stops answering, the follower's status says so and
// exits 1, and a pause through it fails, never printed as queued; once
// etcd is back the follower answers again.
func TestCLIFollowerCutOffFromEtcd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	url := "etcd://" + c.Endpoints()[0] + "/palink-lead"
	onEtcd := func(cfg *config.Config) {
		cfg.Store = url
		cfg.Etcd.ElectionTTL = config.Duration(2 * time.Second)
	}
	a := newCLIEnv(t, sim.Options{}, onEtcd)
	b := newCLIEnvOn(t, a.sim, onEtcd) // another host's palink: its own socket
	sqlFile := writeTemp(t, "job.sql", e2eSQL)
	a.mustRun("job", "create", "--name", "orders", "--sql", sqlFile)

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 2)
	go func() { _, err := a.run(ctx, "agent"); done <- err }()
	defer func() { cancel(); <-done; <-done }()
	// a campaigns first and leads; b follows.
	status := func(e *cliEnv) (leadStatus, error) {
		out, err := e.run(context.Background(), "agent", "status", "-o", "json")
		var st leadStatus
		if jerr := json.Unmarshal([]byte(out), &st); jerr != nil && err == nil {
			err = jerr
		}
		return st, err
	}
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for !ok() {
			if time.Now().After(deadline) {
				t.Fatalf("waited 30s for %s", what)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	var leader string
	waitFor("agent a to lead", func() bool {
		st, err := status(a)
		if err == nil && st.Leader != nil && st.Leader.ID == st.Self {
			leader = st.Self
			return true
		}
		return false
	})
	go func() { _, err := b.run(ctx, "agent"); done <- err }()
	waitFor("agent b to join as a follower", func() bool {
		st, err := status(b)
		return err == nil && len(st.Members) == 2 && st.Self != "" && st.Leader != nil && st.Leader.ID == leader
	})
	b.mustRun("job", "submit", "orders", "--wait") // the leader runs it
	st, _ := status(b)
	if st.Leader.Host == "" || st.Leader.PID == 0 || st.Leader.Since.IsZero() {
		t.Errorf("status names the leader as %+v, want host, pid and since", *st.Leader)
	}
	// A CLI on a host with no agent reads the election itself.
	cli := newCLIEnvOn(t, a.sim, onEtcd)
	if st, err := status(cli); err != nil || st.Leader == nil || st.Leader.ID != leader || len(st.Members) != 2 || st.Self != "" {
		t.Errorf("status from a CLI without an agent: %+v, %v; want the leader %s and 2 members", st, err, leader)
	}

	m := c.Members()[0]
	m.Kill()
	out, err := b.run(context.Background(), "agent", "status")
	var ee exitError
	if !errors.As(err, &ee) || ee.code != 1 || !strings.Contains(out, "leader: unknown: etcd ("+c.Endpoints()[0]+") did not answer") {
		t.Errorf("status of the follower cut off from etcd: %v\n%s", err, out)
	}
	out, err = b.run(context.Background(), "job", "pause", "orders", "--yes")
	if err == nil || strings.Contains(out, "queued") || !strings.Contains(err.Error(), c.Endpoints()[0]) {
		t.Errorf("a pause through the follower cut off from etcd: %v\n%s", err, out)
	}

	m.Restart(t)
	waitFor("the follower to read the election again", func() bool {
		st, err := status(b)
		return err == nil && st.Unreachable == "" && st.Leader != nil
	})
	b.mustRun("job", "pause", "orders", "--wait")
}
