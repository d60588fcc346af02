package sim

import (
	"math"
	"strings"
	"time"
)

// The records that flow through a job: each vertex's records in and out
// per second, for the job's input rate (inputRate) and summed over time
// (input). What a vertex sends down an edge is what the next one reads
// from it, so the graph's figures add up as Flink's do.

// flow is a vertex's records per second in and out (all its subtasks) for
// one record per second of the job's per-subtask input rate, and the sum
// of its subtasks' shares (a subtask reads share/shares of the vertex's
// records).
type flow struct {
	in, out, shares float64
}

// flows are the job's vertices' flows, computed once per layout.
func (j *job) flows() []flow {
	if len(j.flow) == len(j.vertices) {
		return j.flow
	}
	n := len(j.vertices)
	fl := make([]flow, n)
	sel := make([]float64, n)
	for i, v := range j.vertices {
		hot, factor := j.skew(v)
		for s := 0; s < v.parallelism; s++ {
			share := 0.85 + 0.3*noise(j.seed, uint64(s)+200)
			if s == hot {
				share *= factor
			}
			fl[i].shares += share
		}
		// What a vertex keeps of what it reads: a filter or a join keeps
		// some, the later ones most; below 1, so that an iteration's
		// feedback converges.
		sel[i] = 0.6 + 0.4*noise(j.seed, 104)
		if v.level > 1 {
			sel[i] = 0.9 + 0.1*noise(j.seed, uint64(400+v.level))
		}
		sel[i] = math.Min(sel[i], 0.98)
	}
	// Sources emit what they read from outside; every other vertex reads
	// what its inputs send (a broadcast edge sends each record to every
	// subtask). Feedback edges make it a fixed point, found by iterating;
	// an iteration that would grow for ever (a broadcast in the loop)
	// sends back less, halved until it settles.
	feedsBack := make([]bool, n)
	for i, v := range j.vertices {
		for _, e := range v.inputs {
			if e.from >= i {
				feedsBack[e.from] = true
			}
		}
	}
	for damp := 1.0; ; damp /= 2 {
		if settle(j.vertices, fl, sel) {
			break
		}
		for i := range fl {
			fl[i].in, fl[i].out = 0, 0
			if feedsBack[i] {
				sel[i] /= 2
			}
		}
		if damp < 1e-9 {
			break // cannot happen: a loop's gain halves each time
		}
	}
	j.flow = fl
	return fl
}

// settle iterates the flows to their fixed point; false if they diverge.
func settle(vs []*vertex, fl []flow, sel []float64) bool {
	base := vs[0].base
	for range 2000 {
		change := 0.0
		for i, v := range vs {
			in := 0.0
			for _, e := range v.inputs {
				sent := fl[e.from].out
				if strings.EqualFold(e.strategy, "BROADCAST") {
					sent *= float64(v.parallelism)
				}
				in += sent
			}
			var out float64
			switch v.role {
			case roleSource:
				out = float64(v.parallelism)*v.base/base + in*sel[i]
			case roleMiddle:
				out = in * sel[i]
			}
			change = math.Max(change, math.Abs(in-fl[i].in)+math.Abs(out-fl[i].out))
			fl[i].in, fl[i].out = in, out
			if out > 1e12 {
				return false
			}
		}
		if change < 1e-12 {
			return true
		}
	}
	return false
}

// inputRate is the job's input per subtask of a source at t, in records
// per second: its traffic's wave, halved under full backpressure.
func (j *job) inputRate(t time.Time) float64 {
	return j.vertices[0].base * j.wave(t) * (1 - 0.5*j.pressure(t))
}

// inputStep is the step of input's sum: the wave's noise changes every
// 5 s, its slow parts over minutes.
const inputStep = 5 * time.Second

// pastStep is the step of input's sum over a backdated job's past, before
// the simulation started; its buckets do not depend on when the sum is
// asked for either.
const pastStep = 10 * time.Minute

// input is inputRate summed from when the job started running to t (its
// integral), in records: bucket by bucket of inputStep on the wall's
// 5-second marks, each at its middle, so that the sum does not depend on
// when it is asked for. The sum up to the last mark asked is kept.
func (j *job) input(t time.Time) float64 {
	if !t.After(j.running) {
		return 0
	}
	c := &j.inputSum
	if !c.running.Equal(j.running) || c.at.After(t) {
		*c = inputSum{running: j.running, at: j.running}
	}
	for {
		next := c.at.Truncate(inputStep).Add(inputStep)
		if c.at.Before(j.pastUntil) {
			// The backdated past, up to three days of it, in buckets of
			// pastStep: at 5 s a bucket, a fleet of 10,000 cost the
			// simulator half a minute of CPU on its first metrics.
			next = c.at.Truncate(pastStep).Add(pastStep)
			if next.After(j.pastUntil) {
				next = j.pastUntil
			}
		}
		if next.After(t) {
			break
		}
		c.sum += j.inputRate(c.at.Add(next.Sub(c.at)/2)) * next.Sub(c.at).Seconds()
		c.at = next
	}
	return c.sum + j.inputRate(c.at.Add(t.Sub(c.at)/2))*t.Sub(c.at).Seconds()
}

// inputSum is input's sum up to a 5-second mark.
type inputSum struct {
	running, at time.Time
	sum         float64
}
