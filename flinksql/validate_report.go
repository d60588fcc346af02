package flinksql

import (
	"fmt"
	"sort"

	"github.com/palink/palink/flinksql/ast"
)

// findings is where every part of a validation reports: the diagnostics
// found so far, and the file and source they point into.
type findings struct {
	file  string
	src   string
	diags []Diagnostic
}

func (f *findings) report(sev Severity, code string, n ast.Node, msg, hint string) {
	r := n.Range()
	f.diags = append(f.diags, Diagnostic{Severity: sev, Code: code, File: f.file, Pos: r.Pos, End: r.End,
		Msg: msg, Hint: hint, src: f.src})
}

func (f *findings) errorf(code string, n ast.Node, hint, format string, args ...any) {
	f.report(SeverityError, code, n, fmt.Sprintf(format, args...), hint)
}

func (f *findings) warnf(code string, n ast.Node, hint, format string, args ...any) {
	f.report(SeverityWarning, code, n, fmt.Sprintf(format, args...), hint)
}

// unknownTable reports a reference to a table nobody defined, suggesting
// the nearest of candidates.
func (f *findings) unknownTable(q *ast.QualifiedName, candidates []string) {
	hint := didYouMean(q.Key(), candidates)
	if hint == "" {
		hint = "define it with CREATE TABLE or CREATE VIEW before this statement"
	}
	f.errorf(CodeUnknownTable, q, hint, "unknown table '%s'", q.Key())
}

func didYouMean(s string, candidates []string) string {
	if m := suggest(s, candidates); m != "" {
		return "did you mean '" + m + "'?"
	}
	return ""
}

func sortDiagnostics(ds []Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool {
		if ds[i].Pos.Offset != ds[j].Pos.Offset {
			return ds[i].Pos.Offset < ds[j].Pos.Offset
		}
		return ds[i].Severity < ds[j].Severity
	})
}
