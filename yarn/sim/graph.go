package sim

import (
	"fmt"
	"strings"
	"time"
)

// The job graph: which vertex feeds which, by what ship strategy, and the
// shapes a test or a demo gives a job (Graph, Diagnosis). Every figure
// stays a pure function of the job's seed, its shape and the time.

// edge is one input of a vertex: from the vertex at index from, shipped by
// strategy (HASH, FORWARD, REBALANCE, …, or anything a Graph says).
type edge struct {
	from     int
	strategy string
}

// Graph is a job graph for SetJobGraph: vertices in Flink's order, each
// with the edges that feed it. Edges may go backwards (an iteration's
// feedback), and strategies may be any text.
type Graph struct {
	Vertices []GraphVertex `json:"vertices"`
}

// GraphVertex is one vertex of a Graph.
type GraphVertex struct {
	Name        string       `json:"name"`
	Parallelism int          `json:"parallelism"`
	Inputs      []GraphInput `json:"inputs,omitempty"`
}

// GraphInput is one edge into a vertex, from the vertex at index From.
type GraphInput struct {
	From         int    `json:"from"`
	ShipStrategy string `json:"shipStrategy"`
}

// Diagnosis shapes the figures of one job, so that a demo or a test shows
// a known cause; its zero value changes nothing.
type Diagnosis struct {
	// Bottleneck (an index in the job graph) is busy Pressure of the time
	// (0..1) for good, and every vertex upstream of it backpressured.
	// Pressure 0 leaves the job's own cycles.
	Bottleneck int     `json:"bottleneck"`
	Pressure   float64 `json:"pressure"`
	// SkewVertex's subtask SkewSubtask takes SkewFactor times the records
	// of an ordinary subtask (a hot key). A factor between 0 and 1 takes
	// away the skew some jobs have of their own; 0 keeps it.
	SkewVertex  int     `json:"skewVertex"`
	SkewSubtask int     `json:"skewSubtask"`
	SkewFactor  float64 `json:"skewFactor"`
	// SlowCheckpoint is how long subtask SlowSubtask of vertex SlowVertex
	// takes in every checkpoint (its asynchronous phase); 0 keeps the job's
	// own slow part.
	SlowVertex     int           `json:"slowVertex"`
	SlowSubtask    int           `json:"slowSubtask"`
	SlowCheckpoint time.Duration `json:"slowCheckpoint"`
	// FlameFrames makes every flame graph of the job about this many
	// frames; ThreadDumpBytes pads its TaskManagers' thread dumps to about
	// this size (the limits tests).
	FlameFrames     int `json:"flameFrames"`
	ThreadDumpBytes int `json:"threadDumpBytes"`
	// FlameGraphs enables flame graphs for the job's cluster whatever its
	// rest.flamegraph.enabled.
	FlameGraphs bool `json:"flameGraphs"`
	// JobManagerStall makes the JobManager answer every diagnostic read
	// of the job this late (a JobManager that times out halfway).
	JobManagerStall time.Duration `json:"jobManagerStall"`
}

// SetJobGraph gives a job (a Flink job id, or an application id for its
// newest live job) another graph: new vertices, with new ids. A vertex
// nothing feeds is a source, one that feeds nothing a sink.
func (c *Cluster) SetJobGraph(ref string, g Graph) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	j, err := c.resolveAny(ref)
	if err != nil {
		return fmt.Errorf("set job graph of %s: %w", ref, err)
	}
	if len(g.Vertices) == 0 {
		return fmt.Errorf("set job graph of %s: %w: no vertices", ref, ErrInvalid)
	}
	vs := make([]*vertex, len(g.Vertices))
	for i, gv := range g.Vertices {
		p := gv.Parallelism
		if p <= 0 {
			p = j.parallelism
		}
		v := &vertex{id: hex32(c.flink.rng), name: gv.Name, parallelism: p, base: 200 + noise(j.seed, uint64(40+i))*4800}
		if v.name == "" {
			v.name = fmt.Sprintf("Map[%d]", i+1)
		}
		for _, in := range gv.Inputs {
			if in.From < 0 || in.From >= len(g.Vertices) {
				return fmt.Errorf("set job graph of %s: %w: vertex %d has an input from %d", ref, ErrInvalid, i, in.From)
			}
			v.inputs = append(v.inputs, edge{from: in.From, strategy: in.ShipStrategy})
		}
		vs[i] = v
	}
	j.vertices = vs
	j.layout()
	maxP := 0
	for _, v := range vs {
		maxP = max(maxP, v.parallelism)
	}
	j.parallelism = max(j.parallelism, maxP)
	return nil
}

