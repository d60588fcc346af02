package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/palink/palink/config"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/demo"
	"github.com/spf13/cobra"
)

func newDebugCmd(g *globals) *cobra.Command {
	var (
		data       []string
		out        string
		limit      int
		watermarks int
		procStep   time.Duration
		demoJob    bool
		// samples are --sample TABLE=kafka[:N]; saveSample --save-sample DIR.
		samples    []string
		saveSample string
		// standIns are --udf-stand-in NAME(P…)=EXPR.
		standIns []string
		// on runs it on a cluster's SQL Gateway; compare runs it here too.
		on      string
		compare bool
	)
	cmd := &cobra.Command{
		Use:   "debug JOB.sql --data TABLE=FILE …",
		Short: "Run a SQL job locally on data files, with its lookup joins against the real databases",
		Long: "Parses the job, feeds each source table from its file (read by the table's format: json, csv,\n" +
			"debezium/canal/maxwell-json, upsert-kafka …) or from a datagen table's own options, and runs\n" +
			"it as Flink's streaming runtime would, with event time and watermarks: each sink shows the\n" +
			"changelog it would receive (+I, -U, +U, -D) and the table it would end up holding. Lookup\n" +
			"joins (FOR SYSTEM_TIME AS OF) query the dimension table for real, with the job's SET and\n" +
			"LOOKUP hints. What a local run does not cover is refused at its line and column.\n\n" +
			"Processing time is a simulated clock: --proctime-step 1s moves it a second before each row is\n" +
			"read (the row's PROCTIME()); processing-time windows fire as it passes their end.\n\n" +
			"--out streams the rows as JSON lines (with several sinks, one file each: results.SINK.jsonl;\n" +
			"an updating sink's changelog with \"op\", and its final table in results.SINK.final.jsonl).\n\n" +
			"--demo runs a job of `palink demo` by its name, on the demo's sample input and dimension table.\n\n" +
			"--sample TABLE=kafka[:N] reads the newest N records of a Kafka table's topic (its own bootstrap\n" +
			"servers, topic and json/csv/raw format; records that do not decode are counted and left out);\n" +
			"--save-sample DIR keeps them as DIR/TABLE.jsonl, to repeat the run with --data.\n\n" +
			"--cluster C injects the tables of C's table catalog the job uses without defining them, as a deploy would,\n" +
			"and its ${variables}; without --cluster, those of the only configured cluster or of default_cluster.\n\n" +
			"A UDF cannot run locally: --udf-stand-in 'mask(s)=UPPER(s)' gives a SQL expression that replaces\n" +
			"each call of mask in this run (its arguments in place of the parameters).",
		Example: "  palink debug orders.sql --data orders=orders.jsonl\n" +
			"  palink debug orders.sql --sample orders=kafka:200 --save-sample testdata/\n" +
			"  palink debug orders.sql --data orders=orders.csv --limit 100 -o json\n" +
			"  palink debug orders.sql --data orders=orders.jsonl --out results.jsonl\n" +
			"  palink debug --demo orders-enrich",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if g.output != outTable && g.output != outJSON && g.output != outJSONL {
				return fmt.Errorf("debug: output format %q: want table, json, or jsonl (a JSON line a row as it comes)", g.output)
			}
			if limit < 0 {
				return fmt.Errorf("debug: --limit %d: want 0 (all rows) or more", limit)
			}
			files, err := parseDataFlags(data)
			if err != nil {
				return err
			}
			var src string
			var dbg api.Debugger
			if demoJob {
				var cleanup func()
				if src, dbg, cleanup, err = demo.Debug(args[0]); err != nil {
					return fmt.Errorf("debug --demo: %w", err)
				}
				defer cleanup()
				if limit == 0 {
					limit = demo.DebugLimit // a datagen source never ends
				}
			} else if src, err = readSQL(cmd, args[0]); err != nil {
				return err
			}
			ctx, cancel := signalContext(cmd.Context())
			defer cancel()
			// Without --out the rows print as they come (table, jsonl) or
			// wait on disk, not in memory, for the JSON document (json).
			var stream *rowStream
			if out == "" && g.output != outJSON {
				stream = newRowStream(cmd.OutOrStdout(), g.output == outJSONL)
			}
			var status *debugStatus
			if f, ok := cmd.ErrOrStderr().(*os.File); ok && isTerminal(f) {
				// Not over rows printing to the same terminal.
				if o, ok := cmd.OutOrStdout().(*os.File); stream == nil || !ok || !isTerminal(o) {
					status = &debugStatus{w: f}
				}
			}
			// The config's samples and database redirects apply when there
			// is one; a debug run needs none.
			if dbg == nil {
				var cfg *config.Config
				if g.configPath != "" || fileExists(config.DefaultPath()) {
					if cfg, err = g.loadConfig(); err != nil {
						return err
					}
				}
				dbg = newDebugger(cfg, g.logger(false))
			}
			req := api.DebugRequest{SQL: src, File: args[0], Data: files, Limit: limit, Out: out, Watermarks: watermarks, ProctimeStep: procStep, SaveSamples: saveSample, StandIns: standIns,
				RowJSON: g.output == outJSONL && out == ""}
			if out == "" {
				spill, err := os.MkdirTemp("", "palink-debug-")
				if err != nil {
					return fmt.Errorf("debug: a directory for the rows: %w", err)
				}
				defer os.RemoveAll(spill)
				req.Out = filepath.Join(spill, "rows.jsonl")
			}
			if req.Samples, err = parseSampleFlags(samples, files); err != nil {
				return err
			}
			// from names the cluster whose catalog the run's tables came from.
			cluster, implied, from := "", false, demo.Cluster
			if demoJob {
				demo.DebugAssets(&req)
			} else {
				cluster, implied = assetsCluster(g, cmd.ErrOrStderr())
				from = cluster
			}
			if cluster != "" {
				// The cluster's release: what it lacks refuses the run.
				version, target, err := sqlTarget(cmd, g, "")
				if err != nil && !implied {
					return err
				}
				if !version.IsZero() {
					req.FlinkVersion, req.Target = version.String(), target
				}
				// The cluster's table catalog, as a deploy injects it.
				err = g.withEnv(cmd, func(ctx context.Context, e *env) (err error) {
					if req.Catalog, err = e.svc.Tables(ctx, cluster); err != nil {
						return err
					}
					if req.Vars, err = e.svc.Vars(ctx, cluster); err != nil {
						return err
					}
					req.UDFs, err = registeredUDFs(ctx, e)
					return err
				})
				if err != nil && !implied {
					return err
				}
				if err != nil {
					fmt.Fprintf(cmd.ErrOrStderr(), "note: without the table catalog of cluster %s: %v\n", cluster, err)
				}
			}
			var remote *api.RemoteDebugResult
			if on != "" {
				r, err := debugOn(cmd, g, on, req)
				if err != nil {
					return err
				}
				if !compare {
					return printRemote(cmd, g, r)
				}
				remote, stream = &r, nil // the rows here are only compared
			} else if compare {
				return exitError{code: 2, msg: "debug: --compare compares a run here with one on a cluster: give --on CLUSTER"}
			}
			fin, err := runDebug(ctx, dbg, req, status, stream)
			if err != nil {
				if ctx.Err() != nil {
					return fmt.Errorf("debug %s: interrupted", args[0])
				}
				return err
			}
			if remote != nil {
				return compareRuns(cmd, fin, *remote)
			}
			for _, smp := range fin.Sampled {
				fmt.Fprintf(cmd.ErrOrStderr(), "sampled %s: %s of topic %s (%s)", smp.Table, plural(smp.Records, "record"), smp.Topic, smp.Format)
				if smp.Undecodable > 0 {
					fmt.Fprintf(cmd.ErrOrStderr(), ", %d undecodable (first: %s)", smp.Undecodable, smp.FirstError)
				}
				if smp.File != "" {
					fmt.Fprintf(cmd.ErrOrStderr(), "; saved to %s (repeat with --data %s=%s)", smp.File, smp.Table, smp.File)
				}
				fmt.Fprintln(cmd.ErrOrStderr())
			}
			if len(fin.Injected) > 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "from the table catalog of cluster %s: %s\n", from, strings.Join(fin.Injected, ", "))
			}
			for _, s := range fin.StoodIn {
				fmt.Fprintf(cmd.ErrOrStderr(), "stand-in for this run: %s\n", s)
			}
			for _, s := range fin.Shadowed {
				fmt.Fprintf(cmd.ErrOrStderr(), "warning: the script defines %s itself; the catalog's is not used\n", s)
			}
			w := cmd.OutOrStdout()
			if out != "" {
				if g.structured() {
					return fin.Output.WriteJSON(w)
				}
				// The rows went to the files as they came: say where, and
				// what the lookups did.
				for _, s := range fin.Sinks {
					file := debugOutFile(out, s.Name, len(fin.Sinks))
					fmt.Fprintf(w, "%s: %s → %s", s.Name, plural(s.Rows, "row"), file)
					if final := strings.TrimSuffix(file, filepath.Ext(file)) + ".final" + filepath.Ext(file); fileExists(final) {
						fmt.Fprintf(w, " (its changelog; the final table → %s)", final)
					}
					fmt.Fprintln(w)
				}
				return fin.Output.WriteLookups(w)
			}
			switch {
			case g.output == outJSON:
				return fin.Output.WriteJSON(w)
			case g.output == outJSONL:
				if err := stream.finish(fin.Sinks); err != nil {
					return err
				}
				// stdout is the rows alone; what else the run did goes aside.
				return fin.Output.WriteLookups(cmd.ErrOrStderr())
			}
			if err := stream.finish(fin.Sinks); err != nil {
				return err
			}
			return fin.Output.WriteFinal(w)
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&data, "data", nil, "rows of a source table: TABLE=FILE, read by the table's format (json, csv, raw, the CDC formats, avro as Avro's JSON encoding; none: .csv with a header, else JSON lines); repeatable")
	f.StringVar(&out, "out", "", "stream each sink's rows to this file as JSON lines as they come (an updating sink's changelog, its final table to FILE.final)")
	f.IntVar(&watermarks, "watermarks", 0, "when sources emit their watermark: 0 after every row, N after every N rows, -1 only at the end (windows then fire at the end)")
	f.DurationVar(&procStep, "proctime-step", 0, "how far the simulated processing-time clock moves before each row is read (PROCTIME(), processing-time windows); 0: it stands still")
	f.IntVar(&limit, "limit", 0, "stop each sink after N rows (0: all; needed for an unbounded datagen)")
	f.StringArrayVar(&samples, "sample", nil, "read a Kafka source table's newest records: TABLE=kafka[:N] (N default 100); repeatable")
	f.StringVar(&saveSample, "save-sample", "", "keep the samples in DIR as TABLE.jsonl (a fixture for --data)")
	f.StringArrayVar(&standIns, "udf-stand-in", nil, "a SQL expression standing in for a UDF in this run: 'mask(s)=UPPER(s)'; repeatable")
	f.StringVar(&on, "on", "", "run it on this cluster instead, through its SQL Gateway: the samples read by filesystem tables, each sink a query whose rows come back (docs/debug.md)")
	f.BoolVar(&compare, "compare", false, "with --on: run it here too and say where the final tables differ")
	f.BoolVar(&demoJob, "demo", false, "JOB is a job of `palink demo` (orders-enrich, clicks-to-hudi, …), run on the demo's data")
	return cmd
}

