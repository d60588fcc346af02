package cli

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// The diagnostic commands' tables: what an engineer reads at 3 a.m.,
// unknown figures as "-", the notes last.

func unknown(v float64) bool { return v < 0 }

func rate(v float64) string {
	if unknown(v) {
		return "-"
	}
	switch {
	case v >= 1e6:
		return fmt.Sprintf("%.1fM", v/1e6)
	case v >= 1e3:
		return fmt.Sprintf("%.1fk", v/1e3)
	}
	return fmt.Sprintf("%.0f", v)
}

func percent(v float64) string {
	if unknown(v) {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", v*100)
}

func delay(d time.Duration) string {
	if d < 0 {
		return "-"
	}
	return d.Round(100 * time.Millisecond).String()
}

func bytesOf(n int64) string {
	switch {
	case n < 0:
		return "-"
	case n >= 1<<30:
		return fmt.Sprintf("%.1fG", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1fM", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1fk", float64(n)/(1<<10))
	}
	return strconv.FormatInt(n, 10)
}

func ms(d time.Duration) string { return strconv.FormatInt(d.Milliseconds(), 10) }

func printNotes(w io.Writer, notes []string) {
	for _, n := range notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
}

func printGraph(w io.Writer, g api.JobGraph) error {
	fmt.Fprintf(w, "%s  %s  (Flink job %s)\n", g.JobName, g.FlinkState, g.FlinkJobID)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tVERTEX\tPAR\tSTATE\tIN/s\tOUT/s\tBUSY\tBACKPR\tWM DELAY\t")
	for i, v := range g.Vertices {
		mark := ""
		if i == g.Bottleneck {
			mark = "◀ bottleneck"
		}
		fmt.Fprintf(tw, "%d\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", i, v.Name, v.Parallelism, v.State, rate(v.RecordsIn),
			rate(v.RecordsOut), percent(v.Busy), percent(v.Backpressure), delay(v.WatermarkDelay), mark)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(g.Edges) > 0 {
		fmt.Fprintln(w, "\nedges:")
		for _, e := range g.Edges {
			back := ""
			if e.Feedback {
				back = " (feedback)"
			}
			fmt.Fprintf(w, "  %d → %d  %s%s\n", e.From, e.To, or(e.ShipStrategy, "?"), back)
		}
	}
	fmt.Fprintf(w, "\nbottleneck: %s\n", g.BottleneckWhy)
	printNotes(w, g.Notes)
	return nil
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func printVertex(w io.Writer, v api.VertexDetail) error {
	fmt.Fprintf(w, "%s  (%s, parallelism %d)\n", v.Name, v.VertexID, v.Parallelism)
	sk := v.Skew
	if sk.Subtask >= 0 {
		over := "Flink's meters, a minute's average"
		if sk.Window > 0 {
			over = "over the " + sk.Window.Round(time.Second).String() + " between two reads"
		}
		fmt.Fprintf(w, "skew: %.1f× (subtask %d: %s %s, the others' median %s; %s)\n", sk.Ratio, sk.Subtask, rate(sk.Max), sk.Of, rate(sk.Median), over)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SUBTASK\tSTATE\tREC IN\tREC OUT\tIN/s\tOUT/s\tBYTES IN\tBUSY\tBACKPR\tIDLE\tWM DELAY\tTASKMANAGER\tHOST\tATTEMPT\t")
	for _, s := range v.Subtasks {
		hot := ""
		if s.Hot {
			hot = "◀ hot"
		}
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\n", s.Index, s.State, s.RecordsIn, s.RecordsOut,
			rate(s.RecordsInPerSec), rate(s.RecordsOutPerSec), bytesOf(s.BytesIn), percent(s.Busy), percent(s.Backpressure),
			percent(s.Idle), delay(s.WatermarkDelay), or(s.TaskManager, "-"), or(s.Host, "-"), s.Attempt, hot)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	printNotes(w, v.Notes)
	return nil
}

func printCheckpoints(w io.Writer, v api.CheckpointsView) error {
	c := v.Counts
	fmt.Fprintf(w, "checkpoints: %d total, %d completed, %d failed, %d in progress, %d restored\n",
		c.Total, c.Completed, c.Failed, c.InProgress, c.Restored)
	if cf := v.Config; cf != nil {
		unaligned := "aligned"
		if cf.Unaligned {
			unaligned = "unaligned"
		}
		fmt.Fprintf(w, "config: %s every %s (timeout %s, min pause %s, at most %d at once), %s, %s; %s; backend %s, storage %s; %d failures tolerated\n",
			cf.Mode, cf.Interval, cf.Timeout, cf.MinPause, cf.MaxConcurrent, unaligned, cf.Retention,
			map[bool]string{true: "changelog on", false: "changelog off"}[cf.Changelog], or(cf.StateBackend, "?"), or(cf.Storage, "?"), cf.TolerableFailures)
	}
	if r := v.Restored; r != nil {
		fmt.Fprintf(w, "restored from %d at %s: %s\n", r.ID, r.TriggeredAt.Format(time.RFC3339), r.Path)
	}
	if f := v.LatestFailed; f != nil {
		fmt.Fprintf(w, "latest failed: %d at %s: %s\n", f.ID, f.TriggeredAt.Format(time.RFC3339), or(f.Failure, "-"))
	}
	if v.Counts.Completed > 0 {
		d, p := v.Summary.EndToEnd, "-"
		if d.P99 >= 0 {
			p = d.P99.String()
		}
		fmt.Fprintf(w, "end to end: min %s, avg %s, max %s, p99 %s\n", d.Min, d.Avg, d.Max, p)
		for _, b := range []struct {
			name string
			s    api.ByteStats
		}{{"checkpointed", v.Summary.Checkpointed}, {"full state", v.Summary.StateSize}, {"processed in flight", v.Summary.ProcessedData}, {"persisted in flight", v.Summary.PersistedData}} {
			fmt.Fprintf(w, "%s: min %s, avg %s, max %s, p99 %s\n", b.name, bytesOf(b.s.Min), bytesOf(b.s.Avg), bytesOf(b.s.Max), bytesOf(b.s.P99))
		}
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTATUS\tKIND\tTRIGGERED\tDURATION\tSIZE\tACKED\tPATH / FAILURE")
	for _, h := range v.History {
		detail := h.Path
		if h.Failure != "" {
			detail = h.Failure
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%d/%d\t%s\n", h.ID, h.Status, or(h.Kind, "-"), h.TriggeredAt.Format("15:04:05"),
			h.Duration.Round(time.Millisecond), bytesOf(h.Size), h.Acknowledged, h.Subtasks, detail)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	printNotes(w, v.Notes)
	return nil
}

func printCheckpoint(w io.Writer, d api.CheckpointDetail) error {
	if g := d.Gone; g != nil {
		fmt.Fprintln(w, g.String())
		if r := g.Recorded; r != nil {
			fmt.Fprintf(w, "palink recorded it: %s %s, completed %s", r.Kind, r.Path, r.Time.Format(time.RFC3339))
			if r.Size > 0 {
				fmt.Fprintf(w, ", %s", bytesOf(r.Size))
			}
			fmt.Fprintln(w)
		} else {
			fmt.Fprintln(w, "palink has no record of it")
		}
		printNotes(w, d.Notes)
		return nil
	}
	c := d.Checkpoint
	fmt.Fprintf(w, "checkpoint %d  %s  %s, %s, %d/%d subtasks\n", c.ID, c.Status, c.Duration.Round(time.Millisecond),
		bytesOf(c.Size), c.Acknowledged, c.Subtasks)
	if c.Failure != "" {
		fmt.Fprintf(w, "failure: %s\n", c.Failure)
	}
	if d.SlowOperator >= 0 {
		op := d.Operators[d.SlowOperator]
		if op.SlowSubtask >= 0 {
			s := op.Subtasks[op.SlowSubtask]
			fmt.Fprintf(w, "slow part: %s subtask %d, %s (sync %s, async %s, alignment %s, start delay %s)\n", op.Name, s.Index,
				s.Duration, s.Sync, s.Async, s.Alignment, s.StartDelay)
		}
	}
	for _, op := range d.Operators {
		mark := ""
		if op.Slow {
			mark = "  ◀ slow"
		}
		fmt.Fprintf(w, "\n%s  %d/%d acknowledged, %s, %s%s\n", op.Name, op.Acknowledged, op.Parallelism,
			op.Duration.Round(time.Millisecond), bytesOf(op.Size), mark)
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "  SUBTASK\tACKED\tDURATION ms\tSYNC ms\tASYNC ms\tALIGN ms\tSTART DELAY ms\tSIZE\t")
		for _, s := range op.Subtasks {
			if !s.Acknowledged {
				fmt.Fprintf(tw, "  %d\tno\t-\t-\t-\t-\t-\t-\t\n", s.Index)
				continue
			}
			slow := ""
			if s.Slow {
				slow = "◀ slow"
			}
			fmt.Fprintf(tw, "  %d\tyes\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", s.Index, ms(s.Duration), ms(s.Sync), ms(s.Async),
				ms(s.Alignment), ms(s.StartDelay), bytesOf(s.Size), slow)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	printNotes(w, d.Notes)
	return nil
}

func printTaskManagers(w io.Writer, l api.TaskManagerList) error {
	fmt.Fprintf(w, "%d TaskManagers, %d of %d slots free\n", len(l.TaskManagers), l.SlotsFree, l.SlotsTotal)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tHOST\tSLOTS\tFREE\tCPU\tHEAP USED\tHEAP\tMANAGED\tNETWORK\tGC\tGC TIME")
	for _, t := range l.TaskManagers {
		used, gc, gcTime := "-", "-", "-"
		if t.Detailed {
			used, gc, gcTime = bytesOf(t.HeapUsed), strconv.FormatInt(t.GCCount, 10), t.GCTime.Round(time.Millisecond).String()
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n", t.ID, t.Host, t.Slots, t.FreeSlots, t.CPUCores, used,
			bytesOf(t.HeapMax), bytesOf(t.ManagedMemory), bytesOf(t.NetworkMemory), gc, gcTime)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	printNotes(w, l.Notes)
	return nil
}

func printTaskManager(w io.Writer, t api.TaskManagerDetail) error {
	fmt.Fprintf(w, "%s on %s: %d slots (%d free), %d CPU cores\n", t.ID, t.Host, t.Slots, t.FreeSlots, t.CPUCores)
	fmt.Fprintf(w, "heap %s of %s, non-heap %s, direct %s, network %s of %s\n", bytesOf(t.HeapUsed), bytesOf(t.HeapMax),
		bytesOf(t.NonHeapUsed), bytesOf(t.DirectUsed), bytesOf(t.NetworkUsed), bytesOf(t.NetworkTotal))
	for _, gc := range t.GarbageCollectors {
		fmt.Fprintf(w, "GC %s: %d collections, %s\n", gc.Name, gc.Count, gc.Time.Round(time.Millisecond))
	}
	if len(t.Jobs) > 0 {
		fmt.Fprintf(w, "Flink jobs with slots here: %s\n", strings.Join(t.Jobs, ", "))
	}
	if td := t.ThreadDump; td != nil {
		states := map[string]int{}
		for _, th := range td.Threads {
			states[th.State]++
		}
		var counts []string
		for _, s := range sortedStates(states) {
			counts = append(counts, fmt.Sprintf("%d %s", states[s], or(s, "?")))
		}
		fmt.Fprintf(w, "\nthread dump: %d threads (%s)\n\n", len(td.Threads), strings.Join(counts, ", "))
		for _, th := range td.Threads {
			fmt.Fprint(w, th.Text)
			if !strings.HasSuffix(th.Text, "\n") {
				fmt.Fprintln(w)
			}
		}
		if td.Truncated {
			fmt.Fprintf(w, "[palink: the thread dump was cut after %s]\n", bytesOf(td.Bytes))
		}
	}
	printNotes(w, t.Notes)
	return nil
}

func sortedStates(m map[string]int) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(a, b int) bool { return m[out[a]] > m[out[b]] || m[out[a]] == m[out[b]] && out[a] < out[b] })
	return out
}

func printExceptions(w io.Writer, h api.ExceptionHistory, full bool) error {
	if len(h.Entries) == 0 {
		fmt.Fprintln(w, "no exceptions")
	}
	for i, e := range h.Entries {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s  %s\n", e.Time.Format(time.RFC3339), or(e.RootCause, e.Name))
		for k := len(e.Chain) - 2; k >= 0; k-- {
			fmt.Fprintf(w, "  wrapped in %s\n", model.FirstLine(e.Chain[k].String()))
		}
		if e.Task != "" {
			fmt.Fprintf(w, "  in %s on %s (%s)\n", e.Task, or(e.TaskManager, "?"), or(e.Endpoint, "?"))
		}
		if len(e.Labels) > 0 {
			var ls []string
			for k, v := range e.Labels {
				ls = append(ls, k+"="+v)
			}
			sort.Strings(ls)
			fmt.Fprintf(w, "  labels: %s\n", strings.Join(ls, ", "))
		}
		for _, c := range e.Concurrent {
			fmt.Fprintf(w, "  with %s in %s\n", or(c.RootCause, c.Name), or(c.Task, "?"))
		}
		if e.Stored {
			fmt.Fprintln(w, "  (kept by palink: the JobManager no longer has it)")
		}
		if full {
			fmt.Fprintln(w, indent(e.Stacktrace, "    "))
		}
	}
	if h.Truncated {
		fmt.Fprintln(w, "\n[palink: the JobManager had more than it sent]")
	}
	printNotes(w, h.Notes)
	return nil
}

func indent(s, by string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = by + l
	}
	return strings.Join(lines, "\n")
}

func printFlameGraph(w io.Writer, g api.FlameGraph, top int) error {
	fmt.Fprintf(w, "%s  %s flame graph", or(g.VertexName, g.VertexID), g.Type)
	if g.Subtask >= 0 {
		fmt.Fprintf(w, " of subtask %d", g.Subtask)
	}
	fmt.Fprintf(w, ": %s\n", g.Status)
	if g.Message != "" {
		fmt.Fprintln(w, g.Message)
	}
	if len(g.Frames) == 0 {
		printNotes(w, g.Notes)
		return nil
	}
	total := max(g.Frames[0].Value, 1)
	fmt.Fprintf(w, "%d samples at %s\n\nhottest path:\n", g.Frames[0].Value, g.SampledAt.Format(time.RFC3339))
	for _, i := range g.HotPath {
		f := g.Frames[i]
		fmt.Fprintf(w, "%5.1f%%  %s%s\n", float64(f.Value)*100/float64(total), strings.Repeat(" ", min(f.Depth, 40)), f.Name)
	}
	self := make([]int, len(g.Frames))
	for i := range self {
		self[i] = i
	}
	sort.SliceStable(self, func(a, b int) bool { return g.Frames[self[a]].Self > g.Frames[self[b]].Self })
	fmt.Fprintf(w, "\nframes by their own samples:\n")
	for _, i := range self[:min(top, len(self))] {
		f := g.Frames[i]
		if f.Self == 0 {
			break
		}
		fmt.Fprintf(w, "%5.1f%%  %s\n", float64(f.Self)*100/float64(total), f.Name)
	}
	if g.Truncated {
		fmt.Fprintf(w, "[palink: frames dropped: %s]\n", g.TruncatedWhy)
	}
	printNotes(w, g.Notes)
	return nil
}

func printConfig(w io.Writer, c api.FlinkConfig) error {
	j := c.Job
	if j.Name != "" {
		fmt.Fprintf(w, "job %s: parallelism %d, %s, object reuse %v\n", j.Name, j.Parallelism, j.RestartStrategy, j.ObjectReuse)
		for _, k := range sortedKeys(j.UserConfig) {
			fmt.Fprintf(w, "  %s = %s\n", k, j.UserConfig[k])
		}
	}
	fmt.Fprintf(w, "\nJobManager (flame graphs %s):\n", map[bool]string{true: "on", false: "off"}[c.FlameGraphs])
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, e := range c.JobManager {
		fmt.Fprintf(tw, "  %s\t%s\n", e.Key, e.Value)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	printNotes(w, c.Notes)
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func printContainerLogs(w io.Writer, l api.ContainerLogList) error {
	from := "their NodeManagers"
	if l.Aggregated {
		from = "the log server (the application ended)"
	}
	fmt.Fprintf(w, "%s: %d containers, from %s\n", l.AppID, len(l.Containers), from)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "LOG\tSIZE\tROLE\tNODE")
	for _, c := range l.Containers {
		for _, f := range c.Files {
			fmt.Fprintf(tw, "yarn:%s:%s\t%s\t%s\t%s\n", c.ID, f.Ref.Name, bytesOf(f.Size), c.Role, or(c.Node, "-"))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	printNotes(w, l.Notes)
	return nil
}
