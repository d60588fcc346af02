package localrun

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/catalog"
	"github.com/palink/palink/core/internal/sandbox"
	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/flinksql/ast"
	"github.com/palink/palink/flinksql/builtin"
	"github.com/palink/palink/join"
	"github.com/palink/palink/join/debug"
)

// Debugger runs SQL jobs locally with join/debug's runtime and streams the
// run as api.DebugEvents: the one way into a debug run, for the TUI's debug
// screen (ctrl-d) and `palink debug`. Progress (rows read per source) is
// counted here, once, for both.
type Debugger struct {
	// Now is PROCTIME() of the runs; nil: the wall clock.
	Now func() time.Time
	// Progress is how often the rows read are reported; default 100ms.
	Progress time.Duration
	// Samples are directories of sample data: a source table the request
	// gives no file for is read from DIR/TABLE.jsonl, .json or .csv, from
	// the first directory that has one (teams keep them beside their SQL).
	Samples []string
	// Databases redirect lookup tables: a JDBC url → the url a debug run
	// queries instead (a staging copy, a local SQLite file).
	Databases map[string]string
	// StandIns are stand-ins a debug run's form offers for the user
	// functions they name ("mask(s)=UPPER(s)"); a run uses only those its
	// request carries.
	StandIns []string
	// Build is how a secret variable's command runs (config build:): in
	// an environment built from nothing, never as root.
	Build sandbox.Policy
	// Log takes what database drivers would print on their own; nil:
	// dropped.
	Log *slog.Logger
}

var (
	_ api.Debugger      = (*Debugger)(nil)
	_ api.DebugStandIns = (*Debugger)(nil)
	_ api.DebugOutput   = (*debug.Result)(nil)
)

// debugBuffer is how many events wait for a slow reader before the run
// itself waits: enough to absorb a screen redraw, small enough that a
// cancelled reader stops the run soon.
const debugBuffer = 256

// Debug implements api.Debugger. Counting the rows of the data files (for
// the progress bar) happens in the run's goroutine, so it returns at once.
func (d *Debugger) Debug(ctx context.Context, r api.DebugRequest) (<-chan api.DebugEvent, error) {
	if strings.TrimSpace(r.SQL) == "" {
		return nil, fmt.Errorf("debug run: the job's SQL is empty")
	}
	every := d.Progress
	if every <= 0 {
		every = 100 * time.Millisecond
	}
	now := d.Now
	if now == nil {
		now = time.Now
	}
	out := make(chan api.DebugEvent, debugBuffer)
	go func() {
		defer close(out)
		d.run(ctx, r, every, now, out)
	}()
	return out, nil
}