// Diagnose gives a job (ref as for SetJobGraph) the shape d.
func (c *Cluster) Diagnose(ref string, d Diagnosis) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	j, err := c.resolveAny(ref)
	if err != nil {
		return fmt.Errorf("diagnose %s: %w", ref, err)
	}
	n := len(j.vertices)
	if d.Pressure > 0 && (d.Bottleneck < 0 || d.Bottleneck >= n) ||
		d.SkewFactor > 1 && (d.SkewVertex < 0 || d.SkewVertex >= n) ||
		d.SlowCheckpoint > 0 && (d.SlowVertex < 0 || d.SlowVertex >= n) {
		return fmt.Errorf("diagnose %s: %w: a vertex index out of 0..%d", ref, ErrInvalid, n-1)
	}
	j.diag = &d
	j.layout()
	return nil
}

// resolveAny finds a job by Flink job id, or an application's newest job
// whatever its state.
func (c *Cluster) resolveAny(ref string) (*job, error) {
	now := c.clock.Now()
	if j, ok := c.flink.byID[ref]; ok {
		c.yarn.advance(j.app, now)
		return j, nil
	}
	a := c.yarn.get(ref, now)
	if a == nil || len(a.jobs) == 0 {
		return nil, fmt.Errorf("%w: no application or job %s", ErrNotFound, ref)
	}
	return a.jobs[len(a.jobs)-1], nil
}

// layout derives what the figures need from the graph: each vertex's role
// and level (its distance from the sources, feedback edges ignored), the
// bottleneck, and what lies upstream of it.
func (j *job) layout() {
	n := len(j.vertices)
	j.flow = nil
	feeds := make([]bool, n)
	for i, v := range j.vertices {
		v.idx = i
		for _, in := range v.inputs {
			if in.from != i {
				feeds[in.from] = true
			}
		}
	}
	for i, v := range j.vertices {
		forward := 0
		for _, in := range v.inputs {
			if in.from < i {
				forward++
			}
		}
		switch {
		case forward == 0:
			v.role = roleSource
		case !feeds[i]:
			v.role = roleSink
		default:
			v.role = roleMiddle
		}
		v.level = 0
		for _, in := range v.inputs {
			if in.from < i { // feedback edges (from later vertices) do not count
				v.level = max(v.level, j.vertices[in.from].level+1)
			}
		}
	}
	j.bottleneck = n - 1
	for i, v := range j.vertices {
		if v.lookup {
			j.bottleneck = i
			break
		}
	}
	if d := j.diag; d != nil && d.Pressure > 0 {
		j.bottleneck = d.Bottleneck
	}
	// Upstream of the bottleneck: everything it reads from, transitively.
	j.upstream = make([]bool, n)
	stack := []int{j.bottleneck}
	for len(stack) > 0 {
		k := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, in := range j.vertices[k].inputs {
			if in.from != j.bottleneck && !j.upstream[in.from] {
				j.upstream[in.from] = true
				stack = append(stack, in.from)
			}
		}
	}
}

// skew is the hot subtask of a vertex and its factor (1: none): the
// Diagnosis's, else the job's own, which some jobs have (a hot key after a
// hash exchange), chosen by the seed.
func (j *job) skew(v *vertex) (subtask int, factor float64) {
	if d := j.diag; d != nil && d.SkewFactor != 0 {
		if d.SkewFactor > 1 && d.SkewVertex == v.idx {
			return d.SkewSubtask, d.SkewFactor
		}
		return -1, 1
	}
	if v.parallelism < 2 || noise(j.seed, 105) > 0.35 || !hashed(v) {
		return -1, 1
	}
	return int(noise(j.seed, 106) * float64(v.parallelism)), 3 + 5*noise(j.seed, 107)
}

// hashed reports whether a vertex reads through a HASH exchange (where a
// hot key lands on one subtask).
func hashed(v *vertex) bool {
	for _, in := range v.inputs {
		if strings.EqualFold(in.strategy, "HASH") {
			return true
		}
	}
	return false
}

// planJSON is the job's plan (JobPlanInfo's "plan").
func planJSON(j *job) map[string]any {
	nodes := []map[string]any{}
	for _, v := range j.vertices {
		n := map[string]any{"id": v.id, "parallelism": v.parallelism, "operator": "", "operator_strategy": "",
			"description": strings.ReplaceAll(v.name, " -> ", "<br/>+- "), "optimizer_properties": map[string]any{}}
		if len(v.inputs) > 0 {
			ins := []map[string]any{}
			for k, in := range v.inputs {
				ins = append(ins, map[string]any{"num": k, "id": j.vertices[in.from].id, "ship_strategy": in.strategy,
					"exchange": "pipelined_bounded"})
			}
			n["inputs"] = ins
		}
		nodes = append(nodes, n)
	}
	return map[string]any{"jid": j.id, "name": j.name, "type": "STREAMING", "nodes": nodes}
}
