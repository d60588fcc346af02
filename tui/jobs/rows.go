package jobs

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/kit"
)

// column is one column of the jobs table.
type column int

// Columns in display order.
const (
	colName column = iota
	colKind
	colCluster
	colState
	colApp
	colUp
	colRestarts
	colCkpt
	colIn
	colOut
	colBP
	numCols
)

// colSpec describes a column. drop ranks the columns a narrow terminal
// loses first (highest first); the name column never goes and takes the
// width that is left.
type colSpec struct {
	title string
	width int
	right bool
	drop  int
}

var jobColumns = [numCols]colSpec{
	colName:     {title: "NAME", width: 16, drop: 0},
	colKind:     {title: "KIND", width: 4, drop: 10},
	colCluster:  {title: "CLUSTER", width: 9, drop: 2},
	colState:    {title: "STATE", width: 16, drop: 1},
	colApp:      {title: "APP", width: 30, drop: 8},
	colUp:       {title: "UP", width: 6, right: true, drop: 3},
	colRestarts: {title: "RST", width: 3, right: true, drop: 6},
	colCkpt:     {title: "CKPT", width: 6, right: true, drop: 4},
	colIn:       {title: "IN/s", width: 6, right: true, drop: 5},
	colOut:      {title: "OUT/s", width: 6, right: true, drop: 9},
	colBP:       {title: "BP", width: 6, drop: 7},
}

// sparkCells is the width of the IN/s column's sparkline: the last
// sparkCells collections, oldest on the left. The column widens to hold it
// when the table has room (widenIn).
const sparkCells = 5

// maxNameWidth keeps very wide terminals from giving everything to names.
const maxNameWidth = 40

// staleCheckpoint is the checkpoint age that earns a ⚠ on a running job:
// usual checkpoint intervals are seconds to a minute, so older than this
// means checkpoints are failing or stuck.
const staleCheckpoint = 2 * time.Minute

// layout is the columns that fit a width, with their widths.
type layout struct {
	cols   []column
	widths [numCols]int
}

// jobLayout picks the columns for a table of inner width w (the mark
// column excluded), dropping columns by priority, never the name.
func jobLayout(w int) layout {
	order := make([]column, 0, numCols)
	for c := range numCols {
		order = append(order, c)
	}
	// Keep columns by ascending drop rank while they fit.
	byKeep := slices.Clone(order)
	slices.SortFunc(byKeep, func(a, b column) int { return cmp.Compare(jobColumns[a].drop, jobColumns[b].drop) })
	keep := [numCols]bool{}
	used := 0
	for _, c := range byKeep {
		need := jobColumns[c].width
		if used > 0 {
			need++ // the gap before it
		}
		if c != colName && used+need > w {
			break
		}
		keep[c] = true
		used += need
	}
	var l layout
	for _, c := range order {
		if keep[c] {
			l.cols = append(l.cols, c)
			l.widths[c] = jobColumns[c].width
		}
	}
	used = widenIn(&l, w, used)
	if extra := w - used; extra > 0 {
		l.widths[colName] = min(jobColumns[colName].width+extra, maxNameWidth)
	}
	return l
}

// jobCells turns a job into the plain text of each cell. It is pure: the
// clock comes in as now.
func jobCells(j *api.JobView, now time.Time) [numCols]string {
	var c [numCols]string
	c[colName] = j.Name
	c[colKind] = kit.NoValue
	if j.Kind != 0 {
		c[colKind] = j.Kind.String()
	}
	c[colCluster] = j.Cluster
	c[colState] = kit.StateCell(j)
	c[colApp] = cmp.Or(j.AppID, kit.NoValue)
	c[colUp] = kit.NoValue
	if showsUptime(j) {
		c[colUp] = kit.Age(now.Sub(j.StartedAt))
	}
	c[colRestarts] = strconv.Itoa(j.PlatformRestarts + j.FlinkRestarts)
	c[colCkpt] = ckptCell(j, now)
	c[colIn], c[colOut], c[colBP] = kit.NoValue, kit.NoValue, kit.NoValue
	if showsFigures(j) {
		c[colIn] = kit.Rate(j.Figures.RecordsInPerSec)
		if len(j.Figures.InSpark) > 0 {
			c[colIn] = sparkRate(j.Figures.InSpark, j.Figures.RecordsInPerSec)
		}
		c[colOut] = kit.Rate(j.Figures.RecordsOutPerS)
		c[colBP] = kit.Backpressure(j.Figures.Backpressure)
	}
	return c
}

// showsFigures reports whether the job's figures are live: it runs and has
// been measured. Any other job's figures are stale (a dead job keeps its
// last ones) and show as noValue.
func showsFigures(j *api.JobView) bool {
	return j.State == model.StateRunning && !j.Figures.At.IsZero()
}

// showsUptime reports whether the job has an uptime: a live application
// that has started.
func showsUptime(j *api.JobView) bool {
	return j.State.Live() && !j.StartedAt.IsZero()
}

// liveRank groups jobs for a column whose value only a live job has (UP,
// IN/s, OUT/s, BP): 0 shows the value, 1 is live but has none yet, 2 has
// no live application. The groups keep this order in both directions, and
// within groups 1 and 2 the stale value does not count, so a dead job
// never sorts above a running one. For other columns every job is 0.
func liveRank(c column, j *api.JobView) int {
	var shown bool
	switch c {
	case colUp:
		shown = showsUptime(j)
	case colIn, colOut, colBP:
		shown = showsFigures(j)
	default:
		return 0
	}
	switch {
	case shown:
		return 0
	case j.State.Live():
		return 1
	}
	return 2
}

