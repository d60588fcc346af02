package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/palink/palink/config"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/spf13/cobra"
)

func newJobCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{Use: "job", Short: "Create, inspect and act on one job"}
	cmd.AddCommand(newJobCreateCmd(g), newJobShowCmd(g), newJobHistoryCmd(g), newJobEditCmd(g), newJobSavepointsCmd(g))
	cmd.AddCommand(diagnoseCmds(g)...)
	cmd.AddCommand(newJobMetricsCmd(g), newJobChartCmd(g))
	for _, k := range []model.CommandKind{model.CmdSubmit, model.CmdPause, model.CmdKill, model.CmdRestart, model.CmdSavepoint, model.CmdResubmit} {
		cmd.AddCommand(newActionCmd(g, k))
	}
	return cmd
}

func newJobCreateCmd(g *globals) *cobra.Command {
	var (
		name, sqlFile, jarFile, class, note string
		project                             string
		artifact                            int
		parallelism                         int
		props                               map[string]string
		py                                  pyFlags
	)
	cmd := &cobra.Command{
		Use:   "create --name NAME (--sql FILE | --jar FILE [--class CLASS] | --project P [--class CLASS] | --py FILE | --py-module M --py-files F) [-- ARGS…]",
		Short: "Create a job (it is not started: use `palink job submit`)",
		Long: "Create a job (it is not started: use `palink job submit`).\n\n" +
			"A JAR job without --class runs the class its jar's manifest names, as `flink run` does:\n" +
			"Flink's program-class, else Main-Class; palink says which it found.",
		Example: "  palink job create --name orders-enrich --cluster prod --sql orders.sql\n" +
			"  palink job create --name dedup --jar dedup.jar --class com.acme.Dedup -- --topic payments\n" +
			"  palink job create --name dedup --project dedup -- --topic payments\n" +
			"  palink job create --name wordcount --py word_count.py --py-files hdfs:///py/lib.zip --py-requirements hdfs:///py/requirements.txt -- --output hdfs:///out",
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, cancel := signalContext(cmd.Context())
			defer cancel()
			req := api.CreateJobRequest{Name: name, Parallelism: parallelism, Config: props}
			kinds := 0
			for _, given := range []bool{sqlFile != "", jarFile != "" || project != "", py.given()} {
				if given {
					kinds++
				}
			}
			switch {
			case kinds > 1:
				return errors.New("give one of --sql, --jar (or --project) or --py/--py-module")
			case py.given():
				s, err := py.spec(args, note)
				if err != nil {
					return err
				}
				req.Kind, req.Spec = model.KindPython, s
			case sqlFile != "":
				b, err := os.ReadFile(sqlFile)
				if err != nil {
					return err
				}
				req.Kind, req.Spec = model.KindSQL, model.Spec{SQL: string(b), Note: note}
				if len(args) > 0 {
					return errors.New("program arguments are for JAR jobs")
				}
			case project != "":
				req.Kind, req.Spec = model.KindJAR, model.Spec{Project: project, ArtifactVersion: artifact, EntryClass: class, Args: args, Note: note}
			case jarFile != "":
				if _, err := os.Stat(jarFile); err != nil {
					return err
				}
				req.Kind, req.Spec = model.KindJAR, model.Spec{JarPath: jarFile, EntryClass: class, Args: args, Note: note}
			default:
				return usageError("job create: give --sql FILE, --jar FILE, --project P, or --py FILE")
			}
			e, err := g.openEnv(ctx)
			if err != nil {
				return err
			}
			defer e.Close()
			req.Cluster, err = pickCluster(e, g.cluster)
			if err != nil {
				return err
			}
			j, err := e.svc.CreateJob(ctx, req)
			if err != nil {
				return err
			}
			if g.structured() {
				return writeData(cmd.OutOrStdout(), g.output, j)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "created job %s (%s) on %s; start it with: palink job submit %s\n", j.Name, j.ID, j.Cluster, j.Name)
			if req.Kind == model.KindJAR && class == "" {
				if d, err := e.svc.Job(ctx, j.ID); err == nil {
					printFoundClass(cmd.OutOrStdout(), d.Spec)
				}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&name, "name", "", "job name (unique)")
	f.StringVar(&sqlFile, "sql", "", "Flink SQL script")
	f.StringVar(&jarFile, "jar", "", "job jar")
	f.StringVar(&project, "project", "", "a JAR job whose jar is this project's artifact (palink project build)")
	f.IntVar(&artifact, "artifact", 0, "the project's artifact version the job pins (default: the newest)")
	f.StringVar(&class, "class", "", "entry class of the jar")
	f.StringVar(&note, "note", "", "a note for the first spec version")
	f.IntVar(&parallelism, "parallelism", 0, "default parallelism (0: the cluster's)")
	f.StringToStringVar(&props, "set", nil, "Flink setting for this job, key=value (repeatable)")
	py.register(cmd)
	_ = cmd.MarkFlagRequired("name")
	return cmd
}

// pyFlags are the PyFlink options of job create and job edit, named after
// `flink run`'s -py, -pym, -pyfs, -pyreq, -pyarch and -pyexec.
type pyFlags struct {
	file, module, requirements, exec, clientExec string
	files, archives                              []string
}

func (p *pyFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&p.file, "py", "", "PyFlink entry script (its text is saved as the spec version)")
	f.StringVar(&p.module, "py-module", "", "PyFlink entry module instead of a script (-pym); needs --py-files")
	f.StringSliceVar(&p.files, "py-files", nil, "extra python files, directories or archives on the cluster's path (-pyfs; repeatable or comma-separated)")
	f.StringVar(&p.requirements, "py-requirements", "", "requirements file, optionally FILE#CACHE_DIR (-pyreq)")
	f.StringSliceVar(&p.archives, "py-archives", nil, "archives unpacked in the workers' working directory (-pyarch)")
	f.StringVar(&p.exec, "py-exec", "", "python interpreter on the cluster, e.g. venv.zip/venv/bin/python3 (-pyexec)")
	f.StringVar(&p.clientExec, "py-client-exec", "", "python with apache-flink that compiles the job where the client runs (-pyclientexec)")
}

