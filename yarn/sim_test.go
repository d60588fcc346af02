package yarn_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/palink/palink/yarn"
	"github.com/palink/palink/yarn/sim"
)

// These tests run the clients against the simulated cluster with each of
// its faults switched on: every call must end in a success (after a retry or
// a failover) or a clear typed error — never a hang or a panic. The wire
// shapes themselves are checked against the specs in the package's own
// tests; here the point is the clients' behaviour under the sim's faults.

func startSim(t *testing.T, o sim.Options) *sim.Cluster {
	t.Helper()
	c, err := sim.New(o)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(t.Context(), "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func quick() yarn.Options {
	return yarn.Options{
		Timeout:      time.Second,
		RetryWait:    time.Millisecond,
		RetryMaxWait: 5 * time.Millisecond,
		PollInterval: time.Millisecond,
	}
}

// bounded gives each call a deadline far beyond what it needs, so that a
// hang fails the test instead of stalling it.
func bounded(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestSimRMFailover(t *testing.T) {
	c := startSim(t, sim.Options{Seed: 1, RMs: 2})
	urls := c.RMURLs()
	rm, err := yarn.NewResourceManager(urls, quick())
	if err != nil {
		t.Fatal(err)
	}
	ci, err := rm.ClusterInfo(bounded(t))
	if err != nil || ci.HAState != "ACTIVE" || rm.Active() != urls[0] {
		t.Fatalf("info %+v active %s err %v", ci, rm.Active(), err)
	}
	c.FailoverRM()
	ci, err = rm.ClusterInfo(bounded(t))
	if err != nil || ci.HAState != "ACTIVE" {
		t.Fatalf("after RM failover: info %+v err %v", ci, err)
	}
	if rm.Active() != urls[1] {
		t.Errorf("Active = %s, want %s", rm.Active(), urls[1])
	}

	if err := c.SetActiveRM(-1); err != nil { // mid-failover: no RM active
		t.Fatal(err)
	}
	_, err = rm.ClusterInfo(bounded(t))
	if !errors.Is(err, yarn.ErrUnavailable) {
		t.Fatalf("no active RM: err = %v, want ErrUnavailable", err)
	}
}

func TestSimRMWireFaults(t *testing.T) {
	c := startSim(t, sim.Options{Seed: 7})
	o := quick()
	o.Timeout = 150 * time.Millisecond
	rm, err := yarn.NewResourceManager(c.RMURLs(), o)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		fault sim.WireFaults
		check func(t *testing.T, err error)
	}{
		{"every connection reset", sim.WireFaults{ResetRate: 1}, func(t *testing.T, err error) {
			if !errors.Is(err, yarn.ErrUnavailable) {
				t.Errorf("err = %v, want ErrUnavailable", err)
			}
		}},
		{"every answer a 5xx", sim.WireFaults{ErrorRate: 1}, func(t *testing.T, err error) {
			var he *yarn.HTTPError
			if !errors.As(err, &he) || he.Status < 500 {
				t.Errorf("err = %v, want an HTTPError 5xx", err)
			}
		}},
		{"malformed JSON", sim.WireFaults{MalformedRate: 1}, func(t *testing.T, err error) {
			var de *yarn.DecodeError
			if !errors.As(err, &de) || de.Excerpt == "" {
				t.Errorf("err = %v, want a DecodeError with an excerpt", err)
			}
		}},
		{"truncated JSON", sim.WireFaults{TruncateRate: 1}, func(t *testing.T, err error) {
			var de *yarn.DecodeError
			if !errors.As(err, &de) {
				t.Errorf("err = %v, want a DecodeError", err)
			}
		}},
		{"slower than the timeout", sim.WireFaults{Latency: 400 * time.Millisecond}, func(t *testing.T, err error) {
			if !errors.Is(err, yarn.ErrTimeout) {
				t.Errorf("err = %v, want ErrTimeout", err)
			}
		}},
		{"half the connections reset", sim.WireFaults{ResetRate: 0.5}, nil},
		{"some latency", sim.WireFaults{Latency: 20 * time.Millisecond, Jitter: 20 * time.Millisecond}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := c.SetFaults(sim.Faults{Per: map[sim.Kind]sim.WireFaults{sim.KindRM: tc.fault}}); err != nil {
				t.Fatal(err)
			}
			if tc.check == nil {
				// Recoverable: enough retries get through.
				r, err := yarn.NewResourceManager(c.RMURLs(), yarn.Options{Retries: 30, RetryWait: time.Millisecond,
					RetryMaxWait: 2 * time.Millisecond, Timeout: time.Second})
				if err != nil {
					t.Fatal(err)
				}
				for range 5 {
					if _, err := r.ClusterInfo(bounded(t)); err != nil {
						t.Fatalf("recoverable fault not recovered: %v", err)
					}
				}
				return
			}
			_, err := rm.ClusterInfo(bounded(t))
			tc.check(t, err)
		})
	}
}