// run is one debug run, from the plan to the outcome.
func (d *Debugger) run(ctx context.Context, r api.DebugRequest, every time.Duration, now func() time.Time, out chan<- api.DebugEvent) {
	began := time.Now()
	emit := func(ev api.DebugEvent) bool {
		select {
		case out <- ev:
			return true
		case <-ctx.Done():
			return false
		}
	}
	prep, err := prepareDebug(&r, catalog.Sources{Commands: d.Build})
	if err != nil {
		emit(api.DebugEvent{Kind: api.DebugFinished, Err: err, Elapsed: time.Since(began)})
		return
	}
	start, vars := prep.start, prep.vars
	sampled, cleanup, err := takeSamples(ctx, prep.job, &r)
	defer cleanup()
	if err != nil {
		emit(api.DebugEvent{Kind: api.DebugFinished, Err: vars.MaskErr(err), Elapsed: time.Since(began)})
		return
	}
	start.Sampled = sampled
	r.Data = d.withSamples(prep.job, r.Data)
	start.Sources, start.Sinks, start.Lookups = debugPlan(prep.job, r.Data, d.Databases)
	for i := range start.Lookups {
		start.Lookups[i].Where = vars.Mask(start.Lookups[i].Where)
	}
	if !emit(start) {
		return
	}

	var p debugProgress
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	tickerDone := make(chan struct{})
	go func() {
		defer close(tickerDone)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-runCtx.Done():
				return
			case <-t.C:
				if !p.dirty() {
					continue
				}
				ev := api.DebugEvent{Kind: api.DebugProgress, Elapsed: time.Since(began)}
				ev.Read, ev.Received = p.snapshot()
				if !emit(ev) {
					return
				}
			}
		}
	}()

	keep := 0
	if r.Out != "" {
		// The rows stream to the files: memory holds the run's state and
		// the first rows of each sink, not everything the sinks received.
		keep = api.MaxDebugFinal
	}
	// A script that does not parse is refused here, where the run would
	// have found it: after the samples are taken and the plan shown.
	var res *debug.Result
	err = prep.syntax
	if err == nil {
		res, err = debug.Run(runCtx, prep.job, debug.Options{
			Data:       r.Data,
			Databases:  d.Databases,
			Log:        d.Log,
			Limit:      r.Limit,
			Out:        r.Out,
			Mask:       vars.JSONMask(),
			Keep:       keep,
			Watermarks: r.Watermarks,
			ClockStep:  r.ProctimeStep,
			Now:        now,
			RowJSON:    r.RowJSON,
			OnRead:     func(table string, _ int64) { p.read(table) },
			OnRow: func(row debug.SinkRow) {
				p.received()
				vals := make([]string, len(row.Values))
				for i, v := range row.Values {
					vals[i] = vars.Mask(debug.FormatValue(v)) // a script may select a secret
				}
				emit(api.DebugEvent{Kind: api.DebugRowReceived, Row: &api.DebugRow{
					Sink: row.Sink, Kind: row.Kind, Values: vals, Input: row.Input, Lookup: row.Lookup, JSON: row.JSON, Changelog: row.Changelog,
					Columns: debugColumnsOrNil(row.Columns)}})
			},
		})
	}
	cancel()
	<-tickerDone
	fin := api.DebugEvent{Kind: api.DebugFinished, Elapsed: time.Since(began), Err: err}
	fin.Read, fin.Received = p.snapshot()
	if ctx.Err() != nil && err != nil {
		fin.Err = fmt.Errorf("debug run: cancelled")
	}
	if res != nil {
		fin.Output = maskedOutput{out: res, vars: vars} // a nil *debug.Result must not become a non-nil interface
		for _, s := range res.Sinks {
			ds := api.DebugSink{Name: s.Name, Columns: debugColumns(s.Columns), Rows: len(s.Rows), Updating: s.Updating}
			if !s.Updating {
				ds.Rows = int(s.Counts[0]) // Rows holds at most Keep of them
			}
			if s.Updating {
				for _, row := range s.Rows[:min(len(s.Rows), api.MaxDebugFinal)] {
					vals := make([]string, len(row))
					for i, v := range row {
						vals[i] = vars.Mask(debug.FormatValue(v))
					}
					ds.Final = append(ds.Final, vals)
				}
			}
			fin.Sinks = append(fin.Sinks, ds)
		}
		for _, s := range res.Skipped {
			fin.Skipped = append(fin.Skipped, api.DebugSkipped{Table: s.Table, File: s.File, Rows: s.Rows, Fields: s.Fields, Lines: s.Lines})
		}
		for i, l := range res.Lookups {
			dl := api.DebugLookup{
				Table:    l.Table,
				Mode:     lookupMode(l.Config.Options.Mode),
				Capacity: l.Config.Options.Capacity,
				Lookups:  l.Stats.Lookups,
				Queries:  l.Stats.Queries,
				CacheHit: l.Stats.Cache.HitRatio(),
				P50:      l.Percentile(0.50),
				P99:      l.Percentile(0.99),
			}
			if i < len(start.Lookups) && strings.EqualFold(start.Lookups[i].Table, l.Table) {
				dl.Where = start.Lookups[i].Where
			}
			fin.Lookups = append(fin.Lookups, dl)
		}
	}
	fin.Err = vars.MaskErr(fin.Err) // a driver's error may quote a URL with its password
	emit(fin)
}

// debugProgress counts what a run has read, by source table, and what its
// sinks received: the one count of a run's progress, for every view of it.
type debugProgress struct {
	mu      sync.Mutex
	rows    map[string]int64 // rows read, by table
	out     int64            // rows the sinks received
	changed bool             // since the last snapshot
}

