package tui

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/internal/tuitest"
)

// TestHeaderNamesTheLeaderAndSaysWhenEtcdIsUnreachable: on a store shared
// on etcd the header names the host that leads; once etcd stops answering
// this palink, the header and the flash say so, the last known leader
// stays, and a pause the store could not write is reported as failed, never
// as queued. When etcd answers again the banner goes.
func TestHeaderNamesTheLeaderAndSaysWhenEtcdIsUnreachable(t *testing.T) {
	f := tuitest.NewFixture()
	lead := &api.Member{ID: "ops2 pid 41 #aa", Host: "ops2", PID: 41, What: "agent", Leads: true, Since: tuitest.Now.Add(-time.Hour)}
	f.Lead = api.Leadership{Store: "etcd://e1:2379/palink", Shared: true, Leader: lead, Term: 7,
		Members: []api.Member{*lead, {ID: "ops1 pid 9 #bb", Host: "ops1", PID: 9, What: "tui"}}, Self: "ops1 pid 9 #bb"}
	h := newHarness(t, f, 160, 40, Options{})
	h.MustShow("lead ops2 pid 41")
	h.MustNotShow("etcd unreachable")

	f.Mu.Lock()
	f.Lead = api.Leadership{Store: "etcd://e1:2379/palink", Shared: true, Members: []api.Member{},
		Unreachable: "etcd (e1:2379) did not answer: context deadline exceeded"}
	f.ActErr = errors.New("pause user-features: write the command: etcd (e1:2379) did not answer: context deadline exceeded")
	f.Mu.Unlock()
	ticks(h, leadEvery)
	h.MustShow("✖ etcd unreachable last lead ops2") // the leader it knew
	if !strings.Contains(h.Flash(), "did not answer") || !strings.Contains(h.Flash(), "no action is taken until etcd answers") {
		t.Errorf("flash %q does not say etcd is unreachable", h.Flash())
	}

	h.SelectJob("user-features")
	h.Press("p", "tab", "enter")
	if got := actCalls(f); len(got) != 1 {
		t.Fatalf("confirmed pause made the calls %v", got)
	}
	if fl := h.Flash(); strings.Contains(fl, "queued") || !strings.Contains(fl, "did not answer") {
		t.Errorf("a pause the store could not write flashed %q", fl)
	}

	f.Mu.Lock()
	f.Lead = api.Leadership{Store: "etcd://e1:2379/palink", Shared: true, Leader: lead, Term: 7, Members: []api.Member{*lead}}
	f.Mu.Unlock()
	ticks(h, leadEvery)
	h.MustNotShow("etcd unreachable")
	h.MustShow("lead ops2 pid 41")
}

// ticks lets n clock ticks pass, one at a time.
func ticks(h *harness, n int) {
	for range n {
		h.Elapse(time.Second)
	}
}
