package flinksql

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/palink/palink/flinksql/ast"
)

// Error is a syntax error: where it is, what is wrong and, when there is
// one, a hint on how to fix it.
type Error struct {
	File string  // empty unless the caller named the source
	Pos  ast.Pos // first rune of the offending span
	End  ast.Pos // just past its last rune (equal to Pos for a point)
	Msg  string
	Hint string
	src  string
	code string // CodeSyntax when empty
}

// Error renders "file:line:col: message; hint".
func (e *Error) Error() string {
	return formatReport(e.File, e.Pos, e.Msg, e.Hint)
}

// Message is the message with its hint, without the position.
func (e *Error) Message() string { return joinHint(e.Msg, e.Hint) }

// Snippet shows the source line with carets under the offending span and
// the message after them, ready for a terminal.
func (e *Error) Snippet() string { return snippet(e.src, e.Pos, e.End, joinHint(e.Msg, e.Hint)) }

// Diagnostic converts the error to a diagnostic of severity Error.
func (e *Error) Diagnostic() Diagnostic {
	code := e.code
	if code == "" {
		code = CodeSyntax
	}
	return Diagnostic{Severity: SeverityError, Code: code, File: e.File, Pos: e.Pos, End: e.End,
		Msg: e.Msg, Hint: e.Hint, src: e.src}
}

// Severity ranks a diagnostic.
type Severity int

// The severities: an Error stops Flink from running the script; a Warning
// is legal SQL that likely does not do what was meant.
const (
	SeverityError Severity = iota
	SeverityWarning
)

// String is "error" or "warning".
func (s Severity) String() string {
	switch s {
	case SeverityError:
		return "error"
	case SeverityWarning:
		return "warning"
	}
	return "Severity(" + strconv.Itoa(int(s)) + ")"
}

// Diagnostic is one finding about a script, from the parser or the
// validator.
type Diagnostic struct {
	Severity Severity
	// Code names the kind of finding (CodeSyntax, CodeUnknownTable, ...) so
	// tools can filter and tests can assert without matching prose.
	Code string
	File string
	Pos  ast.Pos
	End  ast.Pos
	Msg  string
	Hint string
	src  string
}

// Error renders "file:line:col: severity: message; hint". It lets a
// Diagnostic travel as an error.
func (d Diagnostic) Error() string {
	return formatReport(d.File, d.Pos, d.Severity.String()+": "+d.Msg, d.Hint)
}

// Message is the message with its hint, without position or severity.
func (d Diagnostic) Message() string { return joinHint(d.Msg, d.Hint) }

// Snippet shows the source line with carets under the offending span and
// the message after them.
func (d Diagnostic) Snippet() string {
	return snippet(d.src, d.Pos, d.End, joinHint(d.Msg, d.Hint))
}

// The diagnostic codes.
const (
	CodeSyntax            = "syntax"
	CodeReservedWord      = "reserved-word"
	CodeUnknownTable      = "unknown-table"
	CodeUnknownColumn     = "unknown-column"
	CodeAmbiguousColumn   = "ambiguous-column"
	CodeDuplicateColumn   = "duplicate-column"
	CodeDuplicateTable    = "duplicate-table"
	CodeDuplicateAlias    = "duplicate-alias"
	CodeMissingConnector  = "missing-connector"
	CodeMissingOption     = "missing-option"
	CodeUnknownOption     = "unknown-option"
	CodeBadOptionValue    = "bad-option-value"
	CodeLookupJoin        = "lookup-join"
	CodeLookupTimeAttr    = "lookup-time-attribute"
	CodeInsertArity       = "insert-arity"
	CodeUnknownSink       = "unknown-sink"
	CodeInsertIntoView    = "insert-into-view"
	CodeSelectStar        = "select-star-into-sink"
	CodeNoWatermark       = "no-watermark"
	CodeMissingPrimaryKey = "missing-primary-key"
	CodeAppendOnlySink    = "append-only-sink"
	CodeNotGrouped        = "not-grouped"
	CodeUnknownConfig     = "unknown-config"
	CodeUnknownFunction   = "unknown-function"
	CodeBadPrimaryKey     = "bad-primary-key"
	CodeBadWatermark      = "bad-watermark"
	CodeNoInsert          = "no-insert"
	CodeCatalogTables     = "catalog-tables"
	// CodeCatalogShadowed is a table the script defines that the
	// cluster's table catalog has too: the script's definition wins.
	CodeCatalogShadowed = "catalog-shadowed"
	// CodeCatalogBroken is a catalog table the script uses whose
	// definition no longer validates.
	CodeCatalogBroken = "catalog-broken"
	// CodeUndefinedVariable is a ${name} the cluster has no variable for.
	CodeUndefinedVariable = "undefined-variable"
	// CodeSecretOutsideOptions is a secret variable used anywhere but in
	// a connector option's value (SecretsOutsideOptions).
	CodeSecretOutsideOptions = "secret-outside-options"
	CodeInternal             = "internal"
	// CodeNeedsNewerFlink is a statement or clause the target release does
	// not have yet (Options.Version).
	CodeNeedsNewerFlink = "needs-newer-flink"
	// CodeUncheckedOptions says a connector's options are not checked: it
	// ships outside Apache Flink (Flink CDC, Paimon, faker, ...).
	CodeUncheckedOptions = "unchecked-options"
	// CodeUnsupported is a construct the parser takes that Flink's planner
	// refuses (a MATCH_RECOGNIZE pattern its CEP library cannot run).
	CodeUnsupported = "unsupported"
)

