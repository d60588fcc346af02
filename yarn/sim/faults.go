package sim

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Kind names one kind of listener, so that faults can target it.
type Kind string

// Listener kinds. The web proxy shares the RM listener but is its own kind:
// requests under /proxy/ get the proxy's faults, the rest the RM's.
const (
	KindRM      Kind = "rm"
	KindProxy   Kind = "proxy"
	KindJM      Kind = "jm"
	KindGateway Kind = "gateway"
)

// Kinds lists every listener kind.
func Kinds() []Kind { return []Kind{KindRM, KindProxy, KindJM, KindGateway} }

// WireFaults are faults injected into HTTP exchanges. Rates are
// probabilities in [0,1] drawn per request, in this order: reset, 5xx,
// malformed, truncated (at most one of them per request).
type WireFaults struct {
	// Latency is added to every response, plus a uniform random share of Jitter.
	// Both are wall-clock durations: a slow network does not speed up with the clock.
	Latency time.Duration
	Jitter  time.Duration
	// ErrorRate answers with a 5xx in the listener's own error shape.
	ErrorRate float64
	// ResetRate drops the connection without an answer (TCP RST).
	ResetRate float64
	// MalformedRate corrupts a JSON body so that it no longer parses.
	MalformedRate float64
	// TruncateRate cuts a JSON body short (Content-Length matches the cut body).
	TruncateRate float64
}

// IsZero reports whether w injects nothing.
func (w WireFaults) IsZero() bool { return w == WireFaults{} }

// Faults are all the faults a cluster injects. They are set in Options and
// can be changed at runtime with SetFaults or PUT /sim/faults.
type Faults struct {
	// All applies to every listener kind that has no entry in Per.
	All WireFaults
	// Per replaces All for one listener kind.
	Per map[Kind]WireFaults
	// RMFailoverEvery makes the standby RM take over at this simulated
	// interval (needs RMs >= 2). 0 disables it.
	RMFailoverEvery time.Duration
	// JMFailoverEvery fails the JobManager of one random running
	// application at this simulated interval. 0 disables it.
	JMFailoverEvery time.Duration
	// JobFailEvery fails one random running Flink job at this simulated
	// interval: a restart that recovers, or with probability FatalShare a
	// failure that exhausts the restart strategy. 0 disables it.
	JobFailEvery time.Duration
	FatalShare   float64
	// StaleStatus makes a JobManager report a job that just ended (stopped,
	// cancelled, finished) as still RUNNING for this long of simulated time
	// in its job listings and status: the moment a restart may meet right
	// after a pause. 0 disables it.
	StaleStatus time.Duration
}

// Wire returns the wire faults that apply to listener kind k.
func (f Faults) Wire(k Kind) WireFaults {
	if w, ok := f.Per[k]; ok {
		return w
	}
	return f.All
}

func (f Faults) clone() Faults {
	g := f
	if f.Per != nil {
		g.Per = make(map[Kind]WireFaults, len(f.Per))
		for k, v := range f.Per {
			g.Per[k] = v
		}
	}
	return g
}

// wireFaultsJSON is WireFaults on the wire of /sim/faults: durations as Go
// duration strings ("250ms").
type wireFaultsJSON struct {
	Latency       string  `json:"latency,omitempty"`
	Jitter        string  `json:"jitter,omitempty"`
	ErrorRate     float64 `json:"errorRate,omitempty"`
	ResetRate     float64 `json:"resetRate,omitempty"`
	MalformedRate float64 `json:"malformedRate,omitempty"`
	TruncateRate  float64 `json:"truncateRate,omitempty"`
}

type faultsJSON struct {
	All             wireFaultsJSON          `json:"all"`
	Per             map[Kind]wireFaultsJSON `json:"per,omitempty"`
	RMFailoverEvery string                  `json:"rmFailoverEvery,omitempty"`
	JMFailoverEvery string                  `json:"jmFailoverEvery,omitempty"`
	JobFailEvery    string                  `json:"jobFailEvery,omitempty"`
	FatalShare      float64                 `json:"fatalShare,omitempty"`
	StaleStatus     string                  `json:"staleStatus,omitempty"`
}

