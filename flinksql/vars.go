package flinksql

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/palink/palink/flinksql/ast"
)

// VarRef is one ${name} in a text.
type VarRef struct {
	Name     string
	Pos, End ast.Pos
}

func isVarChar(c byte, first bool) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || !first && c >= '0' && c <= '9'
}

// FindVars lists the ${name} references of src, in order. A name is an
// identifier; "${" followed by anything else is left alone.
func FindVars(src string) []VarRef {
	var out []VarRef
	line, col := 1, 1
	for i := 0; i < len(src); {
		if src[i] == '$' && i+2 < len(src) && src[i+1] == '{' && isVarChar(src[i+2], true) {
			j := i + 3
			for j < len(src) && isVarChar(src[j], false) {
				j++
			}
			if j < len(src) && src[j] == '}' {
				n := j + 1 - i
				out = append(out, VarRef{Name: src[i+2 : j], Pos: ast.Pos{Offset: i, Line: line, Col: col}, End: ast.Pos{Offset: j + 1, Line: line, Col: col + n}})
				i, col = j+1, col+n
				continue
			}
		}
		if src[i] == '\n' {
			line, col = line+1, 1
			i++
			continue
		}
		_, size := utf8.DecodeRuneInString(src[i:])
		i += size
		col++
	}
	return out
}

// SubstituteVars replaces each ${name} of src whose name values has by
// its value; the others stay as they are.
func SubstituteVars(src string, values map[string]string) string {
	refs := FindVars(src)
	if len(refs) == 0 {
		return src
	}
	var b strings.Builder
	last := 0
	for _, r := range refs {
		v, ok := values[r.Name]
		if !ok {
			continue
		}
		b.WriteString(src[last:r.Pos.Offset])
		b.WriteString(v)
		last = r.End.Offset
	}
	b.WriteString(src[last:])
	return b.String()
}

// UndefinedVars reports each ${name} of src that known lacks, as errors at
// their line:col.
func UndefinedVars(src, file string, known map[string]bool) []Diagnostic {
	var out []Diagnostic
	for _, r := range FindVars(src) {
		if known[r.Name] {
			continue
		}
		names := make([]string, 0, len(known))
		for k := range known {
			names = append(names, k)
		}
		sort.Strings(names)
		hint := "define it with palink var set " + r.Name + " VALUE"
		if m := closest(r.Name, names); m != "" {
			hint = fmt.Sprintf("did you mean ${%s}?", m)
		}
		out = append(out, Diagnostic{Severity: SeverityError, Code: CodeUndefinedVariable, File: file, Pos: r.Pos, End: r.End, src: src,
			Msg: fmt.Sprintf("variable ${%s} is not defined for this cluster", r.Name), Hint: hint})
	}
	return out
}