func (p *pyFlags) given() bool { return p.file != "" || p.module != "" }

// spec reads the entry script and makes the PyFlink spec.
func (p *pyFlags) spec(args []string, note string) (model.Spec, error) {
	s := model.Spec{PyModule: p.module, PyFiles: p.files, PyRequirements: p.requirements,
		PyArchives: p.archives, PyExecutable: p.exec, PyClientExecutable: p.clientExec, Args: args, Note: note}
	if p.file != "" && p.module != "" {
		return model.Spec{}, errors.New("give --py or --py-module, not both")
	}
	if p.file != "" {
		b, err := os.ReadFile(p.file)
		if err != nil {
			return model.Spec{}, err
		}
		s.PyFile, s.Python = p.file, string(b)
	}
	return s, nil
}

// pickCluster is --cluster, or the only configured cluster.
func pickCluster(e *env, flag string) (string, error) {
	if flag != "" {
		return flag, nil
	}
	if c, ok := impliedCluster(e.cfg); ok {
		return c, nil
	}
	var names []string
	for _, c := range e.cfg.Clusters {
		names = append(names, c.Name)
	}
	return "", fmt.Errorf("several clusters are configured (%s): choose one with --cluster, or set default_cluster in the config", strings.Join(names, ", "))
}

// impliedCluster is the cluster meant when none is named: the only one
// configured, else the config's default_cluster.
func impliedCluster(cfg *config.Config) (string, bool) {
	if len(cfg.Clusters) == 1 {
		return cfg.Clusters[0].Name, true
	}
	if cfg.DefaultCluster != "" {
		return cfg.DefaultCluster, true
	}
	return "", false
}

func newJobShowCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:               "show JOB",
		Short:             "Show a job in depth (syncs it first)",
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeJobs(g, true),
		RunE: func(cmd *cobra.Command, args []string) error {
			return g.withEnv(cmd, func(ctx context.Context, e *env) error {
				if _, err := e.svc.SyncJob(ctx, args[0]); err != nil && !isNotFound(err) {
					fmt.Fprintln(cmd.ErrOrStderr(), "sync:", err)
				}
				d, err := e.svc.Job(ctx, args[0])
				if err != nil {
					return err
				}
				if g.structured() {
					return writeData(cmd.OutOrStdout(), g.output, d)
				}
				printDetail(cmd.OutOrStdout(), d)
				return nil
			})
		},
	}
}

func printDetail(w io.Writer, d api.JobDetail) {
	j := d.Job
	fmt.Fprintf(w, "%s  %s  %s · %s\n", j.Name, j.State, j.Cluster, j.Kind)
	printCrashLoop(w, j)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "id\t%s\n", j.ID)
	fmt.Fprintf(tw, "spec\tv%d\n", j.SpecVersion)
	fmt.Fprintf(tw, "application\t%s\n", dash(j.AppID))
	fmt.Fprintf(tw, "flink job\t%s %s\n", dash(j.FlinkJobID), j.FlinkState)
	fmt.Fprintf(tw, "tracking url\t%s\n", dash(j.TrackingURL))
	fmt.Fprintf(tw, "jobmanager\t%s\n", dash(j.JMAddress))
	if j.RestoredFrom != "" {
		fmt.Fprintf(tw, "restored from\t%s\n", j.RestoredFrom)
	}
	if j.LatestCheckpoint != nil {
		fmt.Fprintf(tw, "latest checkpoint\t%s ago\t%s\n", since(j.LatestCheckpoint.Time), j.LatestCheckpoint.Path)
	}
	if j.LatestSavepoint != nil {
		fmt.Fprintf(tw, "latest savepoint\t%s ago\t%s\n", since(j.LatestSavepoint.Time), j.LatestSavepoint.Path)
	}
	if j.Drift != nil {
		fmt.Fprintf(tw, "DRIFT\texpected %s, cluster says %s (since %s)\n", j.Drift.Expected, j.Drift.Observed, j.Drift.Since.Format(time.TimeOnly))
	}
	if j.Diagnostics != "" {
		fmt.Fprintf(tw, "diagnostics\t%s\n", firstLine(j.Diagnostics))
	}
	fmt.Fprintf(tw, "platform restarts\t%d\n", j.PlatformRestarts)
	tw.Flush()
	if d.LiveError != "" {
		fmt.Fprintf(w, "\nlive: %s\n", d.LiveError)
	}
	if len(d.Events) > 0 {
		fmt.Fprintln(w, "\nTimeline")
		start := max(0, len(d.Events)-10)
		for _, ev := range d.Events[start:] {
			fmt.Fprintf(w, "  %s  %-17s %s\n", ev.Time.Format("01-02 15:04:05"), ev.To, ev.Reason)
		}
	}
}

// printCrashLoop says a crash loop above everything else, with what
// would not replay it.
func printCrashLoop(w io.Writer, j model.Job) {
	loop := j.CrashLoop
	if loop == nil {
		return
	}
	const indent = "            "
	fmt.Fprintf(w, "CRASH LOOP  %s\n", loop.Sentence())
	fmt.Fprintf(w, "%scause: %s\n", indent, loop.Cause)
	if loop.Record != "" {
		fmt.Fprintf(w, "%srecord: %s\n", indent, loop.Record)
	}
	point := loop.RestorePoint
	if !loop.RestoreTime.IsZero() {
		point += " · " + since(loop.RestoreTime) + " ago"
	}
	fmt.Fprintf(w, "%srestore point: %s\n", indent, point)
	fmt.Fprintf(w, "%sinstead: resubmit --restore an older point · --allow-non-restored-state with an edited job · edit the job, then resubmit\n", indent)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

func newJobHistoryCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		ValidArgsFunction: completeJobs(g, true),
		Use:               "history JOB",
		Short:             "A job's events and commands, oldest first",
		Args:              cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return g.withEnv(cmd, func(ctx context.Context, e *env) error {
				d, err := e.svc.Job(ctx, args[0])
				if err != nil {
					return err
				}
				if g.structured() {
					return writeData(cmd.OutOrStdout(), g.output, historyOut{d.Events, d.Commands})
				}
				w := cmd.OutOrStdout()
				tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "TIME\tFROM\tTO\tREASON")
				for _, ev := range d.Events {
					fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", ev.Time.Format(time.DateTime), ev.From, ev.To, ev.Reason)
				}
				tw.Flush()
				fmt.Fprintln(w)
				if err := printCommands(w, "table", d.Commands, map[string]string{d.Job.ID: d.Job.Name}); err != nil {
					return err
				}
				// The catalog tables each deploy injected, for diffs between runs.
				for _, c := range d.Commands {
					if len(c.Params.Catalog) > 0 {
						fmt.Fprintf(w, "#%d %s injected from the table catalog: %s\n", c.Seq, c.Kind, model.CatalogRefs(c.Params.Catalog))
					}
					if len(c.Params.UDFs) > 0 {
						fmt.Fprintf(w, "#%d %s injected from the UDF registry: %s\n", c.Seq, c.Kind, model.UDFRefs(c.Params.UDFs))
					}
				}
				return nil
			})
		},
	}
}

