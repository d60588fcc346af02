package debug

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/flinksql/ast"
	"github.com/palink/palink/join"
	"github.com/palink/palink/join/debug/format"
	"github.com/palink/palink/join/debug/stream"
)

// Options configure a debug run of a SQL job.
type Options struct {
	// Data gives a source table's rows: table name → file, read by the
	// table's 'format' (json, csv, raw, debezium-json, canal-json,
	// maxwell-json; upsert-kafka's key and value), or by the file's
	// extension when the table has none (.csv, else JSON lines). A
	// 'datagen' table without a file generates its rows; any other table
	// without one is refused.
	Data map[string]string
	// Limit is the most changes each sink receives; 0: all.
	Limit int
	// Databases redirect lookup tables: a table's JDBC url → the url the run
	// queries instead (a staging copy, a local SQLite file), so that trying
	// a job never needs production's database.
	Databases map[string]string
	// Log takes what the lookup tables' database drivers would print on
	// their own (MySQL's writes to stderr); nil: dropped. A failed lookup
	// says what went wrong either way.
	Log *slog.Logger
	// Now is the processing-time clock's reading when the run starts
	// (PROCTIME(), CURRENT_TIMESTAMP); nil: the wall clock.
	Now func() time.Time
	// ClockStep is how far the simulated processing-time clock moves
	// before each row read; 0: it stands still (a small input read at
	// once), and no processing-time window closes before the end.
	ClockStep time.Duration
	// Watermarks is when each source emits its watermark: 0 after every
	// row (the default, see stream.EveryRow), N > 0 after every N rows, -1
	// only at the end of the input.
	Watermarks int
	// Keep is the most changes kept in memory per sink for the Result
	// (the changelog goes to Out and OnRow in full); 0: all of them.
	Keep int
	// Out, if set, is a file each sink's changelog streams to as JSON
	// lines, {"op": "+I", …columns}; with several sinks one file each,
	// OUT.SINK.ext. A sink that receives updates also gets its final table
	// in OUT.final (OUT.SINK.final.ext).
	Out string
	// Mask, if set, rewrites each line written to Out's files before it is
	// written: the caller hides there what must never reach a file (the
	// values of secret variables a script may select).
	Mask func(line string) string
	// OnRow, if set, sees each change a sink receives as it comes. It is
	// called from one goroutine at a time.
	OnRow func(SinkRow)
	// RowJSON gives each SinkRow its JSON too (masked by Mask), for a
	// caller that streams the rows as JSON lines.
	RowJSON bool
	// OnRead, if set, is told each source row read (its table and number),
	// for a progress bar; CountRows gives the total of a data file.
	OnRead func(table string, row int64)
}

// SinkRow is one change a sink received.
type SinkRow struct {
	Sink string
	// Kind is +I, -U, +U or -D.
	Kind string
	// Values are as Flink's SQL client prints them.
	Values []string
	// Input is the source row it came from: its line in the data file
	// (1-based, after a CSV header), or its number for generated rows.
	Input int64
	// Lookup is how long the lookups of that input took, 0 without a lookup join.
	Lookup time.Duration
	// JSON is the row as a JSON object of its columns, with Options.RowJSON.
	JSON string
	// Changelog says the sink's stream carries updates (its rows are
	// changes, each with its Kind).
	Changelog bool
	// Columns are the sink's columns, on its first row only.
	Columns []join.Column
}

// LookupReport is what one lookup join of the run did.
type LookupReport struct {
	Table   string
	Config  join.LookupConfig
	Stats   join.SourceStats
	Latency []time.Duration // of each input's lookups, in the order they finished
}

// OperatorReport is the state an operator held at the end of the run, and
// the most it held while the run went (sampled every few thousand rows).
type OperatorReport struct {
	Name      string
	Rows      int64 // entries of state
	Bytes     int64 // their estimated size
	PeakRows  int64
	PeakBytes int64
	Late      int64 // rows dropped because they came after the watermark had passed them
	Open      string
}

// Result is a finished debug run.
type Result struct {
	Sinks     []*Sink
	Lookups   []*LookupReport
	Operators []OperatorReport
	// Skipped are the sources whose ignore-parse-errors passed over
	// records or fields, which Flink counts nowhere.
	Skipped []SourceSkipped
}

