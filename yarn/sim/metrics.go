package sim

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Vertex roles in the job graph.
const (
	roleSource = iota
	roleMiddle
	roleSink
)

// vertex is one operator chain (job vertex) of a job.
type vertex struct {
	id          string
	name        string
	parallelism int
	inputs      []edge // what feeds it (graph.go)
	idx         int    // its index in the job graph
	level       int    // its distance from the sources
	role        int
	kafka       bool   // a Kafka-like source: pendingRecords, records-lag-max
	lookup      bool   // contains a lookup join (often the bottleneck)
	opScope     string // metric scope of the chain's head or sink operator
	base        float64
}

// noise is a deterministic pseudo-random number in [0,1) for (seed, k)
// (splitmix64), so metrics are a pure function of the seed and the time.
func noise(seed, k uint64) float64 {
	z := seed + k*0x9e3779b97f4a7c15 + 0x632be59bd9b4e019
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	return float64(z>>11) / float64(1<<53)
}

// pressure is how hard the job's bottleneck is pushed at t, in [0,1]. Most
// jobs are never backpressured; some go through slow cycles of it.
func (j *job) pressure(t time.Time) float64 {
	p := j.cycle(t)
	if d := j.diag; d != nil && d.Pressure > 0 {
		p = math.Min(1, d.Pressure)
	}
	return math.Max(p, j.strain.Pressure)
}

// cycle is the pressure of the job's own slow cycles, if it has them.
func (j *job) cycle(t time.Time) float64 {
	severity := noise(j.seed, 101)
	if severity < 0.55 {
		return 0
	}
	sec := float64(t.UnixMilli()) / 1000
	s := math.Sin(2*math.Pi*sec/900 + noise(j.seed, 102)*6.28)
	if s <= 0 {
		return 0
	}
	return math.Min(1, s*s*s*(severity-0.45)*2)
}

// wave is the slow traffic pattern of the job's input at t.
func (j *job) wave(t time.Time) float64 {
	sec := float64(t.UnixMilli()) / 1000
	w := 1 + 0.3*math.Sin(2*math.Pi*sec/600+noise(j.seed, 103)*6.28)
	return w + 0.1*(noise(j.seed, uint64(sec/5))-0.5)
}

// vertexFigures are a vertex subtask's headline metrics at one instant.
type vertexFigures struct {
	inRate, outRate           float64
	busy, backpressured, idle float64 // ms per second
	watermark                 int64   // currentInputWatermark, MinInt64 for sources
	pending, lagMax           float64
	inTotal, outTotal         float64
}

// figures computes one subtask's metrics at t. They are plausible and
// consistent: the records a vertex sends down an edge are the records the
// next vertex reads from it (flows); a vertex upstream of a busy one is
// backpressured and its watermark and Kafka lag fall behind; a skewed
// vertex's hot subtask takes the records of several; the totals are the
// rates summed over time (input), so two samples of them give the rates.
// Called under the cluster's lock (it fills the job's caches).
func (j *job) figures(v *vertex, subtask int, t time.Time) vertexFigures {
	var f vertexFigures
	p := j.pressure(t)
	share := 0.85 + 0.3*noise(j.seed, uint64(subtask)+200)
	hot, factor := j.skew(v)
	if subtask == hot {
		share *= factor
	}
	fl := j.flows()[v.idx]
	w := share / fl.shares // the subtask's part of the vertex's records
	rate := j.inputRate(t)
	f.inRate, f.outRate = fl.in*rate*w, fl.out*rate*w
	total := j.input(t)
	f.inTotal, f.outTotal = fl.in*total*w, fl.out*total*w
	switch v.role {
	case roleSource:
		f.busy = 120 + 250*noise(j.seed, uint64(subtask)+300)
	case roleMiddle:
		f.busy = 200 + 300*noise(j.seed, uint64(subtask)+310)
	case roleSink:
		f.busy = 150 + 250*noise(j.seed, uint64(subtask)+320)
	}
	if subtask == hot {
		f.busy = math.Min(990, f.busy*factor)
	}
	if v.idx == j.bottleneck {
		f.busy += (980 - f.busy) * p
	}
	if j.upstream[v.idx] {
		f.backpressured = 950 * p * (0.9 + 0.1*noise(j.seed, uint64(subtask)+330))
	}
	f.busy = math.Min(f.busy, 1000-f.backpressured)
	f.idle = math.Max(0, 1000-f.busy-f.backpressured)
	f.watermark = math.MinInt64
	if v.role != roleSource {
		delay := 1500 + 600*noise(j.seed, uint64(t.Unix()/5)) + 90_000*p + 400*float64(v.level)
		f.watermark = t.UnixMilli() - int64(delay)
	}
	if v.kafka {
		f.pending = 200*v.base/1000*(1+noise(j.seed, uint64(t.Unix()/5)+7)) + 2_000_000*p*share
		f.pending += j.strain.Lag * share / float64(max(v.parallelism, 1))
		f.lagMax = f.pending / 3
	}
	return f
}

