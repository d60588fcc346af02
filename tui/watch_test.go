package tui

import (
	"slices"
	"testing"
	"time"

	"github.com/palink/palink/tui/internal/tuitest"
)

func TestStartLoadsJobsClustersAndWatches(t *testing.T) {
	f := tuitest.NewFixture()
	h := newHarness(t, f, 120, 40, Options{})
	for _, call := range []string{"ListJobs", "Clusters", "Watch"} {
		if !f.Called(call) {
			t.Errorf("start did not call %s; calls: %v", call, f.Calls())
		}
	}
	if !h.m.stream.live {
		t.Error("the change stream is not marked live after Watch answered")
	}
	h.MustShow("orders-enrich", "user-features", "jobs 10", "RUNNING 4", "prod rm1 2s", "1/10")
}

func TestLoadFailureShowsPanelAndRecovers(t *testing.T) {
	f := tuitest.NewFixture()
	f.SetFail(tuitest.ErrClusterDown)
	h := newHarness(t, f, 80, 24, Options{})
	h.MustShow("list jobs: connection refused", "ctrl+r retries", "clusters unknown", "live updates paused")
	f.SetFail(nil)
	h.Press("ctrl+r")
	h.MustShow("orders-enrich")
	h.MustNotShow("ctrl+r retries")
	// The watch retries on its own with backoff, and reloads what it missed.
	if !slices.ContainsFunc(h.Timers, func(tm tuitest.Timer) bool { _, ok := tm.Msg(tuitest.Now).(watchRetryMsg); return ok }) {
		t.Fatal("a failed Watch scheduled no retry")
	}
	h.Fire(watchRetryMsg{})
	if !h.m.stream.live {
		t.Error("the retried Watch did not take")
	}
	h.MustNotShow("live updates paused")
}

func TestWatchEndRetriesWithBackoff(t *testing.T) {
	h := newHarness(t, tuitest.NewFixture(), 120, 40, Options{})
	var delays []time.Duration
	for range 3 {
		h.Send(watchEndedMsg{gen: h.m.stream.gen})
		for _, tm := range h.Timers {
			if _, ok := tm.Msg(tuitest.Now).(watchRetryMsg); ok {
				delays = append(delays, tm.D)
			}
		}
		h.Timers = nil
		h.m.stream.gen++ // as a retry would
	}
	if !slices.Equal(delays, []time.Duration{time.Second, 2 * time.Second, 4 * time.Second}) {
		t.Errorf("retry delays %v, want doubling from 1s", delays)
	}
	h.Send(watchEndedMsg{gen: h.m.stream.gen - 10})
	if len(h.Timers) != 0 {
		t.Error("the end of a replaced stream scheduled a retry")
	}
}