// read counts a row read from table. It counts calls rather than keep the
// row's number: that is a line number, and blank lines and a CSV header are
// not rows.
func (p *debugProgress) read(table string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.rows == nil {
		p.rows = map[string]int64{}
	}
	p.rows[table]++
	p.changed = true
}

// received counts a row a sink received.
func (p *debugProgress) received() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.out++
	p.changed = true
}

// dirty says whether anything was counted since the last snapshot.
func (p *debugProgress) dirty() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.changed
}

// snapshot returns the counts so far: rows read by table (a copy), and rows
// received.
func (p *debugProgress) snapshot() (map[string]int64, int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.changed = false
	m := make(map[string]int64, len(p.rows))
	for k, v := range p.rows {
		m[k] = v
	}
	return m, p.out
}

// debugColumnsOrNil is debugColumns, nil for none.
func debugColumnsOrNil(cs []join.Column) []api.DebugColumn {
	if len(cs) == 0 {
		return nil
	}
	return debugColumns(cs)
}

func debugColumns(cs []join.Column) []api.DebugColumn {
	out := make([]api.DebugColumn, len(cs))
	for i, c := range cs {
		out[i] = api.DebugColumn{Name: c.Name, Type: c.Type}
	}
	return out
}

func lookupMode(m join.Mode) string {
	if m == join.Unordered {
		return "unordered"
	}
	return "ordered"
}

// debugPlan reads what a run will read and write from the script alone, so
// that a screen can show its sources, progress totals and sink columns
// before the first row. It is best effort: debug.Run is the judge, and the
// finished event carries what it actually did.
func debugPlan(script *flinksql.Script, data, databases map[string]string) ([]api.DebugSource, []api.DebugSink, []api.DebugLookup) {
	var (
		sources []api.DebugSource
		sinks   []api.DebugSink
		lookups []api.DebugLookup
		seen    = map[string]bool{}
	)
	fileFor := func(table string) string {
		for k, v := range data {
			if strings.EqualFold(k, table) {
				return v
			}
		}
		return ""
	}
	addSource := func(ref *ast.TableRef) {
		t := script.Table(ref.Name.String())
		if t == nil {
			t = script.Table(ref.Name.Last())
		}
		if t == nil {
			return // a CTE, or a table of a catalog
		}
		name := t.Name.Last()
		key := strings.ToLower(name)
		if ref.SystemTime != nil {
			if !seen["lookup:"+key] {
				seen["lookup:"+key] = true
				u, _ := t.With.Get("url")
				if to, ok := databases[u]; ok {
					u = to
				}
				lookups = append(lookups, api.DebugLookup{Table: name, Where: dbWhere(u)})
			}
			return
		}
		if seen[key] {
			return
		}
		seen[key] = true
		s := api.DebugSource{Table: name, File: fileFor(name), Total: -1}
		if s.File != "" {
			if n, err := debug.CountRows(s.File); err == nil {
				s.Total = n
			}
		} else {
			s.Total = datagenRows(t)
		}
		sources = append(sources, s)
	}
	var walkQuery func(n ast.Node, depth int)
	walkQuery = func(n ast.Node, depth int) {
		ast.Inspect(n, func(x ast.Node) bool {
			ref, ok := x.(*ast.TableRef)
			if !ok {
				return true
			}
			if v := script.View(ref.Name.String()); v != nil && depth < 8 {
				walkQuery(v.Query, depth+1)
				return false
			}
			addSource(ref)
			return false
		})
	}
	var collect func(st ast.Statement)
	collect = func(st ast.Statement) {
		switch s := st.(type) {
		case *ast.InsertStmt:
			sinks = append(sinks, api.DebugSink{Name: s.Table.String(), Columns: sinkColumns(script, s)})
			walkQuery(s.Query, 0)
		case *ast.QueryStmt:
			sinks = append(sinks, api.DebugSink{Name: fmt.Sprintf("SELECT #%d", len(sinks)+1)})
			walkQuery(s.Query, 0)
		case *ast.StatementSet:
			for _, inner := range s.Stmts {
				collect(inner)
			}
		case *ast.ExecuteStmt:
			collect(s.Stmt)
		}
	}
	for _, st := range script.Stmts {
		collect(st)
	}
	return sources, sinks, lookups
}

