package complete

import (
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/flinksql/ast"
	"github.com/palink/palink/flinksql/builtin"
)

// Kind says what a suggestion is: the popup marks it, and the ranking
// puts the kinds a place wants first.
type Kind uint8

// The kinds of suggestion.
const (
	Keyword Kind = iota
	Table
	Column
	Function
	Option
	Value
	Hint
)

var kindNames = [...]string{"keyword", "table", "column", "function", "option", "value", "hint"}

// String names the kind as `palink sql complete -o json` prints it.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// Suggestion is one way to complete the text at the cursor.
type Suggestion struct {
	// Text replaces Result.Prefix.
	Text string
	Kind Kind
	// Detail is the short fact beside it: a function's signature, a
	// column's type, an option's type and default.
	Detail string
	// Doc is a line of description, for a status line.
	Doc string
}

// Result is what may be written at a cursor, best first.
type Result struct {
	// Prefix is the part of the word (or of the quoted string) before the
	// cursor that every suggestion completes, and Start is where it begins:
	// accepting a suggestion replaces the text from Start to the cursor.
	Prefix string
	Start  ast.Pos
	Items  []Suggestion
}

// At says what may be written at the cursor (line and col are
// 1-based, col counting runes, as Pos does) of a script that is usually
// being typed, so incomplete. It asks the parser what the grammar allows
// there (flinksql.Probe), so keywords, names and expressions come from
// the one grammar; the tables, views and their columns are the script's
// own DDL before the cursor's statement and opts.KnownTables; functions,
// connector options and formats are the release opts.Version's. Cheap
// enough for every keystroke: it lexes the script, and parses and
// validates only the cursor's statement and the DDL it reads
// (BenchmarkComplete2000Lines).
func At(src string, line, col int, opts flinksql.Options) Result {
	cur := offsetAt(src, line, col)
	toks, comments, _ := flinksql.Lex(src)
	for _, c := range comments {
		if c.Pos.Offset < cur && (cur < c.End.Offset || !c.Block && cur == c.End.Offset) {
			return Result{Start: posOf(src, cur)}
		}
	}
	c := &completer{src: src, cur: cur, toks: toks, opts: opts}
	c.locate()
	c.suggest()
	return c.result()
}

// completer is one completion: where the cursor stands in the script and
// the suggestions found so far.
type completer struct {
	src  string
	cur  int // byte offset of the cursor
	toks []flinksql.Token
	opts flinksql.Options

	// The cursor's statement: its tokens (all of them, past the cursor
	// too: a FROM clause after the select list gives the aliases) and the
	// offset it starts at; before are its tokens ending before the word
	// under the cursor.
	stmt      []flinksql.Token
	stmtStart int
	before    []flinksql.Token
	// ranges are the script's statements (StatementRanges) and at the
	// index of the cursor's (len(ranges) when it starts a new one).
	ranges [][2]int
	at     int

	// The word or string under the cursor: prefix is its part before the
	// cursor, start where that begins; inString is set inside '…'.
	prefix   string
	start    int
	inString bool

	items []Suggestion
	seen  map[string]bool

	// cat is built on first use: the DDL the statement reads, validated.
	cat *flinksql.Tables
	ddl *ddlIndex
}

// locate finds the cursor's statement and the word under the cursor.
func (c *completer) locate() {
	c.ranges = flinksql.StatementRanges(c.toks)
	c.at = len(c.ranges)
	c.stmtStart = c.cur
	for i, r := range c.ranges {
		first, last := c.toks[r[0]], c.toks[r[1]]
		if first.Pos.Offset >= c.cur {
			break
		}
		// A statement ended by a ';' before the cursor is not the cursor's.
		if next := c.toks[r[1]+1]; next.Kind == flinksql.Semicolon && next.Pos.Offset < c.cur && last.End.Offset <= c.cur {
			continue
		}
		c.at, c.stmtStart = i, first.Pos.Offset
		c.stmt = c.toks[r[0] : r[1]+1]
	}
	c.start = c.cur
	for i, t := range c.stmt {
		if t.Pos.Offset >= c.cur {
			break
		}
		if t.End.Offset >= c.cur {
			switch t.Kind {
			case flinksql.Word, flinksql.QuotedIdent:
				if t.End.Offset > c.cur || t.End.Offset == c.cur {
					c.start, c.prefix = t.Pos.Offset, c.src[t.Pos.Offset:c.cur]
					if t.Kind == flinksql.QuotedIdent {
						c.prefix = strings.TrimPrefix(c.prefix, "`")
						c.start++
					}
				}
			case flinksql.String:
				if t.End.Offset > c.cur || !closedString(t.Text) {
					c.inString = true
					c.start = t.Pos.Offset + 1
					c.prefix = strings.ReplaceAll(c.src[c.start:c.cur], "''", "'")
				}
			}
			c.before = c.stmt[:i]
			if c.start == c.cur && !c.inString {
				c.before = c.stmt[:i+1]
			}
			return
		}
		c.before = c.stmt[:i+1]
	}
}