// subtaskMetrics lists one subtask's metrics by name (without the subtask
// prefix), as Flink's metric store holds them.
func (j *job) subtaskMetrics(v *vertex, subtask int, t time.Time) map[string]float64 {
	f := j.figures(v, subtask, t)
	m := map[string]float64{
		"numRecordsIn":                 math.Floor(f.inTotal),
		"numRecordsOut":                math.Floor(f.outTotal),
		"numRecordsInPerSecond":        f.inRate,
		"numRecordsOutPerSecond":       f.outRate,
		"numBytesInPerSecond":          f.inRate * 180,
		"numBytesOutPerSecond":         f.outRate * 180,
		"busyTimeMsPerSecond":          math.Round(f.busy),
		"backPressuredTimeMsPerSecond": math.Round(f.backpressured),
		"idleTimeMsPerSecond":          math.Round(f.idle),
		"buffers.inPoolUsage":          math.Min(1, f.busy/1000),
		"buffers.outPoolUsage":         math.Min(1, f.backpressured/1000),
		"currentInputWatermark":        float64(f.watermark),
	}
	if v.kafka {
		m[v.opScope+".pendingRecords"] = math.Floor(f.pending)
		m[v.opScope+".KafkaSourceReader.KafkaConsumer.records-lag-max"] = math.Floor(f.lagMax)
		m[v.opScope+".currentEmitEventTimeLag"] = 800 + 60_000*j.pressure(t)
	}
	if v.opScope != "" {
		m[v.opScope+".numRecordsOutPerSecond"] = f.outRate
		m[v.opScope+".currentOutputWatermark"] = float64(f.watermark)
	}
	return m
}

// formatMetric writes a value as Flink's metric store does: integers
// without a fraction, gauges as Java would print a double.
func formatMetric(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e18 {
		return strconv.FormatInt(int64(v), 10)
	}
	if v == float64(math.MinInt64) {
		return strconv.FormatInt(math.MinInt64, 10)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// metricEntry is one element of Flink's metric list responses.
type metricEntry struct {
	ID    string  `json:"id"`
	Value *string `json:"value,omitempty"`
}

// aggEntry is one element of Flink's aggregated metric responses.
type aggEntry struct {
	ID   string   `json:"id"`
	Min  *float64 `json:"min,omitempty"`
	Max  *float64 `json:"max,omitempty"`
	Avg  *float64 `json:"avg,omitempty"`
	Sum  *float64 `json:"sum,omitempty"`
	Skew *float64 `json:"skew,omitempty"`
}

// selectMetrics answers a metrics query: without get, the available names;
// with get, the values of the requested names that exist (Flink silently
// drops unknown ones).
func selectMetrics(all map[string]string, get string) []metricEntry {
	out := []metricEntry{}
	if get == "" {
		names := make([]string, 0, len(all))
		for k := range all {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, n := range names {
			out = append(out, metricEntry{ID: n})
		}
		return out
	}
	for _, n := range strings.Split(get, ",") {
		n = strings.TrimSpace(n)
		if v, ok := all[n]; ok {
			v := v
			out = append(out, metricEntry{ID: n, Value: &v})
		}
	}
	return out
}

// aggregate answers an aggregated metrics query over per-source values.
// aggs empty means all of min, max, avg, sum, skew.
func aggregate(values map[string][]float64, get string, aggs []string) []aggEntry {
	out := []aggEntry{}
	names := []string{}
	if get == "" {
		for k := range values {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, n := range names {
			out = append(out, aggEntry{ID: n})
		}
		return out
	}
	if len(aggs) == 0 {
		aggs = []string{"min", "max", "avg", "sum", "skew"}
	}
	for _, n := range strings.Split(get, ",") {
		n = strings.TrimSpace(n)
		vs, ok := values[n]
		if !ok || len(vs) == 0 {
			continue
		}
		e := aggEntry{ID: n}
		mn, mx, sum := math.Inf(1), math.Inf(-1), 0.0
		for _, v := range vs {
			mn, mx, sum = math.Min(mn, v), math.Max(mx, v), sum+v
		}
		avg := sum / float64(len(vs))
		skew := 0.0
		if avg != 0 {
			skew = (mx - avg) / avg * 100
		}
		for _, a := range aggs {
			switch strings.ToLower(a) {
			case "min":
				e.Min = &mn
			case "max":
				e.Max = &mx
			case "avg":
				e.Avg = &avg
			case "sum":
				e.Sum = &sum
			case "skew":
				e.Skew = &skew
			}
		}
		out = append(out, e)
	}
	return out
}
