package detail

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
)

// checkpointsViewLines are the job's checkpoints as DiagnoseService reads
// them, in the order of Flink's web UI: how it checkpoints, the counts,
// the latest of each kind, the summary, then the history.
func checkpointsViewLines(e *kit.Env, v *api.CheckpointsView, err error, w int) []tabLine {
	st := e.Styles
	var out []tabLine
	if err != nil {
		out = append(out, errorLines(st, "not current: "+err.Error(), "", w)...)
	}
	if c := v.Config; c != nil {
		out = append(out, tabLine{text: "  " + kit.Truncate(CheckpointConfigLine(c), max(w-3, 10))})
	} else {
		out = append(out, tabLine{text: "  " + st.Dim.Render("configuration unknown")})
	}
	n := v.Counts
	counts := []string{fmt.Sprintf("%d triggered", n.Total), fmt.Sprintf("%d completed", n.Completed), fmt.Sprintf("%d failed", n.Failed),
		fmt.Sprintf("%d in progress", n.InProgress), fmt.Sprintf("%d restored", n.Restored)}
	for _, l := range kit.Flow(counts, " · ", max(w-3, 20)) {
		out = append(out, tabLine{text: "  " + st.Dim.Render(l)})
	}
	for _, note := range v.Notes {
		out = append(out, tabLine{text: "  " + st.Warn.Render("⚠ "+note)})
	}
	out = append(out, latestLines(e, v, w)...)
	out = append(out, summaryLines(st, v)...)
	return append(out, checkpointRows(e, v.History, w)...)
}

// latestIndent is where a latest checkpoint's facts start, after its
// label; a failure's cause wraps under them.
const latestIndent = 2 + 16 + 1

// latestLines are the newest checkpoint of each kind, as Flink's web UI
// heads its checkpoints: completed, savepoint, failed with its cause in
// full, and the one the job restored from.
func latestLines(e *kit.Env, v *api.CheckpointsView, w int) []tabLine {
	st, now := e.Styles, e.Now
	room := max(w-latestIndent, 20)
	label := func(s string) string { return "  " + st.Label.Render(fmt.Sprintf("%-16s", s)) + " " }
	var out []tabLine
	if c := v.Latest; c != nil {
		out = append(out, tabLine{text: label("latest completed") + fmt.Sprintf("%d · %s · took %s · %s",
			c.ID, kit.Ago(now, c.TriggeredAt), kit.Duration(c.Duration), kit.Bytes(c.Size))})
	}
	// A path goes after the facts while its last part fits there, else on
	// a line of its own under them.
	withPath := func(lbl, head, path string) []tabLine {
		if kit.Width(head)+kit.Width(lastPathPart(path))+2 <= room {
			return []tabLine{{text: label(lbl) + head + kit.ElidePath(path, room-kit.Width(head))}}
		}
		return []tabLine{{text: label(lbl) + strings.TrimSuffix(head, " · ")}, {text: fmt.Sprintf("%*s", latestIndent, "") + kit.ElidePath(path, room)}}
	}
	if c := v.LatestSavepoint; c != nil {
		out = append(out, withPath("latest savepoint", fmt.Sprintf("%d · %s · ", c.ID, kit.Ago(now, c.TriggeredAt)), c.Path)...)
	}
	if c := v.LatestFailed; c != nil {
		head := fmt.Sprintf("%d · %s · ", c.ID, kit.Ago(now, c.TriggeredAt))
		cause := kit.Wrap(kit.FirstLine(cmp.Or(c.Failure, "no cause given")), room-kit.Width(head))
		out = append(out, tabLine{text: label("latest failed") + head + st.Error.Render(cause[0])})
		pad := fmt.Sprintf("%*s", latestIndent+kit.Width(head), "")
		for _, l := range cause[1:min(len(cause), 3)] {
			out = append(out, tabLine{text: pad + st.Error.Render(l)})
		}
	}
	if r := v.Restored; r != nil {
		kind := "checkpoint"
		if r.Savepoint {
			kind = "savepoint"
		}
		out = append(out, withPath("restored from", fmt.Sprintf("%s %d · %s · ", kind, r.ID, kit.Ago(now, r.TriggeredAt)), r.Path)...)
	}
	return out
}

// summaryRow is one figure of Flink's checkpoint summary, as text.
type summaryRow struct{ name, min, avg, max, p99 string }