func durString(d time.Duration) string {
	if d == 0 {
		return ""
	}
	return d.String()
}

func parseDur(field, s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("faults: %s: %w", field, err)
	}
	if d < 0 {
		return 0, fmt.Errorf("faults: %s: negative duration %s", field, s)
	}
	return d, nil
}

func (w WireFaults) toJSON() wireFaultsJSON {
	return wireFaultsJSON{durString(w.Latency), durString(w.Jitter), w.ErrorRate, w.ResetRate, w.MalformedRate, w.TruncateRate}
}

func (j wireFaultsJSON) toWire(where string) (WireFaults, error) {
	var w WireFaults
	var err error
	if w.Latency, err = parseDur(where+".latency", j.Latency); err != nil {
		return w, err
	}
	if w.Jitter, err = parseDur(where+".jitter", j.Jitter); err != nil {
		return w, err
	}
	w.ErrorRate, w.ResetRate, w.MalformedRate, w.TruncateRate = j.ErrorRate, j.ResetRate, j.MalformedRate, j.TruncateRate
	return w, w.validate(where)
}

func (w WireFaults) validate(where string) error {
	for name, r := range map[string]float64{"errorRate": w.ErrorRate, "resetRate": w.ResetRate, "malformedRate": w.MalformedRate, "truncateRate": w.TruncateRate} {
		if r < 0 || r > 1 {
			return fmt.Errorf("faults: %s.%s: %v is not a probability in [0,1]", where, name, r)
		}
	}
	if w.Latency < 0 || w.Jitter < 0 {
		return fmt.Errorf("faults: %s: negative latency or jitter", where)
	}
	return nil
}

// Validate reports the first invalid field of f.
func (f Faults) Validate() error {
	if err := f.All.validate("all"); err != nil {
		return err
	}
	for k, w := range f.Per {
		if !validKind(k) {
			return fmt.Errorf("faults: unknown listener kind %q (want rm, proxy, jm or gateway)", k)
		}
		if err := w.validate(string(k)); err != nil {
			return err
		}
	}
	if f.FatalShare < 0 || f.FatalShare > 1 {
		return fmt.Errorf("faults: fatalShare %v is not a probability in [0,1]", f.FatalShare)
	}
	if f.RMFailoverEvery < 0 || f.JMFailoverEvery < 0 || f.JobFailEvery < 0 || f.StaleStatus < 0 {
		return fmt.Errorf("faults: negative interval")
	}
	return nil
}

func validKind(k Kind) bool {
	for _, v := range Kinds() {
		if v == k {
			return true
		}
	}
	return false
}

