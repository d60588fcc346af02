package jobs

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"

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
	colLag
	numCols
)

// colSpec describes a column. drop ranks the columns a narrow terminal
// loses first (highest first); the name column never goes, and the one
// the table is sorted by and those that carry the problem (STATE, BP,
// LAG) go last (rank). A fit column
// is as wide as its longest value among the rows (its width is the least);
// the others have a fixed width that holds any value. key is the letter
// of the title that shift+key sorts by ("" for none), desc whether that
// sort starts with the largest values (the ones that need attention).
type colSpec struct {
	title string
	width int
	fit   bool
	right bool
	drop  int
	key   string
	desc  bool
}

var jobColumns = [numCols]colSpec{
	colName:     {title: "NAME", width: 4, fit: true, drop: 0, key: "N"},
	colKind:     {title: "KIND", width: 4, drop: 11, key: "K"},
	colCluster:  {title: "CLUSTER", width: 7, fit: true, drop: 4, key: "C"},
	colState:    {title: "STATE", width: 5, fit: true, drop: 1, key: "S"},
	colApp:      {title: "APP", width: 3, fit: true, drop: 9, key: "A"},
	colUp:       {title: "UP", width: 6, right: true, drop: 5, key: "U"},
	colRestarts: {title: "RST", width: 3, right: true, drop: 8, key: "T", desc: true},
	colCkpt:     {title: "CKPT", width: 6, right: true, drop: 6, key: "P", desc: true},
	colIn:       {title: "IN/s", width: 6, right: true, drop: 7, key: "I", desc: true},
	colOut:      {title: "OUT/s", width: 6, right: true, drop: 10, desc: true},
	colBP:       {title: "BP", width: 6, drop: 2, key: "B", desc: true},
	colLag:      {title: "LAG", width: 4, right: true, drop: 3, key: "L", desc: true},
}

// sortKey is the binding that sorts by column c, and whether it has one.
func sortKey(k *kit.KeyMap, c column) (*key.Binding, bool) {
	s := &k.Sort
	switch c {
	case colName:
		return &s.Name, true
	case colKind:
		return &s.Kind, true
	case colCluster:
		return &s.Cluster, true
	case colState:
		return &s.State, true
	case colApp:
		return &s.App, true
	case colUp:
		return &s.Up, true
	case colRestarts:
		return &s.Restarts, true
	case colCkpt:
		return &s.Checkpoint, true
	case colIn:
		return &s.In, true
	case colBP:
		return &s.Backpressure, true
	case colLag:
		return &s.Lag, true
	}
	return nil, false
}

// sparkCells is the width of the IN/s column's sparkline: the last
// sparkCells collections, oldest on the left. The column takes the room
// for it, when the table has it, after LAG (sparkRank): rates, pressure
// and lag as numbers come first.
const sparkCells = 5

// sparkRank is where the sparkline ranks among the columns' drop ranks:
// after IN/s, before RST.
const sparkRank = 7

// maxNameWidth keeps very long names from taking every other column;
// minNameWidth is what a name keeps so that STATE stays whole.
const maxNameWidth, minNameWidth = 40, 12

// staleFigures is the age at which a row's figures show dimmed: they are
// held from before the row was off screen (holdFigures), and the next
// collection will replace them.
const staleFigures = 15 * time.Second

// staleCheckpoint is the checkpoint age that earns a ⚠ on a running job:
// usual checkpoint intervals are seconds to a minute, so older than this
// means checkpoints are failing or stuck.
const staleCheckpoint = 2 * time.Minute

// layout is the columns that fit a width, with their widths.
type layout struct {
	cols   []column
	widths [numCols]int
	// ranked is every column, the most telling first (rank).
	ranked []column
}

// rank orders the columns by what a narrow table keeps: the name, the
// state, the column the table is sorted by, then by drop rank; CLUSTER
// last when the table shows one cluster's jobs, where it says the same on
// every row.
func rank(c, sortCol column, oneCluster bool) int {
	switch {
	case c == colName:
		return 0
	case c == colState:
		return 1
	case c == sortCol:
		return 2
	case c == colCluster && oneCluster:
		return 100
	}
	return 2 + jobColumns[c].drop
}

// hidden lists the columns the layout leaves out, the most telling first.
func (l layout) hidden() []column {
	var out []column
	for _, c := range l.ranked {
		if !l.shown(c) {
			out = append(out, c)
		}
	}
	return out
}

// fits are the widths of the fit columns' longest values among the rows
// (index.measure); the other entries are unused.
type fits [numCols]int

// typicalFits size the fit columns before any job is in the table.
var typicalFits = fits{colName: 16, colCluster: 7, colState: 10, colApp: len("application_1732000000000_0042")}

// measure is the width of a job's values in the fit columns.
func measure(j *api.JobView) fits {
	var f fits
	f[colName] = kit.Width(j.Name)
	f[colCluster] = kit.Width(j.Cluster)
	f[colState] = kit.StateCellWidth(j)
	f[colApp] = max(len(j.AppID), len(kit.NoValue))
	return f
}

