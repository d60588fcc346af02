package complete

import (
	"sort"
	"strings"

	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/flinksql/ast"
	"github.com/palink/palink/flinksql/builtin"
)

// The places inside parentheses of options: a table's WITH (…), an
// OPTIONS or LOOKUP hint, and SET's quoted key. Their keys and values are
// builtin's connectors and formats, for the release opts.Version; the
// connector is the one named in the same parentheses.

// openParen returns the index in c.stmt of the innermost '(' still open
// at the cursor, or -1.
func (c *completer) openParen(from int) int {
	var stack []int
	for i := from; i < len(c.before); i++ {
		switch c.before[i].Kind {
		case flinksql.LParen:
			stack = append(stack, i)
		case flinksql.RParen:
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		}
	}
	if len(stack) == 0 {
		return -1
	}
	return stack[len(stack)-1]
}

// props reads the 'key' = 'value' pairs of the parentheses opened at
// c.stmt[open], all of them (past the cursor too), but the one being typed.
func (c *completer) props(open int) ast.Properties {
	var ps ast.Properties
	end := matchParen(c.stmt, open)
	for i := open + 1; i+2 <= end; i++ {
		k, eq, v := c.stmt[i], c.stmt[i+1], c.stmt[i+2]
		if k.Kind != flinksql.String || eq.Kind != flinksql.Eq || v.Kind != flinksql.String {
			continue
		}
		if k.Pos.Offset < c.cur && c.cur <= k.End.Offset {
			continue
		}
		ps = append(ps, &ast.Property{Key: &ast.StringLit{Value: k.Value}, Value: &ast.StringLit{Value: v.Value}})
		i += 2
	}
	return ps
}

// optionPlace suggests option keys and values inside WITH (…) and SET's
// key; it reports whether the cursor is in such a place.
func (c *completer) optionPlace() bool {
	n := len(c.before)
	if n > 0 && strings.EqualFold(c.before[0].Text, "SET") && c.openParen(0) < 0 {
		switch {
		case n == 1 && c.inString:
			for _, k := range builtin.ConfigKeys {
				c.add(Suggestion{Text: k, Kind: Option, Doc: "Flink configuration"})
			}
			return true
		case n == 3 && c.before[2].Kind == flinksql.Eq && c.before[1].Kind == flinksql.String:
			for _, v := range configValues[c.before[1].Value] {
				c.add(c.quoted(Suggestion{Text: v, Kind: Value}))
			}
			return true
		}
		return false
	}
	open := c.openParen(0)
	if open < 1 || !strings.EqualFold(c.before[open-1].Text, "WITH") {
		return false
	}
	ps := c.props(open)
	spec := builtin.Connectors[propOr(ps, "connector")]
	c.optionsAt(spec, ps, open)
	return true
}

func propOr(ps ast.Properties, key string) string {
	v, _ := ps.Get(key)
	return v
}

// optionsAt suggests what follows the last token before the cursor in a
// list of options opened at c.stmt[open]: a key after '(' or ',', a value
// after 'key' =.
func (c *completer) optionsAt(spec *builtin.ConnectorSpec, ps ast.Properties, open int) {
	last := c.before[len(c.before)-1]
	switch {
	case last.Kind == flinksql.LParen || last.Kind == flinksql.Comma:
		c.optionKeys(spec, ps)
	case last.Kind == flinksql.Eq && len(c.before) >= 2 && c.before[len(c.before)-2].Kind == flinksql.String:
		c.optionValues(spec, ps, c.before[len(c.before)-2].Value)
	}
}

// quoted writes a suggestion's text in quotes unless the cursor is
// already inside a string.
func (c *completer) quoted(s Suggestion) Suggestion {
	if !c.inString {
		s.Text = "'" + strings.ReplaceAll(s.Text, "'", "''") + "'"
	}
	return s
}

