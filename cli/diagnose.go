package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/spf13/cobra"
)

// The diagnostic commands: the job graph, vertices, checkpoints, the
// TaskManagers, exceptions, flame graphs, configuration and container
// logs of one job. They read the job's Flink cluster (through its
// application's JobManager) and print what they got with notes on what
// they could not; -o json and -o yaml write the service's answer as is.
// The printing is in diagnose_print.go.

// withDiag runs fn with the environment's DiagnoseService.
func (g *globals) withDiag(cmd *cobra.Command, fn func(ctx context.Context, d api.DiagnoseService, w io.Writer) error) error {
	return g.withEnv(cmd, func(ctx context.Context, e *env) error {
		return fn(ctx, e.svc, cmd.OutOrStdout())
	})
}

// diagnoseCmds are the job subcommands that diagnose.
func diagnoseCmds(g *globals) []*cobra.Command {
	return []*cobra.Command{newJobGraphCmd(g), newJobVerticesCmd(g), newJobCheckpointsCmd(g), newJobExceptionsCmd(g),
		newJobFlameGraphCmd(g), newJobConfigCmd(g), newJobContainerLogsCmd(g)}
}

func newJobGraphCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:               "graph JOB",
		Short:             "Show the job graph: each vertex's figures, the edges, and the bottleneck",
		Long:              "The bottleneck is the busiest vertex that has back pressure upstream of it and none of its own.",
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeJobs(g, true),
		RunE: func(cmd *cobra.Command, args []string) error {
			return g.withDiag(cmd, func(ctx context.Context, d api.DiagnoseService, w io.Writer) error {
				gr, err := d.JobGraph(ctx, args[0])
				return show(g, w, gr, err, printGraph)
			})
		},
	}
}

func newJobVerticesCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "vertices JOB [VERTEX…]",
		Short: "Show vertices subtask by subtask, with their skew",
		Long: "VERTEX is a vertex id, its number in `palink job graph`, or a part of its name; without\n" +
			"one, every vertex. The skew compares the busiest subtask's records with the others' median.",
		Example:           "  palink job vertices orders-enrich LookupJoin\n  palink job vertices orders-enrich 1 -o json",
		Args:              cobra.MinimumNArgs(1),
		ValidArgsFunction: completeJobs(g, true),
		RunE: func(cmd *cobra.Command, args []string) error {
			return g.withDiag(cmd, func(ctx context.Context, d api.DiagnoseService, w io.Writer) error {
				gr, err := d.JobGraph(ctx, args[0])
				if err != nil {
					return err
				}
				ids, err := pickVertices(gr, args[1:])
				if err != nil {
					return err
				}
				out := []api.VertexDetail{}
				for _, id := range ids {
					v, err := d.Vertex(ctx, api.VertexRequest{JobRef: args[0], VertexID: id})
					if err != nil {
						return err
					}
					out = append(out, v)
				}
				if g.structured() {
					return writeData(w, g.output, out)
				}
				for i, v := range out {
					if i > 0 {
						fmt.Fprintln(w)
					}
					if err := printVertex(w, v); err != nil {
						return err
					}
				}
				return nil
			})
		},
	}
}

// pickVertices resolves VERTEX arguments against the graph: an id, a
// number, or a unique part of a name (case ignored).
func pickVertices(g api.JobGraph, args []string) ([]string, error) {
	var out []string
	if len(args) == 0 {
		for _, v := range g.Vertices {
			out = append(out, v.ID)
		}
		return out, nil
	}
	for _, a := range args {
		if n, err := strconv.Atoi(a); err == nil && n >= 0 && n < len(g.Vertices) {
			out = append(out, g.Vertices[n].ID)
			continue
		}
		var hits []api.GraphVertex
		for _, v := range g.Vertices {
			if v.ID == a || strings.EqualFold(v.Name, a) { // an exact name wins over parts of others
				hits = []api.GraphVertex{v}
				break
			}
			if strings.Contains(strings.ToLower(v.Name), strings.ToLower(a)) {
				hits = append(hits, v)
			}
		}
		switch len(hits) {
		case 0:
			return nil, fmt.Errorf("no vertex %q in job %s (`palink job graph %s` lists them)", a, g.JobName, g.JobName)
		case 1:
			out = append(out, hits[0].ID)
		default:
			var names []string
			for _, h := range hits {
				names = append(names, h.Name)
			}
			return nil, fmt.Errorf("%q names %d vertices (%s): give more of the name, or its number", a, len(hits), strings.Join(names, "; "))
		}
	}
	return out, nil
}

func newJobCheckpointsCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "checkpoints JOB [CHECKPOINT]",
		Short: "Show checkpoints: counts, configuration and history, or one checkpoint per operator and subtask",
		Long: "With CHECKPOINT (its id), the checkpoint operator by operator and subtask by subtask,\n" +
			"the slow part marked: the subtask the checkpoint waited for.",
		Args:              cobra.RangeArgs(1, 2),
		ValidArgsFunction: completeJobs(g, true),
		RunE: func(cmd *cobra.Command, args []string) error {
			return g.withDiag(cmd, func(ctx context.Context, d api.DiagnoseService, w io.Writer) error {
				if len(args) == 2 {
					id, err := strconv.ParseInt(strings.TrimPrefix(args[1], "#"), 10, 64)
					if err != nil {
						return fmt.Errorf("checkpoint %q: give its id, a number", args[1])
					}
					cd, err := d.Checkpoint(ctx, api.CheckpointRequest{JobRef: args[0], ID: id})
					return show(g, w, cd, err, printCheckpoint)
				}
				cv, err := d.Checkpoints(ctx, args[0])
				return show(g, w, cv, err, printCheckpoints)
			})
		},
	}
}

func newJobExceptionsCmd(g *globals) *cobra.Command {
	var full bool
	cmd := &cobra.Command{
		Use:   "exceptions JOB",
		Short: "Show the job's failures, each one's innermost cause first",
		Long: "Each entry starts with what really failed (the innermost cause of its stack trace), then\n" +
			"the exceptions that wrap it and where it happened. The history outlives the application:\n" +
			"palink keeps the newest 50 failures it saw at sync time.",
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeJobs(g, true),
		RunE: func(cmd *cobra.Command, args []string) error {
			return g.withDiag(cmd, func(ctx context.Context, d api.DiagnoseService, w io.Writer) error {
				ex, err := d.Exceptions(ctx, args[0])
				if err != nil {
					return err
				}
				if g.structured() {
					return writeData(w, g.output, ex)
				}
				return printExceptions(w, ex, full)
			})
		},
	}
	cmd.Flags().BoolVar(&full, "full", false, "print each stack trace whole")
	return cmd
}