// SourceSkipped is what one source's ignore-parse-errors passed over: the
// records that did not parse (skipped), the fields that did not read as
// their column's type (NULL), and the first lines of either.
type SourceSkipped struct {
	Table, File string
	format.Skipped
}

// Parse parses a job's script for Run; a script that does not parse is
// refused with each error at its line:col (ParseErrors).
func Parse(src string) (*flinksql.Script, error) {
	script, errs := flinksql.ParseScript(src)
	if err := ParseErrors(errs); err != nil {
		return nil, err
	}
	return script, nil
}

// ParseErrors is the refusal of a job whose script did not parse, each
// error at its line:col; nil when errs is empty.
func ParseErrors(errs []*flinksql.Error) error {
	if len(errs) == 0 {
		return nil
	}
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = e.Error()
	}
	return fmt.Errorf("debug run: the job does not parse:\n%s", strings.Join(msgs, "\n"))
}

// Run runs a SQL job, parsed (Parse, or the caller's own parse with its
// tables, variables and stand-ins in), locally: each source table is read
// from its data file (or generated by datagen), every sink is replaced by
// a capture, and the query runs as Flink's streaming runtime would run it
// on that input (see the package comment for what that covers). What a
// local run cannot do faithfully is refused, in Flink's words, with the
// line and column.
func Run(ctx context.Context, script *flinksql.Script, opts Options) (*Result, error) {
	start := time.Now()
	if opts.Now != nil {
		start = opts.Now()
	}
	d := &runner{ctx: ctx, opts: opts, tables: map[string]*tableDef{}, views: map[string]*ast.Query{}, sets: map[string]string{},
		zone: time.UTC, graph: &stream.Graph{}, scans: map[string]*rel{}}
	d.driver = &stream.Driver{Graph: d.graph, Start: start.UnixMilli(), Step: opts.ClockStep.Milliseconds(), Policy: stream.Policy(opts.Watermarks)}
	res := &Result{}
	err := d.plan(ctx, script, res)
	if err == nil {
		err = d.driver.Run(ctx)
	}
	for _, s := range res.Sinks {
		if cerr := s.close(); err == nil {
			err = cerr
		}
	}
	d.stopLookups()
	res.Lookups = d.lookups
	for _, s := range d.skippers {
		if sk := s.of.Skipped(); sk.Rows > 0 || sk.Fields > 0 {
			res.Skipped = append(res.Skipped, SourceSkipped{Table: s.table, File: filepath.Base(s.file), Skipped: sk})
		}
	}
	for _, r := range d.graph.Reports() {
		res.Operators = append(res.Operators, OperatorReport{Name: r.Name, Rows: r.State.Rows, Bytes: r.State.Bytes,
			PeakRows: r.Peak.Rows, PeakBytes: r.Peak.Bytes, Late: r.State.Late, Open: r.State.Open})
	}
	if err != nil {
		var le *limitReached
		if errors.As(err, &le) {
			return res, nil
		}
		return res, fmt.Errorf("debug run: %w", err)
	}
	return res, nil
}

// limitReached ends a run whose sinks have all they want.
type limitReached struct{}

func (*limitReached) Error() string { return "row limit reached" }