// parseSampleFlags reads --sample TABLE=kafka[:N] flags.
func parseSampleFlags(flags []string, data map[string]string) (map[string]int, error) {
	if len(flags) == 0 {
		return nil, nil
	}
	out := map[string]int{}
	for _, f := range flags {
		table, src, ok := strings.Cut(f, "=")
		table, src = strings.TrimSpace(table), strings.TrimSpace(src)
		kind, count, hasN := strings.Cut(src, ":")
		if !ok || table == "" || kind != "kafka" {
			return nil, fmt.Errorf("debug: --sample %q: want TABLE=kafka or TABLE=kafka:N", f)
		}
		n := 0
		if hasN {
			v, err := strconv.Atoi(count)
			if err != nil || v <= 0 {
				return nil, fmt.Errorf("debug: --sample %q: N must be a positive number of records", f)
			}
			n = v
		}
		if _, dup := data[table]; dup {
			return nil, fmt.Errorf("debug: table %s has both --data and --sample", table)
		}
		out[table] = n
	}
	return out, nil
}

// parseDataFlags reads --data TABLE=FILE flags.
func parseDataFlags(flags []string) (map[string]string, error) {
	out := map[string]string{}
	for _, f := range flags {
		table, file, ok := strings.Cut(f, "=")
		table, file = strings.TrimSpace(table), strings.TrimSpace(file)
		if !ok || table == "" || file == "" {
			return nil, fmt.Errorf("debug: --data %q: want TABLE=FILE", f)
		}
		if _, dup := out[table]; dup {
			return nil, fmt.Errorf("debug: --data gives table %s twice", table)
		}
		out[table] = file
	}
	return out, nil
}

