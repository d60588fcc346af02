package api

import (
	"context"
	"io"
	"time"

	"github.com/palink/palink/model"
)

// Debugger runs a SQL job locally, on this machine, against data files and
// the real lookup databases (issue 6's debug run): the TUI's ctrl-d and
// `palink debug` both. It is not part of Service: the data files and the
// access to the lookup databases are the caller's, so a debug run happens in
// the caller's process even when Service is an agent's.
type Debugger interface {
	// Debug starts a run and streams what happens. The first event is
	// DebugStarted, the last DebugFinished (with the run's error, if any);
	// then the channel is closed. Rows come as DebugRowReceived, progress
	// (rows read per source) as DebugProgress a few times a second.
	// Cancelling ctx stops the run; events after that may be dropped, but
	// the channel is still closed, and no goroutine outlives the run.
	//palink:api role=viewer local
	Debug(ctx context.Context, r DebugRequest) (<-chan DebugEvent, error)
}

// DebugRequest is one debug run.
type DebugRequest struct {
	// SQL is the job's script.
	SQL string
	// Data feeds source tables from files: table name → path of a JSON
	// lines or CSV (with a header) file. A datagen table without a file
	// generates its rows.
	Data map[string]string
	// Limit is the most rows each sink receives; 0: all.
	Limit int
	// Out, if set, is a file each sink's rows stream to as JSON lines
	// while the run goes (OUT.SINK.ext with several sinks): an append-only
	// sink's rows; an updating sink's changelog, {"op": "+U", …}, with its
	// final table in OUT.final.ext. Memory then holds the run's state and
	// the first MaxDebugFinal changes of each sink (DebugFinished's Output),
	// not all of them.
	Out string
	// RowJSON gives each DebugRowReceived row its JSON (DebugRow.JSON),
	// for a caller that streams the rows as JSON lines.
	RowJSON bool
	// Watermarks is when each source emits its watermark: 0 after every
	// row, N > 0 after every N rows, -1 only at the end of the input.
	Watermarks int
	// ProctimeStep is how far the simulated processing-time clock moves
	// before each row is read (its PROCTIME()); processing-time windows
	// fire as it passes their end. 0: the clock stands still.
	ProctimeStep time.Duration
	// Catalog are the table catalog of the cluster the job is for: the
	// tables the script uses without defining them are injected from it,
	// as a deploy would.
	Catalog []model.CatalogTable
	// Vars are the variables the cluster's jobs see: each ${name} of the
	// script and its catalog tables is replaced, secrets read in this
	// process, and masked in whatever the run reports.
	Vars []model.Variable
	// Samples read source tables from their Kafka topics: table → how
	// many of the newest records (0: DefaultSample). SaveSamples,
	// when set, is the directory the samples are kept in as TABLE.jsonl,
	// so that the run can be repeated with --data.
	Samples     map[string]int
	SaveSamples string
	// UDFs are the UDF registry's functions, to name what a call the run
	// cannot make is; StandIns are SQL expressions that stand in for
	// functions in this run, "mask(s)=UPPER(s)": every call is rewritten
	// before the run. A call of a function that is neither built in nor
	// created by the script, without a stand-in, refuses the run.
	UDFs     []model.UDF
	StandIns []string
	// File names the script in messages ("orders.sql").
	File string
	// FlinkVersion is the release of the cluster the job is for ("1.18"),
	// Target where it comes from ("cluster prod"): a construct that release
	// lacks refuses the run at its line:col, since rows the cluster could
	// never produce would mislead. Empty: the newest release palink knows.
	FlinkVersion, Target string
}

// DebugSample is what sampling one table's topic read.
type DebugSample struct {
	Table, Topic, Format string
	Records              int // decoded, and given to the run
	Undecodable          int
	FirstError           string // why the first undecodable record did not decode
	File                 string // where the sample was saved ("" unless SaveSamples)
}

// DefaultSample is how many records a sample reads when not told.
const DefaultSample = 100

// DebugBench is a Debugger with what its form offers besides: the
// sample files and the stand-ins it knows (core's local debugger is one).
type DebugBench interface {
	Debugger
	DebugSamples
	DebugStandIns
}

// DebugSamples is a Debugger that knows sample data files of tables, for
// a form to offer them.
type DebugSamples interface {
	SampleFile(table string) (path string, ok bool)
}

// DebugStandIns is a Debugger that knows SQL expressions to stand in for
// user functions (DebugRequest.StandIns), for a form to offer them.
type DebugStandIns interface {
	StandIn(function string) (standIn string, ok bool)
}

// DebugEventKind says what a DebugEvent carries.
type DebugEventKind int

// Debug event kinds.
const (
	DebugStarted DebugEventKind = iota + 1
	DebugProgress
	DebugRowReceived
	DebugFinished
)

// String names the kind.
func (k DebugEventKind) String() string {
	switch k {
	case DebugStarted:
		return "started"
	case DebugProgress:
		return "progress"
	case DebugRowReceived:
		return "row"
	case DebugFinished:
		return "finished"
	}
	return "unknown"
}

