package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// The metric browser's commands: what Flink exposes of a job, a vertex or
// a TaskManager (job metrics), and the charts of a job's Metrics tab (job
// chart), as the TUI's M shows and keeps them.

// metricScope is where --vertex and --taskmanager point: the job itself,
// one of its vertices (an id, a number in `palink job graph`, a part of a
// name) or a TaskManager of its cluster.
type metricScope struct {
	vertex, taskManager string
}

func (s *metricScope) flags(cmd *cobra.Command) {
	cmd.Flags().StringVar(&s.vertex, "vertex", "", "a vertex of the job: its id, its number in `palink job graph`, or a part of its name")
	cmd.Flags().StringVar(&s.taskManager, "taskmanager", "", "a TaskManager of the job's Flink cluster, by id (`palink taskmanagers JOB`)")
}

// resolve makes the scope a request's: the vertex found in the job's graph.
func (s metricScope) resolve(ctx context.Context, svc api.Service, job string) (scope model.MetricScope, vertexID, vertexName string, err error) {
	switch {
	case s.vertex != "" && s.taskManager != "":
		return "", "", "", usageError("--vertex and --taskmanager: a metric is of one of them")
	case s.taskManager != "":
		return model.MetricScopeTaskManager, "", "", nil
	case s.vertex == "":
		return model.MetricScopeJob, "", "", nil
	}
	g, err := svc.JobGraph(ctx, job)
	if err != nil {
		return "", "", "", err
	}
	ids, err := pickVertices(g, []string{s.vertex})
	if err != nil {
		return "", "", "", err
	}
	for _, v := range g.Vertices {
		if v.ID == ids[0] {
			vertexName = v.Name
		}
	}
	return model.MetricScopeVertex, ids[0], vertexName, nil
}

func newJobMetricsCmd(g *globals) *cobra.Command {
	var (
		at  metricScope
		get []string
	)
	cmd := &cobra.Command{
		Use:   "metrics JOB [--vertex V | --taskmanager ID] [--get NAME,…]",
		Short: "List the metrics Flink exposes of a job, a vertex or a TaskManager, or read some",
		Long: "Without --get, every metric's name (a vertex's aggregated over its subtasks first, then each\n" +
			"subtask's, \"0.numRecordsIn\"); with it, the values of those named: a vertex's metric without a\n" +
			"subtask is read aggregated (sum, max, min, avg). `palink job chart` adds one to the job's\n" +
			"Metrics tab.",
		Example:           "  palink job metrics orders-enrich\n  palink job metrics orders-enrich --vertex LookupJoin --get busyTimeMsPerSecond,0.numRecordsIn",
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeJobs(g, true),
		RunE: func(cmd *cobra.Command, args []string) error {
			return g.withEnv(cmd, func(ctx context.Context, e *env) error {
				scope, vid, _, err := at.resolve(ctx, e.svc, args[0])
				if err != nil {
					return err
				}
				l, err := e.svc.FlinkMetrics(ctx, api.FlinkMetricsRequest{JobRef: args[0], Scope: scope, VertexID: vid, TaskManager: at.taskManager, Get: get})
				return show(g, cmd.OutOrStdout(), l, err, printMetrics)
			})
		},
	}
	at.flags(cmd)
	cmd.Flags().StringSliceVar(&get, "get", nil, "read the values of these metrics (names as listed, comma-separated)")
	return cmd
}