// summaryLines are Flink's summary of the completed checkpoints: min,
// average, max and 99th percentile of each figure.
func summaryLines(st *kit.Styles, v *api.CheckpointsView) []tabLine {
	if v.Counts.Completed == 0 {
		return []tabLine{{text: "  " + st.Dim.Render("no completed checkpoint to sum up yet")}}
	}
	s := v.Summary
	dur := func(d time.Duration) string {
		if d < 0 {
			return kit.NoValue
		}
		return kit.Duration(d)
	}
	bytes := func(n int64) string {
		if n < 0 {
			return kit.NoValue
		}
		return kit.Bytes(n)
	}
	sizes := func(name string, b api.ByteStats) summaryRow {
		return summaryRow{name, bytes(b.Min), bytes(b.Avg), bytes(b.Max), bytes(b.P99)}
	}
	e := s.EndToEnd
	rows := []summaryRow{
		{"end to end", dur(e.Min), dur(e.Avg), dur(e.Max), dur(e.P99)},
		sizes("checkpointed", s.Checkpointed), sizes("full state", s.StateSize),
		sizes("processed", s.ProcessedData), sizes("persisted", s.PersistedData),
	}
	type r = summaryRow
	cell := func(title string, f func(r) string) kit.Column[r] {
		return kit.Column[r]{Title: title, Width: 9, Right: true, Cell: f}
	}
	cols := kit.Columns[r]{
		{Title: "SUMMARY", Width: 12, Cell: func(r r) string { return r.name }},
		cell("MIN", func(r r) string { return r.min }), cell("AVG", func(r r) string { return r.avg }),
		cell("MAX", func(r r) string { return r.max }), cell("P99", func(r r) string { return r.p99 }),
	}
	lay := cols.Lay(rows, 0)
	out := []tabLine{{text: "  " + st.ColumnHeader.Render(cols.Titles(lay))}}
	for _, row := range rows {
		out = append(out, tabLine{text: "  " + cols.Cells(st, lay, row)})
	}
	return out
}

// checkpointRows are a checkpoint history's rows, newest first: enter on
// one opens it operator by operator, r on a completed one restores from
// it.
func checkpointRows(e *kit.Env, cps []api.CheckpointInfo, w int) []tabLine {
	st := e.Styles
	if len(cps) == 0 {
		return []tabLine{{text: "  " + st.Dim.Render("no checkpoint in the JobManager's history yet")}}
	}
	cols := checkpointColumns(e.Now)
	lay := cols.Lay(cps, w-kit.Gutter)
	out := []tabLine{{text: "  " + st.ColumnHeader.Render(cols.Titles(lay))}}
	for _, c := range cps {
		out = append(out, tabLine{text: "  " + cols.Cells(st, lay, c), target: historyTarget(c)})
	}
	return out
}

// checkpointColumns are a checkpoint history's: its id, status (coloured
// by outcome), kind, when it was triggered, how long it took, its size,
// and where it went (its middle giving way first) or why it failed.
func checkpointColumns(now time.Time) kit.Columns[api.CheckpointInfo] {
	type cp = api.CheckpointInfo
	return kit.Columns[cp]{
		{Title: "ID", Fit: true, Cell: func(c cp) string { return strconv.FormatInt(c.ID, 10) }},
		{Title: "STATUS", Fit: true, Cell: func(c cp) string { return c.Status },
			Style: func(st *kit.Styles, c cp, s string) string {
				switch c.Status {
				case "COMPLETED":
					return st.StateRunning.Render(s)
				case "FAILED":
					return st.StateFailed.Render(s)
				}
				return st.StateDeploying.Render(s)
			}},
		{Title: "KIND", Fit: true, Drop: 1, Cell: func(c cp) string {
			if c.Savepoint {
				return "savepoint"
			}
			return "checkpoint"
		}},
		{Title: "TRIGGERED", Fit: true, Cell: func(c cp) string { return kit.Ago(now, c.TriggeredAt) }},
		{Title: "TOOK", Fit: true, Cell: func(c cp) string { return kit.Duration(c.Duration) }},
		{Title: "SIZE", Fit: true, Right: true, Cell: func(c cp) string {
			if c.Size > 0 {
				return kit.Bytes(c.Size)
			}
			return kit.NoValue
		}},
		{Title: "PATH", Flex: true, Min: 12, Cell: func(c cp) string { return cmp.Or(c.Failure, c.Path) },
			Style: func(st *kit.Styles, c cp, s string) string {
				if c.Failure != "" {
					return st.Error.Render(s)
				}
				return s
			},
			Cut: func(c cp, s string, w int) string {
				if c.Failure != "" {
					return kit.Truncate(s, w)
				}
				return kit.ElidePath(s, w)
			}},
	}
}