// closedString reports whether a string token's text ends with its
// closing quote: ” inside is an escaped quote, so a closed string has an
// even number of them.
func closedString(text string) bool {
	return len(text) >= 2 && strings.Count(text, "'")%2 == 0
}

// suggest finds the suggestions for the place, most specific first.
func (c *completer) suggest() {
	if c.optionPlace() || c.hintPlace() || c.inString {
		return
	}
	if n := len(c.before); n >= 2 && c.before[n-1].Kind == flinksql.Dot && c.before[n-1].End.Offset == c.start {
		c.qualified(c.before[n-2])
		return
	}
	if len(c.before) == 0 {
		for _, w := range flinksql.Probe("", c.opts.Version).Words {
			c.add(Suggestion{Text: w, Kind: Keyword})
		}
		return
	}
	pr := flinksql.Probe(c.src[c.stmtStart:c.start], c.opts.Version)
	creating := strings.EqualFold(c.before[0].Text, "CREATE")
	for _, what := range pr.Names {
		switch {
		case strings.Contains(what, "table name") && !creating || what == "the source table of LIKE" ||
			what == "the name of what to drop" || what == "a view name" && !creating:
			c.tables()
		case what == "the time attribute column" || what == "a key column" || what == "a column name" && creating:
			c.definedColumns()
		case what == "a column name":
			c.columns("")
		case what == "a column of the sink":
			c.sinkColumns()
		}
	}
	if pr.Expr {
		if c.afterTableParen() {
			c.functions(true)
		}
		c.columns("")
		c.functions(false)
		c.registeredFunctions()
		for _, w := range exprStarts {
			c.add(Suggestion{Text: w, Kind: Keyword})
		}
	}
	if pr.Type {
		for _, w := range typeNames {
			c.add(Suggestion{Text: w, Kind: Keyword, Detail: "type"})
		}
	}
	words := slices.Clone(pr.Words)
	slices.SortStableFunc(words, func(a, b string) int { return keywordRank(a) - keywordRank(b) })
	for _, w := range words {
		c.add(Suggestion{Text: w, Kind: Keyword})
	}
}

// typeNames are the data types completion offers where a type may start.
var typeNames = []string{"STRING", "BIGINT", "INT", "DECIMAL", "DOUBLE", "BOOLEAN", "TIMESTAMP", "TIMESTAMP_LTZ",
	"DATE", "TIME", "VARCHAR", "CHAR", "FLOAT", "SMALLINT", "TINYINT", "BYTES", "BINARY", "VARBINARY",
	"ARRAY", "MAP", "MULTISET", "ROW", "INTERVAL", "RAW", "VARIANT", "STRUCTURED"}

// exprStarts are the words an expression may start with, which the probe
// does not see: the parser reads them only once a word is there.
var exprStarts = []string{"CASE", "CAST", "TRY_CAST", "INTERVAL", "NOT", "NULL", "TRUE", "FALSE", "EXISTS",
	"CURRENT_TIMESTAMP", "CURRENT_DATE", "LOCALTIMESTAMP", "ROW", "ARRAY", "MAP", "DATE", "TIMESTAMP"}

// keywordRank orders the keywords of one place: the ones written most
// come first, the rest stay in the order the grammar tried them.
func keywordRank(w string) int {
	if i := slices.Index(commonKeywords, w); i >= 0 {
		return i
	}
	return len(commonKeywords)
}

var commonKeywords = []string{"FROM", "WHERE", "SELECT", "AS", "JOIN", "LEFT", "ON", "TABLE", "VIEW", "AND", "OR",
	"GROUP", "BY", "ORDER", "HAVING", "LIMIT", "INTO", "INNER", "FOR", "SYSTEM_TIME", "OF", "IS", "NOT", "NULL",
	"IN", "BETWEEN", "LIKE", "DISTINCT", "UNION", "WINDOW", "WITH", "VALUES", "OVERWRITE", "IF", "EXISTS",
	"TEMPORARY", "PRIMARY", "KEY", "ENFORCED", "WATERMARK", "PARTITIONED", "COMMENT"}