func newJobFlameGraphCmd(g *globals) *cobra.Command {
	var (
		typ     string
		subtask int
		wait    time.Duration
		top     int
	)
	cmd := &cobra.Command{
		Use:   "flamegraph JOB VERTEX",
		Short: "Show a vertex's flame graph: its hottest path and the frames that take the most samples",
		Long: "Flink samples the vertex's threads when first asked (the cluster needs rest.flamegraph.enabled);\n" +
			"--wait asks again until the graph is ready. VERTEX is as for `palink job vertices`.",
		Args:              cobra.ExactArgs(2),
		ValidArgsFunction: completeJobs(g, true),
		RunE: func(cmd *cobra.Command, args []string) error {
			return g.withDiag(cmd, func(ctx context.Context, d api.DiagnoseService, w io.Writer) error {
				gr, err := d.JobGraph(ctx, args[0])
				if err != nil {
					return err
				}
				ids, err := pickVertices(gr, args[1:])
				if err != nil {
					return err
				}
				req := api.FlameGraphRequest{JobRef: args[0], VertexID: ids[0], Type: typ, Subtask: subtask}
				deadline := time.Now().Add(wait)
				var fg api.FlameGraph
				for {
					if fg, err = d.FlameGraph(ctx, req); err != nil {
						return err
					}
					if fg.Status != api.FlameWaiting || time.Now().After(deadline) {
						break
					}
					select {
					case <-ctx.Done():
						return ctx.Err()
					case <-time.After(time.Second):
					}
				}
				if g.structured() {
					return writeData(w, g.output, fg)
				}
				return printFlameGraph(w, fg, top)
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&typ, "type", api.FlameFull, "FULL, ON_CPU or OFF_CPU")
	f.IntVar(&subtask, "subtask", -1, "one subtask's graph (-1: all subtasks)")
	f.DurationVar(&wait, "wait", 30*time.Second, "ask again while Flink samples, this long at most")
	f.IntVar(&top, "top", 15, "how many frames to list by their own samples")
	return cmd
}

func newJobConfigCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:               "config JOB",
		Short:             "Show the JobManager's configuration and the job's",
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeJobs(g, true),
		RunE: func(cmd *cobra.Command, args []string) error {
			return g.withDiag(cmd, func(ctx context.Context, d api.DiagnoseService, w io.Writer) error {
				c, err := d.FlinkConfig(ctx, args[0])
				return show(g, w, c, err, printConfig)
			})
		},
	}
}

func newJobContainerLogsCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "container-logs JOB",
		Short: "List the YARN containers of the job's application and their log files",
		Long: "While the application runs, from the containers' NodeManagers; once it ended, from the log\n" +
			"server the ResourceManager names (yarn.log.server.web-service.url). Each file is read with\n" +
			"`palink logs JOB yarn:CONTAINER:FILE`, like any other log (--tail, -f, --grep, --save).",
		Example:           "  palink job container-logs orders-enrich\n  palink logs orders-enrich yarn:container_e01_1732_0042_01_000002:taskmanager.log --errors",
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeJobs(g, true),
		RunE: func(cmd *cobra.Command, args []string) error {
			return g.withDiag(cmd, func(ctx context.Context, d api.DiagnoseService, w io.Writer) error {
				l, err := d.ContainerLogs(ctx, args[0])
				return show(g, w, l, err, printContainerLogs)
			})
		},
	}
}

func newTaskManagersCmd(g *globals) *cobra.Command {
	var dump bool
	cmd := &cobra.Command{
		Use:   "taskmanagers JOB [ID]",
		Short: "List the TaskManagers of a job's Flink cluster, or show one with its thread dump",
		Long: "JOB (a job's id or name) says which Flink cluster: the one its YARN application runs (in a\n" +
			"session cluster, every job's TaskManagers are the session's). ID is a TaskManager id as listed\n" +
			"(on YARN, its container id).",
		Example:           "  palink taskmanagers orders-enrich\n  palink taskmanagers orders-enrich container_e01_1732_0042_01_000002 --thread-dump",
		Args:              cobra.RangeArgs(1, 2),
		ValidArgsFunction: completeJobs(g, true),
		RunE: func(cmd *cobra.Command, args []string) error {
			return g.withDiag(cmd, func(ctx context.Context, d api.DiagnoseService, w io.Writer) error {
				if len(args) == 2 {
					tm, err := d.TaskManager(ctx, api.TaskManagerRequest{JobRef: args[0], ID: args[1], ThreadDump: dump})
					return show(g, w, tm, err, printTaskManager)
				}
				if dump {
					return errors.New("--thread-dump needs a TaskManager ID")
				}
				l, err := d.TaskManagers(ctx, args[0])
				return show(g, w, l, err, printTaskManagers)
			})
		},
	}
	cmd.Flags().BoolVar(&dump, "thread-dump", false, "with ID: print its thread dump too (read up to 8 MiB)")
	return cmd
}