// debugOutFile is the file a sink's rows went to with --out path: path
// itself with one sink, path.SINK.ext with several (as the runtime names
// them).
func debugOutFile(path, sink string, sinks int) string {
	if sinks <= 1 {
		return path
	}
	ext := filepath.Ext(path)
	return strings.TrimSuffix(path, ext) + "." + fileSafe(sink) + ext
}

// fileSafe turns a sink name ("cat.db.sink", "SELECT #1") into a file name part.
func fileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '_'
	}, s)
}

// runDebug runs a job through d, as the TUI's ctrl-d does, and returns
// its DebugFinished event. status, if not nil, shows the run's progress
// while it goes and is cleared when it ends.
func runDebug(ctx context.Context, d api.Debugger, r api.DebugRequest, status *debugStatus, stream *rowStream) (api.DebugEvent, error) {
	ch, err := d.Debug(ctx, r)
	if err != nil {
		return api.DebugEvent{}, err
	}
	began := time.Now()
	var redraw <-chan time.Time
	if status != nil {
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		redraw = t.C
		defer status.clear()
	}
	var fin api.DebugEvent
	for {
		select {
		case ev, ok := <-ch:
			if !ok {
				if fin.Kind != api.DebugFinished {
					// Cancelled: the events after that may be dropped.
					return fin, errors.New("debug run: ended without its outcome")
				}
				if fin.Err == nil && fin.Output == nil {
					return fin, errors.New("debug run: finished without its rows")
				}
				return fin, fin.Err
			}
			status.apply(ev)
			if stream != nil {
				stream.event(ev)
			}
			if ev.Kind == api.DebugStarted {
				fin.Injected, fin.Shadowed, fin.Sampled, fin.StoodIn = ev.Injected, ev.Shadowed, ev.Sampled, ev.StoodIn
			}
			if ev.Kind == api.DebugFinished {
				ev.Injected, ev.Shadowed, ev.Sampled, ev.StoodIn = fin.Injected, fin.Shadowed, fin.Sampled, fin.StoodIn
				fin = ev
			}
		case <-redraw:
			status.draw(time.Since(began))
		}
	}
}