func ckptCell(j *api.JobView, now time.Time) string {
	var age time.Duration
	switch {
	case j.LatestCheckpoint != nil && !j.LatestCheckpoint.Time.IsZero():
		age = now.Sub(j.LatestCheckpoint.Time)
	case j.Figures.CheckpointAge > 0:
		age = j.Figures.CheckpointAge + now.Sub(j.Figures.At)
	default:
		return kit.NoValue
	}
	s := kit.Age(age)
	if j.State == model.StateRunning && age >= staleCheckpoint {
		s += "⚠"
	}
	return s
}

// lessFunc orders jobs by a column; ties fall back to the name and the id
// so that the order is total and rows do not jump between rebuilds. For a
// live column, liveRank comes first, whatever the direction.
func lessFunc(c column, desc bool) func(a, b *api.JobView) int {
	key := func(a, b *api.JobView) int {
		switch c {
		case colKind:
			return cmp.Compare(a.Kind, b.Kind)
		case colCluster:
			return strings.Compare(a.Cluster, b.Cluster)
		case colState:
			return cmp.Compare(stateRank(a.State), stateRank(b.State))
		case colApp:
			return strings.Compare(a.AppID, b.AppID)
		case colUp:
			// Ascending uptime: the latest start first.
			return -a.StartedAt.Compare(b.StartedAt)
		case colRestarts:
			return cmp.Compare(a.PlatformRestarts+a.FlinkRestarts, b.PlatformRestarts+b.FlinkRestarts)
		case colCkpt:
			return -ckptTime(a).Compare(ckptTime(b))
		case colIn:
			return cmp.Compare(a.Figures.RecordsInPerSec, b.Figures.RecordsInPerSec)
		case colOut:
			return cmp.Compare(a.Figures.RecordsOutPerS, b.Figures.RecordsOutPerS)
		case colBP:
			return cmp.Compare(a.Figures.Backpressure, b.Figures.Backpressure)
		}
		return strings.Compare(a.Name, b.Name)
	}
	return func(a, b *api.JobView) int {
		ra := liveRank(c, a)
		if r := cmp.Compare(ra, liveRank(c, b)); r != 0 {
			return r
		}
		var r int
		if ra == 0 {
			r = key(a, b)
		}
		if desc {
			r = -r
		}
		if r != 0 {
			return r
		}
		if r = strings.Compare(a.Name, b.Name); r != 0 {
			return r
		}
		return strings.Compare(a.ID, b.ID)
	}
}

// sortJobs sorts jobs in the order of lessFunc(c, desc). It copies each
// job's sort key next to its pointer first, so that the sort compares
// contiguous values instead of chasing a pointer per comparison: that is
// what makes sorting 100,000 jobs take a fraction of a second, not seconds.
func sortJobs(jobs []*api.JobView, c column, desc bool) {
	type entry struct {
		rank     int // liveRank
		n        float64
		t        time.Time
		s        string
		name, id string
		j        *api.JobView
	}
	es := make([]entry, len(jobs))
	for i, j := range jobs {
		e := entry{rank: liveRank(c, j), name: j.Name, id: j.ID, j: j}
		switch c {
		case colKind:
			e.n = float64(j.Kind)
		case colCluster:
			e.s = j.Cluster
		case colState:
			e.n = float64(stateRank(j.State))
		case colApp:
			e.s = j.AppID
		case colUp:
			e.t = j.StartedAt
		case colRestarts:
			e.n = float64(j.PlatformRestarts + j.FlinkRestarts)
		case colCkpt:
			e.t = ckptTime(j)
		case colIn:
			e.n = j.Figures.RecordsInPerSec
		case colOut:
			e.n = j.Figures.RecordsOutPerS
		case colBP:
			e.n = j.Figures.Backpressure
		default:
			e.s = j.Name
		}
		es[i] = e
	}
	slices.SortFunc(es, func(a, b entry) int {
		if r := cmp.Compare(a.rank, b.rank); r != 0 {
			return r
		}
		var r int
		switch {
		case a.rank != 0: // stale values do not count (as lessFunc)
		case c == colUp || c == colCkpt:
			r = -a.t.Compare(b.t) // as lessFunc: the latest first
		case c == colCluster || c == colApp || c == colName:
			r = strings.Compare(a.s, b.s)
		default:
			r = cmp.Compare(a.n, b.n)
		}
		if desc {
			r = -r
		}
		if r != 0 {
			return r
		}
		if r = strings.Compare(a.name, b.name); r != 0 {
			return r
		}
		return strings.Compare(a.id, b.id)
	})
	for i := range es {
		jobs[i] = es[i].j
	}
}

func ckptTime(j *api.JobView) time.Time {
	if j.LatestCheckpoint != nil {
		return j.LatestCheckpoint.Time
	}
	return time.Time{}
}

// stateRank orders states by how much they need attention: failures first.
func stateRank(s model.JobState) int {
	switch s {
	case model.StateFailed:
		return 0
	case model.StateDeployFailed:
		return 1
	case model.StateDeploying:
		return 2
	case model.StateDeploySucceeded:
		return 3
	case model.StateRunning:
		return 4
	case model.StateKilled:
		return 5
	case model.StateFinished:
		return 6
	}
	return 7
}