// DebugEvent is one step of a debug run.
type DebugEvent struct {
	Kind DebugEventKind
	// Sources (DebugStarted) are the tables the run reads.
	Sources []DebugSource
	// Injected (DebugStarted) are the catalog tables the run was given,
	// "orders@v3"; Shadowed those the script defines itself.
	Injected, Shadowed []string
	// StoodIn (DebugStarted) are the stand-ins the run used, as given.
	StoodIn []string
	// Sampled (DebugStarted) are the tables read from Kafka.
	Sampled []DebugSample
	// Sinks are the captured sinks: their columns as the DDL declares them
	// at DebugStarted, and as the run produced them, with row counts, at
	// DebugFinished.
	Sinks []DebugSink
	// Lookups are the lookup joins: their tables at DebugStarted, what
	// they did at DebugFinished.
	Lookups []DebugLookup
	// Skipped (DebugFinished) are the sources whose ignore-parse-errors
	// passed over records or fields.
	Skipped []DebugSkipped
	// Read (DebugProgress and DebugFinished) counts the rows read so far,
	// by source table.
	Read map[string]int64
	// Received (DebugProgress and DebugFinished) counts the rows the sinks
	// received so far, all sinks together.
	Received int64
	// Elapsed is the time since the run started.
	Elapsed time.Duration
	// Row (DebugRowReceived) is the row a sink received.
	Row *DebugRow
	// Err (DebugFinished) is why the run failed; nil when it completed.
	// A failure of one input names it ("orders.jsonl line 3: …", "input
	// row 2: …").
	Err error
	// Output (DebugFinished) is the rows the sinks received, with their
	// types, for writing out; nil when the run failed before it had any.
	Output DebugOutput
}

// DebugOutput writes a finished run's rows and lookup statistics as
// `palink debug` prints them. Sinks are numbered as DebugFinished lists them.
type DebugOutput interface {
	// WriteText writes each sink's rows as a table, then WriteLookups.
	WriteText(w io.Writer) error
	// WriteLookups writes what each lookup join did, a line each, then the
	// state each stateful operator held: at its most and at the end.
	WriteLookups(w io.Writer) error
	// WriteJSON writes sinks, rows, lookups and operators' state as one
	// JSON document, as it goes (a sink's rows from its Out file).
	WriteJSON(w io.Writer) error
	// WriteFinal writes the final table of each sink that received
	// updates, then WriteLookups: what follows rows printed as they came.
	WriteFinal(w io.Writer) error
	// WriteRows writes one sink's rows as JSON lines, one object a row.
	WriteRows(w io.Writer, sink int) error
}

// DebugSource is a table the run reads.
type DebugSource struct {
	Table string
	// File is the data file, "" when datagen generates the rows.
	File string
	// Total is the number of rows the source will give, -1 when unknown
	// (an unbounded datagen).
	Total int64
}

// DebugSink is a captured sink.
type DebugSink struct {
	Name    string
	Columns []DebugColumn
	Rows    int
	// Updating (DebugFinished) says the sink received updates or deletes;
	// Final is then the table it ends up holding (upsert by its primary
	// key, or the changelog applied), at most MaxDebugFinal rows.
	Updating bool
	Final    [][]string
}

// MaxDebugFinal bounds DebugSink.Final; `palink debug --out` keeps every row.
const MaxDebugFinal = 10000

// DebugColumn is a column of a sink.
type DebugColumn struct {
	Name string
	Type string // the Flink SQL type as the DDL writes it
}

// DebugRow is one row a sink received.
type DebugRow struct {
	Sink string
	// Kind is the change: +I, -U, +U or -D ("" is +I).
	Kind string
	// Values are rendered as Flink's SQL client prints them (NULL, TRUE,
	// 2024-01-02 10:00:00.123).
	Values []string
	// Input is the source row it came from: its line in the data file, or
	// its number for generated rows.
	Input int64
	// Lookup is how long that input's lookups took; 0 without a lookup join.
	Lookup time.Duration
	// JSON is the row as a JSON object of its columns, its values typed
	// (DebugRequest.RowJSON), secrets masked.
	JSON string `json:",omitempty"`
	// Changelog says the sink's stream carries updates: its rows are
	// changes (Kind), its final table comes at the end.
	Changelog bool `json:",omitempty"`
	// Columns are the sink's columns, on its first row only (a SELECT's
	// are known once the run planned it).
	Columns []DebugColumn `json:",omitempty"`
}

// DebugSkipped is what one source's ignore-parse-errors passed over,
// which Flink counts nowhere: the records that did not parse (skipped),
// the fields that did not read as their column's type (NULL in a kept
// row), and the first lines of either.
type DebugSkipped struct {
	Table, File  string
	Rows, Fields int64
	Lines        []int64
}

// DebugLookup is one lookup join of the run.
type DebugLookup struct {
	Table string
	// Where is the database, as the table's 'url' names it, without
	// credentials.
	Where string
	// The rest is known once the run finished.
	Mode     string // ordered or unordered
	Capacity int
	Lookups  int64
	Queries  int64
	CacheHit float64 // ratio of lookups the cache answered, 0..1
	P50, P99 time.Duration
}