// MarshalJSON writes f as /sim/faults serves it, durations as strings.
func (f Faults) MarshalJSON() ([]byte, error) {
	j := faultsJSON{All: f.All.toJSON(), RMFailoverEvery: durString(f.RMFailoverEvery),
		JMFailoverEvery: durString(f.JMFailoverEvery), JobFailEvery: durString(f.JobFailEvery), FatalShare: f.FatalShare,
		StaleStatus: durString(f.StaleStatus)}
	if len(f.Per) > 0 {
		j.Per = make(map[Kind]wireFaultsJSON, len(f.Per))
		for k, w := range f.Per {
			j.Per[k] = w.toJSON()
		}
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads what MarshalJSON writes, and validates it.
func (f *Faults) UnmarshalJSON(b []byte) error {
	var j faultsJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return fmt.Errorf("faults: %w", err)
	}
	var g Faults
	var err error
	if g.All, err = j.All.toWire("all"); err != nil {
		return err
	}
	for k, wj := range j.Per {
		w, err := wj.toWire(string(k))
		if err != nil {
			return err
		}
		if g.Per == nil {
			g.Per = map[Kind]WireFaults{}
		}
		g.Per[k] = w
	}
	if g.RMFailoverEvery, err = parseDur("rmFailoverEvery", j.RMFailoverEvery); err != nil {
		return err
	}
	if g.JMFailoverEvery, err = parseDur("jmFailoverEvery", j.JMFailoverEvery); err != nil {
		return err
	}
	if g.JobFailEvery, err = parseDur("jobFailEvery", j.JobFailEvery); err != nil {
		return err
	}
	if g.StaleStatus, err = parseDur("staleStatus", j.StaleStatus); err != nil {
		return err
	}
	g.FatalShare = j.FatalShare
	if err := g.Validate(); err != nil {
		return err
	}
	*f = g
	return nil
}

// ParseFaults reads the compact form used on command lines:
// groups separated by ';', each "[kind:]key=value,key=value". Keys: latency,
// jitter (durations), 5xx, reset, malformed, truncated (probabilities), and,
// without a kind, rm-failover, jm-failover, job-fail (simulated intervals)
// and fatal (share of job failures that are fatal). Example:
//
//	latency=20ms,5xx=0.02;jm:reset=0.05;job-fail=2m,fatal=0.3;stale-status=5s
func ParseFaults(s string) (Faults, error) {
	var f Faults
	for _, group := range strings.Split(s, ";") {
		group = strings.TrimSpace(group)
		if group == "" {
			continue
		}
		kind := Kind("")
		if i := strings.Index(group, ":"); i >= 0 && !strings.Contains(group[:i], "=") {
			kind = Kind(strings.TrimSpace(group[:i]))
			if !validKind(kind) {
				return Faults{}, fmt.Errorf("faults %q: unknown listener kind %q (want rm, proxy, jm or gateway)", s, kind)
			}
			group = group[i+1:]
		}
		w := f.All
		if kind != "" {
			w = f.Wire(kind)
		}
		for _, kv := range strings.Split(group, ",") {
			key, val, ok := strings.Cut(strings.TrimSpace(kv), "=")
			if !ok {
				return Faults{}, fmt.Errorf("faults %q: %q is not key=value", s, kv)
			}
			if err := setFault(&f, &w, kind, key, val); err != nil {
				return Faults{}, fmt.Errorf("faults %q: %w", s, err)
			}
		}
		if kind == "" {
			f.All = w
		} else {
			if f.Per == nil {
				f.Per = map[Kind]WireFaults{}
			}
			f.Per[kind] = w
		}
	}
	return f, f.Validate()
}

func setFault(f *Faults, w *WireFaults, kind Kind, key, val string) error {
	dur := func(dst *time.Duration) error {
		d, err := time.ParseDuration(val)
		if err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		*dst = d
		return nil
	}
	rate := func(dst *float64) error {
		r, err := strconv.ParseFloat(val, 64)
		if err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		*dst = r
		return nil
	}
	switch key {
	case "latency":
		return dur(&w.Latency)
	case "jitter":
		return dur(&w.Jitter)
	case "5xx", "error":
		return rate(&w.ErrorRate)
	case "reset":
		return rate(&w.ResetRate)
	case "malformed":
		return rate(&w.MalformedRate)
	case "truncated", "truncate":
		return rate(&w.TruncateRate)
	}
	if kind != "" {
		return fmt.Errorf("%s cannot be set per listener kind", key)
	}
	switch key {
	case "rm-failover":
		return dur(&f.RMFailoverEvery)
	case "jm-failover":
		return dur(&f.JMFailoverEvery)
	case "job-fail":
		return dur(&f.JobFailEvery)
	case "fatal":
		return rate(&f.FatalShare)
	case "stale-status":
		return dur(&f.StaleStatus)
	}
	return fmt.Errorf("unknown fault %q", key)
}