func joinHint(msg, hint string) string {
	if hint == "" {
		return msg
	}
	return msg + "; " + hint
}

func formatReport(file string, pos ast.Pos, msg, hint string) string {
	var b strings.Builder
	if file != "" {
		b.WriteString(file)
		b.WriteByte(':')
	}
	if pos.IsValid() {
		fmt.Fprintf(&b, "%d:%d: ", pos.Line, pos.Col)
	} else if file != "" {
		b.WriteByte(' ')
	}
	b.WriteString(joinHint(msg, hint))
	return b.String()
}

// snippet renders
//
//	14 | ) WITH ('connector' = 'jdbc', 'table-nam' = 'users');
//	   |                               ^^^^^^^^^^^ unknown option ...
//
// Tabs show as one space so the carets line up whatever the tab width; wide
// (East Asian) runes take two columns as they do in a terminal. A span that
// runs past its first line is underlined to the end of that line.
func snippet(src string, pos, end ast.Pos, msg string) string {
	if !pos.IsValid() || pos.Offset > len(src) {
		return msg
	}
	lineStart := strings.LastIndexAny(src[:pos.Offset], "\n\r") + 1
	lineEnd := len(src)
	if i := strings.IndexAny(src[lineStart:], "\n\r"); i >= 0 {
		lineEnd = lineStart + i
	}
	line := src[lineStart:lineEnd]
	stop := end.Offset
	if end.Line != pos.Line || stop > lineEnd || stop < pos.Offset {
		stop = lineEnd
	}
	lead := displayWidth(src[lineStart:pos.Offset])
	width := displayWidth(src[pos.Offset:stop])
	if width == 0 {
		width = 1
	}
	num := strconv.Itoa(pos.Line)
	gutter := strings.Repeat(" ", len(num))
	var b strings.Builder
	b.WriteString(num)
	b.WriteString(" | ")
	b.WriteString(strings.ReplaceAll(line, "\t", " "))
	b.WriteByte('\n')
	b.WriteString(gutter)
	b.WriteString(" | ")
	b.WriteString(strings.Repeat(" ", lead))
	b.WriteString(strings.Repeat("^", width))
	if msg != "" {
		b.WriteByte(' ')
		b.WriteString(msg)
	}
	return b.String()
}

func displayWidth(s string) int {
	w := 0
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		s = s[n:]
		w += runeWidth(r)
	}
	return w
}

// runeWidth is 2 for the wide East Asian ranges a terminal draws double,
// 0 for combining marks, and 1 otherwise. It covers the common ranges, not
// the whole Unicode width table; good enough to place a caret.
func runeWidth(r rune) int {
	switch {
	case r >= 0x0300 && r <= 0x036F, r == 0x200B, r >= 0xFE00 && r <= 0xFE0F:
		return 0
	case r >= 0x1100 && r <= 0x115F, r >= 0x2E80 && r <= 0x303E, r >= 0x3041 && r <= 0x33FF,
		r >= 0x3400 && r <= 0x4DBF, r >= 0x4E00 && r <= 0x9FFF, r >= 0xA000 && r <= 0xA4CF,
		r >= 0xAC00 && r <= 0xD7A3, r >= 0xF900 && r <= 0xFAFF, r >= 0xFE30 && r <= 0xFE4F,
		r >= 0xFF00 && r <= 0xFF60, r >= 0xFFE0 && r <= 0xFFE6, r >= 0x1F300 && r <= 0x1F64F,
		r >= 0x1F900 && r <= 0x1F9FF, r >= 0x20000 && r <= 0x3FFFD:
		return 2
	}
	return 1
}