func newJobChartCmd(g *globals) *cobra.Command {
	var (
		at     metricScope
		agg    string
		remove bool
	)
	cmd := &cobra.Command{
		Use:   "chart JOB [METRIC] [--vertex V [--agg sum|max|min|avg] | --taskmanager ID] [--rm]",
		Short: "List, add or remove the charts of a job's Metrics tab",
		Long: "Without METRIC, the job's charts. With it, METRIC (a name `palink job metrics` lists) is charted\n" +
			"on the job's Metrics tab, or with --rm no longer: the job keeps its charts, so every palink on\n" +
			"its store charts them. A vertex's metric without a subtask is charted over the subtasks with\n" +
			"--agg (default sum).",
		Example: "  palink job chart orders-enrich numberOfFailedCheckpoints\n" +
			"  palink job chart orders-enrich busyTimeMsPerSecond --vertex LookupJoin --agg max\n" +
			"  palink job chart orders-enrich numberOfFailedCheckpoints --rm",
		Args:              cobra.RangeArgs(1, 2),
		ValidArgsFunction: completeJobs(g, true),
		RunE: func(cmd *cobra.Command, args []string) error {
			return g.withEnv(cmd, func(ctx context.Context, e *env) error {
				w := cmd.OutOrStdout()
				if len(args) == 1 {
					if remove || agg != "" || at != (metricScope{}) {
						return usageError("--rm, --agg, --vertex and --taskmanager need a METRIC")
					}
					d, err := e.svc.Job(ctx, args[0])
					return show(g, w, d.Job.Charts, err, printCharts)
				}
				scope, vid, vname, err := at.resolve(ctx, e.svc, args[0])
				if err != nil {
					return err
				}
				c := model.MetricChart{Scope: scope, VertexID: vid, VertexName: vname, TaskManager: at.taskManager, Metric: args[1], Agg: agg}
				if _, _, sub := model.SubtaskMetric(c.Metric); scope == model.MetricScopeVertex && !sub && agg == "" {
					c.Agg = model.AggSum
				}
				if remove && scope == model.MetricScopeVertex && agg == "" {
					// Whatever it is charted as: the one chart of the metric.
					if c, err = chartedAs(ctx, e.svc, args[0], c); err != nil {
						return err
					}
				}
				cs, err := e.svc.ChartMetric(ctx, api.ChartRequest{JobRef: args[0], Chart: c, Remove: remove})
				return show(g, w, cs, err, printCharts)
			})
		},
	}
	at.flags(cmd)
	cmd.Flags().StringVar(&agg, "agg", "", "how a vertex's metric is aggregated over its subtasks: sum, max, min or avg")
	cmd.Flags().BoolVar(&remove, "rm", false, "remove the chart instead")
	return cmd
}

// chartedAs finds the job's chart of c's metric whatever its aggregation,
// for --rm without --agg.
func chartedAs(ctx context.Context, svc api.Service, job string, c model.MetricChart) (model.MetricChart, error) {
	d, err := svc.Job(ctx, job)
	if err != nil {
		return c, err
	}
	var hits []model.MetricChart
	for _, h := range d.Job.Charts {
		if h.Scope == c.Scope && h.VertexID == c.VertexID && h.Metric == c.Metric {
			hits = append(hits, h)
		}
	}
	switch len(hits) {
	case 0:
		return c, fmt.Errorf("remove chart %s of %s: it is not charted: %w", c.Metric, job, model.ErrNotFound)
	case 1:
		return hits[0], nil
	}
	var as []string
	for _, h := range hits {
		as = append(as, h.Agg)
	}
	return c, usageError("%s is charted as %s: say which with --agg", c.Metric, strings.Join(as, " and "))
}

func printMetrics(w io.Writer, l api.FlinkMetricList) error {
	charted := map[string][]string{}
	for _, c := range l.Charts {
		if c.Scope == l.Scope && c.VertexID == l.VertexID && c.TaskManager == l.TaskManager {
			charted[c.Metric] = append(charted[c.Metric], strings.TrimSpace("charted "+c.Agg))
		}
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "METRIC\tVALUE\tCHART")
	for _, m := range l.Metrics {
		v := m.Value
		if a := m.Agg; a != nil {
			v = fmt.Sprintf("sum %g, max %g, min %g, avg %g", a.Sum, a.Max, a.Min, a.Avg)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", m.Name, orDash(v), strings.Join(charted[m.Name], ", "))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	printNotes(w, l.Notes)
	return nil
}

func printCharts(w io.Writer, cs []model.MetricChart) error {
	if len(cs) == 0 {
		_, err := fmt.Fprintln(w, "no charts added: `palink job chart JOB METRIC` adds one (`palink job metrics JOB` lists them)")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "METRIC\tOF\tAGG\tADDED BY\tADDED")
	for _, c := range cs {
		of := "job"
		switch c.Scope {
		case model.MetricScopeVertex:
			of = "vertex " + c.VertexName
		case model.MetricScopeTaskManager:
			of = "TaskManager " + c.TaskManager
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", c.Metric, of, orDash(c.Agg), orDash(c.AddedBy), c.AddedAt.Format("2006-01-02 15:04"))
	}
	return tw.Flush()
}