// sinkColumns are the columns an INSERT writes: the ones it names, else
// the sink's physical columns in DDL order.
func sinkColumns(script *flinksql.Script, ins *ast.InsertStmt) []api.DebugColumn {
	t := script.Table(ins.Table.String())
	if t == nil {
		return nil
	}
	var out []api.DebugColumn
	if len(ins.Columns) > 0 {
		for _, id := range ins.Columns {
			c := t.Column(id.Name)
			if c == nil || c.Type == nil {
				return nil
			}
			out = append(out, api.DebugColumn{Name: c.Name.Name, Type: c.Type.String()})
		}
		return out
	}
	for _, c := range t.Columns {
		if c.Kind() == ast.ColumnPhysical && c.Type != nil {
			out = append(out, api.DebugColumn{Name: c.Name.Name, Type: c.Type.String()})
		}
	}
	return out
}

// datagenRows is how many rows a datagen table gives, -1 when unbounded or
// not datagen.
func datagenRows(t *ast.CreateTable) int64 {
	if c, _ := t.With.Get("connector"); !strings.EqualFold(c, "datagen") {
		return -1
	}
	rows := int64(-1)
	if v, ok := t.With.Get("number-of-rows"); ok {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
			rows = n
		}
	}
	for _, c := range t.Columns {
		kind, _ := t.With.Get("fields." + c.Name.Name + ".kind")
		if !strings.EqualFold(kind, "sequence") {
			continue
		}
		start, _ := t.With.Get("fields." + c.Name.Name + ".start")
		end, _ := t.With.Get("fields." + c.Name.Name + ".end")
		s, err1 := strconv.ParseInt(start, 10, 64)
		e, err2 := strconv.ParseInt(end, 10, 64)
		if err1 == nil && err2 == nil && e >= s && (rows < 0 || e-s+1 < rows) {
			rows = e - s + 1
		}
	}
	return rows
}

// dbWhere names a lookup database for a screen: the host of a JDBC URL, or
// the file of an SQLite one; never its credentials.
func dbWhere(jdbc string) string {
	rest, ok := strings.CutPrefix(jdbc, "jdbc:")
	if !ok {
		return ""
	}
	if path, ok := strings.CutPrefix(rest, "sqlite:"); ok {
		path, _, _ = strings.Cut(path, "?")
		return filepath.Base(strings.TrimPrefix(path, "file:"))
	}
	u, err := url.Parse(rest)
	if err != nil || u.Host == "" {
		return ""
	}
	return u.Hostname()
}

// sampleExts are the sample files' extensions, in the order looked for.
var sampleExts = []string{".jsonl", ".json", ".csv"}

// SampleFile is the sample data file of a table, if one of the Samples
// directories has it (api.DebugSamples).
func (d *Debugger) SampleFile(table string) (string, bool) {
	for _, dir := range d.Samples {
		for _, ext := range sampleExts {
			p := filepath.Join(dir, table+ext)
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
				return p, true
			}
		}
	}
	return "", false
}

// withSamples adds to data the sample file of each table of the script it
// names no file for, except datagen tables, which make their own rows.
func (d *Debugger) withSamples(script *flinksql.Script, data map[string]string) map[string]string {
	if len(d.Samples) == 0 {
		return data
	}
	out := make(map[string]string, len(data))
	for k, v := range data {
		out[k] = v
	}
	for _, st := range script.Stmts {
		t, ok := st.(*ast.CreateTable)
		if !ok {
			continue
		}
		name := t.Name.Last()
		if c, _ := t.With.Get("connector"); strings.EqualFold(c, "datagen") || hasKeyFold(out, name) {
			continue
		}
		if p, ok := d.SampleFile(name); ok {
			out[name] = p
		}
	}
	return out
}