// optionKeys suggests the keys a connector takes that are not set yet:
// the required ones first, then in the catalog's order (the docs'), then
// those of the formats it names.
func (c *completer) optionKeys(spec *builtin.ConnectorSpec, ps ast.Properties) {
	if spec == nil {
		if _, ok := ps.Get("connector"); !ok {
			c.add(c.quoted(Suggestion{Text: "connector", Kind: Option, Detail: "String (required)",
				Doc: "the connector: " + strings.Join(builtin.ConnectorNames()[:6], ", ") + ", …"}))
		}
		return
	}
	offer := func(op builtin.Option, prefix string) {
		key := prefix + op.Key
		if _, set := ps.Get(key); set || c.lacks(op.Since) {
			return
		}
		c.add(c.quoted(Suggestion{Text: key, Kind: Option, Detail: optionDetail(op), Doc: op.Desc}))
	}
	for _, op := range spec.Options {
		if op.Required {
			offer(op, "")
		}
	}
	for _, op := range spec.Options {
		offer(op, "")
	}
	for _, fk := range spec.Formats {
		format, ok := ps.Get(fk)
		if f := builtin.Formats[format]; ok && f != nil {
			for _, op := range f.Options {
				offer(op, strings.TrimSuffix(fk, "format")+format+".")
			}
		}
	}
}

// optionDetail is an option's type and default: "Duration, default 30s".
func optionDetail(op builtin.Option) string {
	d := op.Typ
	switch {
	case op.Required:
		d += " (required)"
	case op.Def != "":
		d += ", default " + op.Def
	}
	if !op.Since.IsZero() {
		d += ", since " + op.Since.String()
	}
	return d
}

// optionValues suggests the values of key: connectors, formats, an enum's
// values, true and false, or the default.
func (c *completer) optionValues(spec *builtin.ConnectorSpec, ps ast.Properties, key string) {
	switch {
	case key == "connector":
		// Flink's own connectors first: they are the ones most scripts use.
		for _, checked := range []bool{true, false} {
			for _, n := range builtin.ConnectorNames() {
				if spec := builtin.Connectors[n]; spec.Checked == checked {
					c.add(c.quoted(Suggestion{Text: n, Kind: Value, Detail: "connector", Doc: spec.Desc}))
				}
			}
		}
		return
	case key == "format" || strings.HasSuffix(key, ".format"):
		for _, n := range sortedFormats() {
			c.add(c.quoted(Suggestion{Text: n, Kind: Value, Detail: "format", Doc: builtin.Formats[n].Desc}))
		}
		return
	}
	if spec == nil {
		return
	}
	op := builtin.OptionFor(spec, ps, key)
	if op == nil {
		return
	}
	switch {
	case len(op.Enum) > 0:
		for _, v := range op.Enum {
			detail := ""
			if v == op.Def {
				detail = "default"
			}
			c.add(c.quoted(Suggestion{Text: v, Kind: Value, Detail: detail, Doc: op.Desc}))
		}
	case op.Typ == "Boolean":
		for _, v := range []string{"true", "false"} {
			detail := ""
			if v == op.Def {
				detail = "default"
			}
			c.add(c.quoted(Suggestion{Text: v, Kind: Value, Detail: detail, Doc: op.Desc}))
		}
	case op.Def != "":
		c.add(c.quoted(Suggestion{Text: op.Def, Kind: Value, Detail: "default", Doc: op.Desc}))
	}
}

