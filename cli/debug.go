package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/palink/palink/join/debug"
)

func newDebugCmd(g *globals) *cobra.Command {
	var (
		data  []string
		out   string
		limit int
	)
	cmd := &cobra.Command{
		Use:   "debug JOB.sql --data TABLE=FILE …",
		Short: "Run a SQL job locally on data files, with its lookup joins against the real databases",
		Long: "Parses the job, feeds each source table from its file (JSON lines, or CSV with a header, typed\n" +
			"by the DDL) or from a datagen table's own options, replaces every sink with a capture, and\n" +
			"prints the rows each sink would receive. Lookup joins (FOR SYSTEM_TIME AS OF) query the\n" +
			"dimension table for real, through the async operator, with the job's SET and LOOKUP hints.\n" +
			"What a local run cannot do faithfully (aggregations, windows, regular joins) is refused.\n\n" +
			"--out writes the rows as JSON lines (with several sinks, one file each: results.SINK.jsonl).",
		Example: "  palink debug orders.sql --data orders=orders.jsonl\n" +
			"  palink debug orders.sql --data orders=orders.csv --limit 100 -o json\n" +
			"  palink debug orders.sql --data orders=orders.jsonl --out results.jsonl",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if g.output != "table" && g.output != "json" {
				return fmt.Errorf("debug: unknown output format %q: want table or json", g.output)
			}
			if limit < 0 {
				return fmt.Errorf("debug: --limit %d: want 0 (all rows) or more", limit)
			}
			files, err := parseDataFlags(data)
			if err != nil {
				return err
			}
			src, err := readSQL(cmd, args[0])
			if err != nil {
				return err
			}
			ctx, cancel := signalContext(cmd.Context())
			defer cancel()
			opts := debug.Options{Data: files, Limit: limit}
			if f, ok := cmd.ErrOrStderr().(*os.File); ok && isTerminal(f) {
				p := newDebugProgress(f, files)
				opts.OnRead, opts.OnRow = p.read, p.row
				stop := p.start(ctx)
				defer stop()
			}
			res, err := debug.Run(ctx, src, opts)
			if err != nil {
				if ctx.Err() != nil {
					return fmt.Errorf("debug %s: interrupted", args[0])
				}
				return err
			}
			w := cmd.OutOrStdout()
			if out != "" {
				written, err := writeDebugOut(out, res)
				if err != nil {
					return err
				}
				if g.output == "json" {
					return res.WriteJSON(w)
				}
				// The rows went to the file: say where, and what the lookups did.
				for i, s := range res.Sinks {
					fmt.Fprintf(w, "%s: %s → %s\n", s.Name, plural(len(s.Rows), "row"), written[i])
				}
				return res.WriteLookups(w)
			}
			if g.output == "json" {
				return res.WriteJSON(w)
			}
			return res.WriteText(w)
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&data, "data", nil, "rows of a source table: TABLE=FILE (.csv with a header, else JSON lines); repeatable")
	f.StringVar(&out, "out", "", "also write each sink's rows to this file as JSON lines")
	f.IntVar(&limit, "limit", 0, "stop each sink after N rows (0: all; needed for an unbounded datagen)")
	return cmd
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

// writeDebugOut writes each sink's rows as JSON lines: to path with one
// sink, to path.SINK.ext with several. It returns the files, by sink.
func writeDebugOut(path string, res *debug.Result) ([]string, error) {
	names := make([]string, len(res.Sinks))
	for i, s := range res.Sinks {
		names[i] = path
		if len(res.Sinks) > 1 {
			ext := filepath.Ext(path)
			names[i] = strings.TrimSuffix(path, ext) + "." + fileSafe(s.Name) + ext
		}
	}
	for i, s := range res.Sinks {
		f, err := os.Create(names[i])
		if err != nil {
			return nil, fmt.Errorf("debug: write rows of %s: %w", s.Name, err)
		}
		err = debug.WriteJSONLines(f, s.Columns, s.Rows)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, fmt.Errorf("debug: write rows of %s to %s: %w", s.Name, names[i], err)
		}
	}
	return names, nil
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

// debugProgress draws one status line on a terminal while a run goes:
// rows read per source (of how many), rows out, time.
type debugProgress struct {
	w      io.Writer
	totals map[string]int64 // table → rows in its file

	mu     sync.Mutex
	counts map[string]int64
	rows   int
}

func newDebugProgress(w io.Writer, files map[string]string) *debugProgress {
	p := &debugProgress{w: w, totals: map[string]int64{}, counts: map[string]int64{}}
	for table, path := range files {
		if n, err := debug.CountRows(path); err == nil {
			p.totals[strings.ToLower(table)] = n
		}
	}
	return p
}

func (p *debugProgress) read(table string, _ int64) {
	p.mu.Lock()
	p.counts[table]++
	p.mu.Unlock()
}

func (p *debugProgress) row(debug.SinkRow) {
	p.mu.Lock()
	p.rows++
	p.mu.Unlock()
}

// line renders the status line.
func (p *debugProgress) line(elapsed time.Duration) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	tables := make([]string, 0, len(p.counts))
	for t := range p.counts {
		tables = append(tables, t)
	}
	slices.Sort(tables)
	var parts []string
	for _, t := range tables {
		if total, ok := p.totals[strings.ToLower(t)]; ok {
			parts = append(parts, fmt.Sprintf("%s %d/%d", t, p.counts[t], total))
		} else {
			parts = append(parts, fmt.Sprintf("%s %d", t, p.counts[t]))
		}
	}
	if len(parts) == 0 {
		parts = append(parts, "starting")
	}
	return fmt.Sprintf("debug: read %s · %s out · %s", strings.Join(parts, ", "), plural(p.rows, "row"), elapsed.Round(100*time.Millisecond))
}

// start redraws the line until the returned stop is called, which clears it.
func (p *debugProgress) start(ctx context.Context) (stop func()) {
	began := time.Now()
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				fmt.Fprint(p.w, "\r\x1b[K")
				return
			case <-ctx.Done():
				fmt.Fprint(p.w, "\r\x1b[K")
				return
			case <-t.C:
				fmt.Fprint(p.w, "\r\x1b[K"+p.line(time.Since(began)))
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() { close(done); <-finished })
	}
}