// afterTableParen reports whether the cursor follows TABLE(, where the
// table-valued functions (TUMBLE, HOP, …) go.
func (c *completer) afterTableParen() bool {
	n := len(c.before)
	return n >= 2 && c.before[n-1].Kind == flinksql.LParen && strings.EqualFold(c.before[n-2].Text, "TABLE")
}

// functions suggests the built-in functions of the target release: the
// table-valued ones after TABLE(, the others elsewhere.
func (c *completer) functions(tvf bool) {
	for _, f := range builtin.Functions {
		if (f.Kind == "table" || f.Kind == "window") != tvf || c.lacks(f.Since) {
			continue
		}
		doc := f.Desc
		if f.Kind != "" {
			doc = f.Kind + ": " + doc
		}
		c.add(Suggestion{Text: f.Name, Kind: Function, Detail: f.Sig, Doc: doc})
	}
}

// registeredFunctions suggests the functions of the UDF registry, by the
// names they were registered with.
func (c *completer) registeredFunctions() {
	names := make([]string, 0, len(c.opts.Functions))
	for k := range c.opts.Functions {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		f := c.opts.Functions[k]
		name := f.Name
		if name == "" {
			name = k
		}
		c.add(Suggestion{Text: name, Kind: Function, Detail: f.Signature, Doc: "registered UDF"})
	}
}

// add keeps a suggestion that completes the prefix, once.
func (c *completer) add(s Suggestion) {
	bare := strings.Trim(s.Text, "'`")
	if bare == "" || !hasPrefixFold(bare, c.prefix) { // an empty name: `` in a half-typed script
		return
	}
	if c.seen == nil {
		c.seen = map[string]bool{}
	}
	k := s.Kind.String() + "\x00" + s.Text
	if c.seen[k] {
		return
	}
	c.seen[k] = true
	c.items = append(c.items, s)
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// result ranks the suggestions: those whose case matches the prefix too
// before the rest, otherwise in the order the place asked for them.
func (c *completer) result() Result {
	items := c.items
	if c.prefix != "" {
		slices.SortStableFunc(items, func(a, b Suggestion) int {
			return exactRank(a.Text, c.prefix) - exactRank(b.Text, c.prefix)
		})
	}
	return Result{Prefix: c.prefix, Start: posOf(c.src, c.start), Items: items}
}

func exactRank(text, prefix string) int {
	if strings.HasPrefix(strings.Trim(text, "'`"), prefix) {
		return 0
	}
	return 1
}

// offsetAt turns a 1-based line and rune column into a byte offset,
// clamped to the line and the text.
func offsetAt(src string, line, col int) int {
	off := 0
	for l := 1; l < line; l++ {
		i := strings.IndexByte(src[off:], '\n')
		if i < 0 {
			return len(src)
		}
		off += i + 1
	}
	for n := 1; n < col && off < len(src) && src[off] != '\n'; n++ {
		_, size := utf8.DecodeRuneInString(src[off:])
		off += size
	}
	return off
}

// posOf is the Pos of a byte offset.
func posOf(src string, off int) ast.Pos {
	line := 1 + strings.Count(src[:off], "\n")
	lineStart := strings.LastIndexByte(src[:off], '\n') + 1
	return ast.Pos{Offset: off, Line: line, Col: 1 + utf8.RuneCountInString(src[lineStart:off])}
}

// Describe says what the function or option under the cursor is, for an
// editor's status line: the suggestion At would give for the whole
// word (a function's signature and description, an option's type, default
// and description). ok is false elsewhere.
func Describe(src string, line, col int, opts flinksql.Options) (s Suggestion, ok bool) {
	cur := offsetAt(src, line, col)
	toks, _, _ := flinksql.Lex(src)
	for _, t := range toks {
		if t.Pos.Offset > cur {
			break
		}
		if cur > t.End.Offset || t.Kind != flinksql.Word && t.Kind != flinksql.String {
			continue
		}
		word, end := t.Value, t.End
		if t.Kind == flinksql.String {
			if !closedString(t.Text) {
				return Suggestion{}, false
			}
			end = posOf(src, t.End.Offset-1) // inside the closing quote
		}
		for _, it := range At(src, end.Line, end.Col, opts).Items {
			if (it.Kind == Function || it.Kind == Option || it.Kind == Hint) && strings.EqualFold(strings.Trim(it.Text, "'"), word) {
				return it, true
			}
		}
		return Suggestion{}, false
	}
	return Suggestion{}, false
}

// lacks reports whether the target release predates since, the release
// that brought a function, option or hint (zero: every release has it).
func (c *completer) lacks(since builtin.Version) bool {
	return !since.IsZero() && c.opts.Version.Before(since)
}