func sortedFormats() []string {
	out := make([]string, 0, len(builtin.Formats))
	for n := range builtin.Formats {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// configValues are the values of the SET keys that take one of a few.
var configValues = map[string][]string{
	"execution.runtime-mode":             {"streaming", "batch", "automatic"},
	"execution.checkpointing.mode":       {"EXACTLY_ONCE", "AT_LEAST_ONCE"},
	"sql-client.execution.result-mode":   {"table", "changelog", "tableau"},
	"table.exec.sink.not-null-enforcer":  {"ERROR", "DROP"},
	"table.exec.sink.upsert-materialize": {"AUTO", "FORCE", "NONE"},
}

// hint is one of Flink's hints as completion shows it.
type hintSpec struct {
	name, sig, desc string
	since           builtin.Version
}

var hints = []hintSpec{
	{"LOOKUP", "LOOKUP('table'='t', 'async'='true', …)", "tune a lookup join: async, output mode, capacity, timeout, retries", builtin.Version{}},
	{"OPTIONS", "OPTIONS('key'='value', …)", "override the table's options for this query", builtin.Version{}},
	{"BROADCAST", "BROADCAST(t, …)", "join by broadcasting the named tables to every task", builtin.Version{}},
	{"SHUFFLE_HASH", "SHUFFLE_HASH(t, …)", "hash join with the named tables as the build side", builtin.Version{}},
	{"SHUFFLE_MERGE", "SHUFFLE_MERGE(t, …)", "sort-merge join", builtin.Version{}},
	{"NEST_LOOP", "NEST_LOOP(t, …)", "nested-loop join with the named tables as the build side", builtin.Version{}},
	{"STATE_TTL", "STATE_TTL('t'='1d', …)", "the state TTL of a join's or aggregation's inputs", builtin.Version{Major: 1, Minor: 18}},
}

// lookupHintOptions are the keys of the LOOKUP hint and their values.
var lookupHintOptions = []builtin.Option{
	builtin.Opt("table", "String", "", "the lookup table, by its name or alias").Req(),
	builtin.Opt("async", "Boolean", "", "look up asynchronously (when the connector can)"),
	builtin.Opt("output-mode", "Enum", "ordered", "async results in input order or as they come").Values("ordered", "allow_unordered"),
	builtin.Opt("capacity", "Integer", "100", "async lookups in flight"),
	builtin.Opt("timeout", "Duration", "300s", "async lookup timeout"),
	builtin.Opt("retry-predicate", "Enum", "", "when to retry: lookup_miss (no row found)").Values("lookup_miss"),
	builtin.Opt("retry-strategy", "Enum", "", "how to retry").Values("fixed_delay"),
	builtin.Opt("fixed-delay", "Duration", "", "delay between retries"),
	builtin.Opt("max-attempts", "Integer", "", "retries at most"),
}

var lookupHint = &builtin.ConnectorSpec{Name: "LOOKUP", Options: lookupHintOptions}

// hintPlace suggests inside /*+ … */: hint names, LOOKUP's keys and
// values, OPTIONS' keys (the table's connector's), tables in a join hint.
func (c *completer) hintPlace() bool {
	hs := -1
	for i, t := range c.before {
		switch t.Kind {
		case flinksql.HintStart:
			hs = i
		case flinksql.HintEnd:
			hs = -1
		}
	}
	if hs < 0 {
		return false
	}
	open := c.openParen(hs)
	if open < 0 {
		last := c.before[len(c.before)-1].Kind
		if last == flinksql.HintStart || last == flinksql.Comma || last == flinksql.RParen {
			for _, h := range hints {
				if !c.lacks(h.since) {
					c.add(Suggestion{Text: h.name, Kind: Hint, Detail: h.sig, Doc: h.desc})
				}
			}
		}
		return true
	}
	ps := c.props(open)
	switch builtin.UpperWord(c.before[open-1].Text) {
	case "LOOKUP":
		c.optionsAt(lookupHint, ps, open)
	case "OPTIONS":
		var spec *builtin.ConnectorSpec
		if hs > 0 {
			if d, ok := c.index().defs[c.before[hs-1].Value]; ok {
				spec = builtin.Connectors[d.connector]
			}
		}
		if spec != nil {
			c.optionsAt(spec, ps, open)
		}
	case "BROADCAST", "SHUFFLE_HASH", "SHUFFLE_MERGE", "NEST_LOOP":
		for _, r := range c.refs() {
			name := r.alias
			if name == "" {
				name = r.name
			}
			c.add(Suggestion{Text: name, Kind: Table, Detail: "table"})
		}
	}
	return true
}