// closest is the known name nearest to name by edit distance, "" if none
// is near.
func closest(name string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		if d := editDistance(strings.ToLower(name), strings.ToLower(k)); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// Assets are what a cluster gives its SQL jobs: the table catalog and the
// variables.
type Assets struct {
	Tables []CatalogDef
	// Vars are the plain variables' values; Secrets the names of the
	// secret ones, whose values a check never needs.
	Vars    map[string]string
	Secrets []string
}

// Known are the names of every variable.
func (a Assets) Known() map[string]bool {
	known := map[string]bool{}
	for k := range a.Vars {
		known[k] = true
	}
	for _, k := range a.Secrets {
		known[k] = true
	}
	return known
}

// CheckWithAssets is CheckWithCatalog with the variables too: an
// undefined ${name} is an error at its line:col, and the plain variables'
// values stand in for their references (in the catalog's tables too), so
// that their options are checked as they will run. Secrets stay as
// ${name}: a check never sees their values, and warns where one stands
// outside a connector option.
func CheckWithAssets(src string, opts Options, a Assets) (Result, Injection) {
	found := UndefinedVars(src, opts.File, a.Known())
	found = append(found, SecretsOutsideOptions(src, opts.File, a.Secrets, SeverityWarning)...)
	defs := make([]CatalogDef, len(a.Tables))
	for i, d := range a.Tables {
		d.SQL = SubstituteVars(d.SQL, a.Vars)
		defs[i] = d
	}
	res, in := CheckWithCatalog(SubstituteVars(src, a.Vars), opts, defs)
	// A catalog table the script gets may use a variable the cluster
	// lacks: an error where the script first uses the table.
	known := a.Known()
	for _, t := range in.Tables {
		for _, ref := range FindVars(t.SQL) {
			if known[ref.Name] || res.Script == nil {
				continue
			}
			at := firstUse(res.Script, t.Name)
			found = append(found, Diagnostic{Severity: SeverityError, Code: CodeUndefinedVariable, File: opts.File,
				Pos: at.Pos, End: at.End, src: src,
				Msg:  fmt.Sprintf("catalog table %s uses variable ${%s}, which is not defined for this cluster", t.Ref(), ref.Name),
				Hint: "define it with palink var set " + ref.Name + " (--secret-env ENV for a secret)"})
			break
		}
	}
	if len(found) > 0 {
		res.Diagnostics = append(res.Diagnostics, found...)
		sortDiagnostics(res.Diagnostics)
	}
	return res, in
}

// VarsOutsideOptions lists the references of src to the variables named
// (a cluster's secret ones) that stand anywhere but in an option's value:
// a WITH clause's (a table's, a catalog's) or an OPTIONS hint's. An option
// goes to its connector; an expression, a SET or a name is echoed by plans,
// job names and results, where a secret's value must never be. Positions
// are those of src as written; the other variables' references are left
// alone, and a statement that does not parse keeps none of its references
// in an option.
func VarsOutsideOptions(src string, names []string) []VarRef {
	wanted := map[string]bool{}
	for _, n := range names {
		wanted[n] = true
	}
	refs := FindVars(src)
	some := false
	for _, r := range refs {
		some = some || wanted[r.Name]
	}
	if !some {
		return nil
	}
	// Each reference becomes a name of its own length, so that the text
	// parses wherever a value may stand and every offset stays put.
	b := []byte(src)
	for _, r := range refs {
		for i := r.Pos.Offset; i < r.End.Offset; i++ {
			b[i] = 'v'
		}
	}
	script, _ := ParseScript(string(b))
	return outsideOptions(refs, wanted, script)
}

// outsideOptions are the refs of the names wanted that stand nowhere in
// an option's value of script (which may be nil: then all of them).
func outsideOptions(refs []VarRef, wanted map[string]bool, script *Script) []VarRef {
	var options []ast.Span
	if script != nil {
		ast.Inspect(script, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Property:
				if n.Value != nil {
					options = append(options, n.Value.Span)
				}
			case *ast.Hint:
				if n.Name != nil && strings.EqualFold(n.Name.Name, "OPTIONS") {
					for _, kv := range n.KVs {
						if kv.Value != nil {
							options = append(options, kv.Value.Range())
						}
					}
				}
			}
			return true
		})
	}
	var out []VarRef
	for _, r := range refs {
		if !wanted[r.Name] || inSpans(options, r) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// SecretsOutsideOptions reports each reference of src to a secret
// variable outside an option's value (VarsOutsideOptions) at its line:col,
// with sev: a warning for a deploy, where Flink shows the value in the
// job's plan, its operators' names and its web UI; an error for a debug
// run, whose rows would show it however the query transforms it.
func SecretsOutsideOptions(src, file string, secrets []string, sev Severity) []Diagnostic {
	var out []Diagnostic
	for _, r := range VarsOutsideOptions(src, secrets) {
		out = append(out, secretOutside(r, file, src, sev))
	}
	return out
}

// SecretsOutsideOptionsIn is SecretsOutsideOptions of a script parsed by
// ParseWithVars without the secrets' values (or by ParseScript): its
// references as written, its options as parsed; no second parse.
func SecretsOutsideOptionsIn(script *Script, file string, secrets []string, sev Severity) []Diagnostic {
	wanted := map[string]bool{}
	for _, n := range secrets {
		wanted[n] = true
	}
	var out []Diagnostic
	for _, r := range outsideOptions(FindVars(script.Src), wanted, script) {
		out = append(out, secretOutside(r, file, script.Src, sev))
	}
	return out
}

// secretOutside is the diagnostic of a secret's reference r outside an
// option's value.
func secretOutside(r VarRef, file, src string, sev Severity) Diagnostic {
	d := Diagnostic{Severity: sev, Code: CodeSecretOutsideOptions, File: file, Pos: r.Pos, End: r.End, src: src,
		Hint: "use a secret only as a connector option's value: WITH ('password' = '${" + r.Name + "}') or an OPTIONS hint"}
	if sev == SeverityError {
		d.Msg = fmt.Sprintf("a debug run refuses secret variable ${%s} outside a connector option: its value would show in what the run writes", r.Name)
	} else {
		d.Msg = fmt.Sprintf("secret variable ${%s} stands outside a connector option: Flink shows its value in the job's plan and web UI", r.Name)
	}
	return d
}

func inSpans(spans []ast.Span, r VarRef) bool {
	for _, s := range spans {
		if s.Pos.Offset <= r.Pos.Offset && r.End.Offset <= s.End.Offset {
			return true
		}
	}
	return false
}