// plan reads the script's statements and plans each INSERT and SELECT
// into the run's graph.
func (d *runner) plan(ctx context.Context, script *flinksql.Script, res *Result) error {
	var jobs []ast.Statement
	var collect func(st ast.Statement) error
	collect = func(st ast.Statement) error {
		switch s := st.(type) {
		case *ast.SetStmt:
			if s.HasValue {
				d.sets[s.Key] = s.Value
			}
		case *ast.ResetStmt:
			delete(d.sets, s.Key)
		case *ast.CreateTable:
			return d.createTable(s)
		case *ast.CreateView:
			d.views[strings.ToLower(s.Name.Key())] = s.Query
			d.views[strings.ToLower(s.Name.Last())] = s.Query
		case *ast.InsertStmt, *ast.QueryStmt:
			jobs = append(jobs, s)
		case *ast.StatementSet:
			for _, inner := range s.Stmts {
				if err := collect(inner); err != nil {
					return err
				}
			}
		case *ast.ExecuteStmt:
			return collect(s.Stmt)
		case *ast.UseStmt, *ast.CreateCatalog, *ast.CreateDatabase, *ast.ShowStmt,
			*ast.DescribeStmt, *ast.ExplainStmt, *ast.LoadModule, *ast.UseModules, *ast.DropStmt:
			// Nothing to run locally.
		case *ast.CreateFunction:
			return errorAt(st, "CREATE FUNCTION: user-defined functions do not run in debug runs (only Flink's built-in functions do)")
		default:
			return errorAt(st, "%s is not supported in debug runs", statementName(st))
		}
		return nil
	}
	for _, st := range script.Stmts {
		if err := collect(st); err != nil {
			return err
		}
	}
	if len(jobs) == 0 {
		return errors.New("the job has no INSERT or SELECT to run")
	}
	if err := d.applySets(); err != nil {
		return err
	}
	for i, j := range jobs {
		sink, err := d.planJob(ctx, j, i, len(jobs))
		if err != nil {
			return err
		}
		res.Sinks = append(res.Sinks, sink)
	}
	return d.checkBounded()
}

// applySets reads the SET options a run honours.
func (d *runner) applySets() error {
	if z, ok := d.sets["table.local-time-zone"]; ok && !strings.EqualFold(z, "default") {
		loc, err := time.LoadLocation(z)
		if err != nil {
			return fmt.Errorf("SET 'table.local-time-zone' = '%s': %v", z, err)
		}
		d.zone = loc
	}
	if v, ok := d.sets["table.exec.source.idle-timeout"]; ok {
		dur, err := join.ParseFlinkDuration(v)
		if err != nil {
			return fmt.Errorf("SET 'table.exec.source.idle-timeout' = '%s': %v", v, err)
		}
		d.driver.IdleTimeout = dur.Milliseconds()
	}
	return nil
}

// statementName is a statement's kind in SQL words.
func statementName(st ast.Statement) string {
	name := strings.TrimPrefix(fmt.Sprintf("%T", st), "*flinksql.")
	var b strings.Builder
	for i, r := range name {
		if i > 0 && r >= 'A' && r <= 'Z' {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
	}
	return strings.ToUpper(strings.TrimSuffix(strings.TrimSuffix(b.String(), " Stmt"), " STMT"))
}

// runner is the state of one Run.
type runner struct {
	ctx    context.Context
	opts   Options
	tables map[string]*tableDef
	views  map[string]*ast.Query
	sets   map[string]string
	zone   *time.Location
	graph  *stream.Graph
	driver *stream.Driver
	// scans are the source tables read, by name: a table read in several
	// places is read once and its rows fanned out (Flink's source reuse).
	scans map[string]*rel
	// unbounded names a source without an end, if any; allLimited says
	// every job ends at a LIMIT.
	unbounded  string
	allLimited bool

	mu       sync.Mutex
	lookups  []*LookupReport
	lookupOp []*lookupNode
	// skippers are the sources with ignore-parse-errors on.
	skippers []sourceSkipper

	rnd    *rand.Rand
	seeded map[int64]*rand.Rand
	uuids  uint64
}

// clock is the processing-time clock's reading.
func (d *runner) clock() time.Time { return time.UnixMilli(d.driver.Now()).UTC() }

// uuid is a repeatable UUID: the run's n-th.
func (d *runner) uuid() string {
	d.uuids++
	r := rand.New(rand.NewPCG(d.uuids, 99))
	b := make([]byte, 16)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	b[6], b[8] = b[6]&0x0f|0x40, b[8]&0x3f|0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// checkBounded refuses a run that would never end: an unbounded source
// feeding a sink without a limit.
func (d *runner) checkBounded() error {
	if d.unbounded != "" && d.opts.Limit == 0 && !d.allLimited {
		return fmt.Errorf("datagen table %s is unbounded: set 'number-of-rows' or run with a row limit", d.unbounded)
	}
	return nil
}