func newJobEditCmd(g *globals) *cobra.Command {
	var sqlFile, jarFile, class, note, project string
	var artifact int
	var py pyFlags
	cmd := &cobra.Command{
		ValidArgsFunction: completeJobs(g, true),
		Use:               "edit JOB (--sql FILE | --jar FILE --class CLASS | --py FILE) [-- ARGS…]",
		Short:             "Save a new spec version of a job (deploy it with restart or resubmit)",
		Args:              cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, cancel := signalContext(cmd.Context())
			defer cancel()
			var s model.Spec
			switch {
			case py.given() && sqlFile == "" && jarFile == "":
				var err error
				if s, err = py.spec(args[1:], note); err != nil {
					return err
				}
			case sqlFile != "" && jarFile == "":
				b, err := os.ReadFile(sqlFile)
				if err != nil {
					return err
				}
				s = model.Spec{SQL: string(b), Note: note}
			case project != "" && sqlFile == "" && jarFile == "":
				s = model.Spec{Project: project, ArtifactVersion: artifact, EntryClass: class, Args: args[1:], Note: note}
			case jarFile != "" && sqlFile == "":
				s = model.Spec{JarPath: jarFile, EntryClass: class, Args: args[1:], Note: note}
			default:
				return usageError("job edit: give --sql FILE, --jar FILE, --project P, or --py FILE")
			}
			e, err := g.openEnv(ctx)
			if err != nil {
				return err
			}
			defer e.Close()
			saved, err := e.svc.SaveSpec(ctx, args[0], s)
			if err != nil {
				return err
			}
			if g.structured() {
				return writeData(cmd.OutOrStdout(), g.output, saved)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "saved %s v%d; deploy it with: palink job resubmit %s --restore latest\n", args[0], saved.Version, args[0])
			printFoundClass(cmd.OutOrStdout(), saved)
			return nil
		},
	}
	cmd.Flags().StringVar(&sqlFile, "sql", "", "the new SQL script")
	cmd.Flags().StringVar(&jarFile, "jar", "", "the new jar")
	cmd.Flags().StringVar(&project, "project", "", "pin the job to this project's artifact")
	cmd.Flags().IntVar(&artifact, "artifact", 0, "the artifact version (default: the newest)")
	cmd.Flags().StringVar(&class, "class", "", "entry class of the jar")
	cmd.Flags().StringVar(&note, "note", "", "what changed")
	py.register(cmd)
	return cmd
}

// printFoundClass says which entry class a JAR spec's jar manifest named,
// when none was given.
func printFoundClass(w io.Writer, s model.Spec) {
	if s.EntryClassFrom != "" {
		fmt.Fprintf(w, "entry class %s, from the jar's manifest (%s)\n", s.EntryClass, s.EntryClassFrom)
	}
}

// historyOut is `job history`'s document.
type historyOut struct {
	Events   []model.Event
	Commands []model.Command
}