// debugStatus draws one status line on a terminal while a run goes, from
// its events: rows read per source (of how many), rows out, time.
type debugStatus struct {
	w      io.Writer
	totals map[string]int64 // table, in lower case → rows it will give
	read   map[string]int64 // table → rows read so far
	rows   int64            // rows out so far
}

// apply takes in what an event says; a nil status ignores it.
func (p *debugStatus) apply(ev api.DebugEvent) {
	if p == nil {
		return
	}
	switch ev.Kind {
	case api.DebugStarted:
		p.totals = map[string]int64{}
		for _, s := range ev.Sources {
			if s.Total >= 0 {
				p.totals[strings.ToLower(s.Table)] = s.Total
			}
		}
	case api.DebugProgress, api.DebugFinished:
		p.read, p.rows = ev.Read, ev.Received
	}
}

// line renders the status line.
func (p *debugStatus) line(elapsed time.Duration) string {
	tables := make([]string, 0, len(p.read))
	for t := range p.read {
		tables = append(tables, t)
	}
	slices.Sort(tables)
	var parts []string
	for _, t := range tables {
		if total, ok := p.totals[strings.ToLower(t)]; ok {
			parts = append(parts, fmt.Sprintf("%s %d/%d", t, p.read[t], total))
		} else {
			parts = append(parts, fmt.Sprintf("%s %d", t, p.read[t]))
		}
	}
	if len(parts) == 0 {
		parts = append(parts, "starting")
	}
	return fmt.Sprintf("debug: read %s · %s out · %s", strings.Join(parts, ", "), plural(int(p.rows), "row"), elapsed.Round(100*time.Millisecond))
}

// draw redraws the line in place.
func (p *debugStatus) draw(elapsed time.Duration) { fmt.Fprint(p.w, "\r\x1b[K"+p.line(elapsed)) }

// clear erases the line.
func (p *debugStatus) clear() { fmt.Fprint(p.w, "\r\x1b[K") }

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