// grow widens f to hold g.
func (f *fits) grow(g fits) {
	for c := range f {
		f[c] = max(f[c], g[c])
	}
}

// colWidth is the width column c wants: its values' (fit), or its fixed
// width, and at least its title with the sort arrow when sorted by.
func colWidth(c column, f fits, sortCol column) int {
	least := kit.Width(jobColumns[c].title)
	if c == sortCol {
		least++
	}
	w := jobColumns[c].width
	if jobColumns[c].fit {
		w = f[c]
	}
	return max(w, least)
}

// jobLayout picks the columns for a table of inner width w (the mark
// column excluded): by rank, each column while it fits, so that a column
// never shows while one that ranks above it is gone. The name keeps its
// longest value's width (up to maxNameWidth) and yields down to
// minNameWidth only so that STATE and the sorted column stay (cut, when
// even that is not enough); IN/s widens for its sparkline when that fits
// after the columns that rank above sparkRank.
func jobLayout(w int, f fits, sortCol column, oneCluster bool) layout {
	byKeep := make([]column, 0, numCols)
	for c := range numCols {
		byKeep = append(byKeep, c)
	}
	slices.SortFunc(byKeep, func(a, b column) int {
		return cmp.Compare(rank(a, sortCol, oneCluster), rank(b, sortCol, oneCluster))
	})
	l := layout{ranked: byKeep}
	keep := [numCols]bool{colName: true}
	l.widths[colName] = min(colWidth(colName, f, sortCol), maxNameWidth, max(w, 1))
	used := l.widths[colName]
	sparked := false
	spark := func() {
		if extra := sparkInWidth - l.widths[colIn]; !sparked && keep[colIn] && extra > 0 && used+extra <= w {
			l.widths[colIn] = sparkInWidth
			used += extra
		}
		sparked = true
	}
	for _, c := range byKeep[1:] {
		if c != sortCol && jobColumns[c].drop > sparkRank {
			spark()
		}
		need := colWidth(c, f, sortCol)
		if (c == colState || c == sortCol) && used+1+need > w {
			// The name gives way, to its least, before the state or the
			// sorted column is cut.
			short := max(l.widths[colName]-(used+1+need-w), minNameWidth)
			if short < l.widths[colName] {
				used -= l.widths[colName] - short
				l.widths[colName] = short
			}
			need = min(need, w-used-1)
			if c == sortCol && need < kit.Width(jobColumns[c].title)+1 {
				break // not even its heading
			}
		}
		if need <= 0 || used+1+need > w {
			break
		}
		keep[c] = true
		l.widths[c] = need
		used += 1 + need
	}
	// Room to spare widens the gaps after the text columns, where a
	// single space reads as one run of words.
	for _, c := range []column{colName, colCluster, colState, colApp} {
		if used < w && keep[c] {
			l.widths[c]++
			used++
		}
	}
	for c := range numCols {
		if keep[c] {
			l.cols = append(l.cols, c)
		} else {
			l.widths[c] = 0
		}
	}
	return l
}

// shown reports whether the layout shows column c.
func (l layout) shown(c column) bool { return l.widths[c] > 0 }

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
	c[colState] = stateCell(j)
	c[colApp] = cmp.Or(j.AppID, kit.NoValue)
	c[colUp] = kit.NoValue
	if showsUptime(j) {
		c[colUp] = kit.Age(now.Sub(j.StartedAt))
	}
	c[colRestarts] = strconv.Itoa(j.PlatformRestarts + j.FlinkRestarts)
	c[colCkpt] = ckptCell(j, now)
	c[colIn], c[colOut], c[colBP], c[colLag] = kit.NoValue, kit.NoValue, kit.NoValue, kit.NoValue
	if showsFigures(j) {
		if lag, ok := lagOf(j); ok {
			c[colLag] = kit.Count(lag)
		}
		c[colIn] = kit.Rate(j.Figures.RecordsInPerSec)
		if len(j.Figures.InSpark) > 0 {
			c[colIn] = sparkRate(j.Figures.InSpark, j.Figures.RecordsInPerSec)
		}
		c[colOut] = kit.Rate(j.Figures.RecordsOutPerS)
		c[colBP] = kit.Backpressure(j.Figures.Backpressure)
	}
	return c
}

// stateCell is the STATE column's text (kit.StateCell).
func stateCell(j *api.JobView) string { return kit.StateCell(j) }

// lagOf is the records lag of a job's sources, and whether it is known
// (a source that reports none, or a job not measured, has none).
func lagOf(j *api.JobView) (float64, bool) {
	if j.Figures.At.IsZero() || j.Figures.Lag < 0 {
		return 0, false
	}
	return j.Figures.Lag, true
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
	case colLag:
		_, known := lagOf(j)
		shown = showsFigures(j) && known
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
		case colLag:
			la, _ := lagOf(a)
			lb, _ := lagOf(b)
			return cmp.Compare(la, lb)
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