func hasKeyFold(m map[string]string, k string) bool {
	for x := range m {
		if strings.EqualFold(x, k) {
			return true
		}
	}
	return false
}

// prepared is a run's script made ready: parsed once, and rewritten as a
// deploy would send it.
type prepared struct {
	start api.DebugEvent
	// job is the script with the catalog tables it uses without defining
	// them before it, its variables (and theirs) replaced, its stand-ins
	// in place of the functions they stand in for.
	job *flinksql.Script
	// vars mask the secrets in what the run reports.
	vars catalog.Resolved
	// syntax is the script's syntax errors, a refusal once the run has
	// started (debug.ParseErrors); nil if it parsed.
	syntax error
}

// prepareDebug parses a run's script, once — every step after it takes
// the tree — and refuses what a run must not do before any secret is
// read: a construct the release lacks, a secret outside a connector
// option. Positions in its refusals, and in the run's, are those of the
// script as written.
func prepareDebug(r *api.DebugRequest, src catalog.Sources) (prepared, error) {
	p := prepared{start: api.DebugEvent{Kind: api.DebugStarted}}
	// Masking finds a secret's value only as it is: once an expression
	// transforms it (UPPER, SUBSTRING, a hash) it would be written out. So
	// a secret may stand in a connector option only, checked before any is
	// read: the script is parsed with the plain variables' values and
	// without the secrets', which go into its options once checked.
	var secrets []string
	for _, v := range r.Vars {
		if v.Secret() {
			secrets = append(secrets, v.Name)
		}
	}
	plain := map[string]string{}
	for _, v := range r.Vars {
		if !v.Secret() && !slices.Contains(secrets, v.Name) {
			plain[v.Name] = v.Value
		}
	}
	job, errs := flinksql.ParseWithVars("", r.SQL, plain)
	p.job, p.syntax = job, debug.ParseErrors(errs)
	if err := releaseHasIt(r, job); err != nil {
		return p, err
	}
	if ds := flinksql.SecretsOutsideOptionsIn(job, r.File, secrets, flinksql.SeverityError); len(ds) > 0 {
		return p, ds[0]
	}
	var in flinksql.Injection
	if len(r.Catalog) > 0 {
		in = flinksql.InjectCatalog(job, catalog.AsDefs(r.Catalog), flinksql.Options{})
		if err := in.Err(); err != nil {
			return p, err
		}
		for _, t := range in.Tables {
			if ds := flinksql.SecretsOutsideOptions(t.SQL, "catalog table "+t.Ref(), secrets, flinksql.SeverityError); len(ds) > 0 {
				return p, ds[0]
			}
		}
		for _, t := range in.Tables {
			p.start.Injected = append(p.start.Injected, t.Ref())
		}
		for _, t := range in.Shadowed {
			p.start.Shadowed = append(p.start.Shadowed, t.Ref())
		}
	}
	vars, err := catalog.Prepare(r.Vars, r.SQL, in, nil, src)
	p.vars = vars
	if err != nil {
		return p, err
	}
	// The secrets' values go in before the catalog's statements: their
	// positions are in texts of their own.
	if err := flinksql.FillOptions(job, vars.Values); err != nil {
		return p, fmt.Errorf("debug run: %w", err)
	}
	if err := in.Prepend(job, vars.Values); err != nil {
		return p, fmt.Errorf("debug run: %w", err)
	}
	if p.start.StoodIn, err = standIn(r, job); err != nil {
		return p, err
	}
	return p, nil
}

// releaseHasIt refuses a script that uses what the job's Flink release
// does not have yet, naming the first such construct and where it is.
func releaseHasIt(r *api.DebugRequest, job *flinksql.Script) error {
	if r.FlinkVersion == "" {
		return nil
	}
	v, err := builtin.ParseVersion(r.FlinkVersion)
	if err != nil {
		return err
	}
	for _, d := range flinksql.ReleaseLacks(job, flinksql.Options{File: r.File, Version: v, Target: r.Target}) {
		if d.Code == flinksql.CodeNeedsNewerFlink && d.Severity == flinksql.SeverityError {
			return d
		}
	}
	return nil
}
