package flinksql

import (
	"strings"

	"github.com/palink/palink/flinksql/ast"

	"github.com/palink/palink/flinksql/builtin"
)

// optionChecker checks a table's connector options — its WITH clause, ALTER
// TABLE SET and OPTIONS hints — against what the connector takes.
type optionChecker struct {
	*findings
	cat *catalog
	// unchecked are the connectors whose "options not checked" warning
	// was given: once per script is enough to say it.
	unchecked map[string]bool
}

// checkTable checks the WITH options against the connector's spec.
func (oc *optionChecker) checkTable(s *ast.CreateTable, t *tableDef) {
	props := t.props
	connProp := props.Find("connector")
	if connProp == nil {
		if oc.cat.inDefaultCatalog(s.Name) && s.Like == nil {
			oc.errorf(CodeMissingConnector, s.Name, "add WITH ('connector' = '...'), e.g. 'kafka', 'jdbc', 'datagen' or 'filesystem'",
				"table '%s' has no 'connector' option", t.name)
		}
		return
	}
	spec := builtin.Connectors[t.connector]
	switch {
	case spec == nil:
		if m := suggest(t.connector, builtin.ConnectorNames()); m != "" {
			oc.warnf(CodeBadOptionValue, connProp.Value, "did you mean '"+m+"'?", "unknown connector '%s'", t.connector)
			return
		}
		oc.warnUnchecked(connProp, t.connector)
		return
	case !spec.Checked:
		oc.warnUnchecked(connProp, t.connector)
		return
	}
	oc.checkKeys(props, spec, t, s.With)
	for _, req := range spec.Required {
		found := false
		for _, k := range req {
			if _, ok := props.Get(k); ok {
				found = true
			}
		}
		if !found {
			oc.errorf(CodeMissingOption, s.Name, "add "+ast.QuoteString(req[0])+" = '...' to the WITH options",
				"%s table '%s' needs the %s option", t.connector, t.name, alternatives(req))
		}
	}
	if spec.Upsert && t.connector == "upsert-kafka" && t.pk == nil {
		oc.errorf(CodeMissingPrimaryKey, s.Name, "add PRIMARY KEY (...) NOT ENFORCED: its columns make the Kafka record key",
			"upsert-kafka table '%s' needs a primary key", t.name)
	}
	oc.checkValues(props, t)
	if t.connector == "kafka" || t.connector == "upsert-kafka" {
		oc.checkKafkaMetadata(s)
	}
}

// warnUnchecked says, once per connector and script, that a connector
// palink does not follow has its options unchecked: its tables get their
// structure checked and nothing else, so no error is invented for them.
func (oc *optionChecker) warnUnchecked(connProp *ast.Property, name string) {
	if oc.unchecked == nil {
		oc.unchecked = map[string]bool{}
	}
	if oc.unchecked[name] {
		return
	}
	oc.unchecked[name] = true
	oc.warnf(CodeUncheckedOptions, connProp.Value, "the table's columns, keys and queries are still checked",
		"the options of connector '%s' are not checked: it ships outside Apache Flink, on its own versions", name)
}

func alternatives(keys []string) string {
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = ast.QuoteString(k)
	}
	return strings.Join(q, " or ")
}

// checkKeys reports options the connector does not know. Only the
// options written in own (this statement) are reported, with their spans.
func (oc *optionChecker) checkKeys(props ast.Properties, spec *builtin.ConnectorSpec, t *tableDef, own ast.Properties) {
	exact, prefixes := builtin.AllowedOptions(spec, props)
	candidates := sortedKeys(exact)
	for _, p := range own {
		k := p.Key.Value
		if exact[k] {
			oc.checkSince(p, spec, props)
			continue
		}
		matched := false
		for _, pre := range prefixes {
			if strings.HasPrefix(k, pre) && len(k) > len(pre) {
				matched = true
				if pre == "fields." {
					oc.checkDatagenField(p, t)
				}
			}
		}
		if matched {
			continue
		}
		hint := didYouMean(k, candidates)
		switch {
		case hint != "":
		case exact["value."+k]:
			hint = "with 'value.format', format options take the 'value.' prefix: 'value." + k + "'"
		case strings.HasPrefix(k, "value.") && exact[strings.TrimPrefix(k, "value.")]:
			hint = "with 'format', format options have no 'value.' prefix: '" + strings.TrimPrefix(k, "value.") + "'"
		default:
			hint = "the " + t.connector + " connector does not take it"
		}
		oc.errorf(CodeUnknownOption, p.Key, hint, "unknown option '%s'", k)
	}
}

// checkSince warns of an option newer than the target release: the
// connector of that release does not know it. A warning, not an error:
// Kafka, JDBC and the others are released apart from Flink, and a newer
// connector may run on an older Flink.
func (oc *optionChecker) checkSince(p *ast.Property, spec *builtin.ConnectorSpec, props ast.Properties) {
	v := oc.cat.opts.Version
	if v.IsZero() {
		return
	}
	if op := builtin.OptionFor(spec, props, p.Key.Value); op != nil && !op.Since.IsZero() && v.Before(op.Since) {
		oc.warnf(CodeNeedsNewerFlink, p.Key, "", "option '%s' needs Flink %s; %s", p.Key.Value, op.Since, oc.cat.opts.target())
	}
}

// datagenFieldOptions are the per-field options of the datagen connector.
var datagenFieldOptions = []string{"kind", "min", "max", "max-past", "length", "var-len", "start", "end", "null-rate"}

// checkDatagenField checks a datagen 'fields.<column>.<option>' key.
func (oc *optionChecker) checkDatagenField(p *ast.Property, t *tableDef) {
	rest := strings.TrimPrefix(p.Key.Value, "fields.")
	i := strings.LastIndexByte(rest, '.')
	if i <= 0 {
		oc.errorf(CodeUnknownOption, p.Key, "write 'fields.<column>.<option>'", "malformed datagen option '%s'", p.Key.Value)
		return
	}
	col, opt := rest[:i], rest[i+1:]
	if !t.unknown && t.column(col) == nil && t.column(strings.SplitN(col, ".", 2)[0]) == nil {
		names := make([]string, len(t.cols))
		for i, c := range t.cols {
			names[i] = c.Name
		}
		oc.errorf(CodeUnknownColumn, p.Key, didYouMean(col, names), "datagen option '%s' names no column of '%s'", p.Key.Value, t.name)
	}
	known := false
	for _, name := range datagenFieldOptions {
		known = known || name == opt
	}
	if !known {
		hint := didYouMean(opt, datagenFieldOptions)
		oc.errorf(CodeUnknownOption, p.Key, hint, "unknown datagen field option '%s'", opt)
		return
	}
	if opt == "kind" && p.Value.Value != "random" && p.Value.Value != "sequence" {
		oc.errorf(CodeBadOptionValue, p.Value, didYouMean(p.Value.Value, []string{"random", "sequence"}),
			"'%s' must be 'random' or 'sequence'", p.Key.Value)
	}
}

// checkValues checks the values of options that take one of a few, and
// the options that need each other.
func (oc *optionChecker) checkValues(props ast.Properties, t *tableDef) {
	spec := builtin.Connectors[t.connector]
	for _, p := range props {
		if p.Value == nil || !p.Value.Pos.IsValid() {
			continue
		}
		op := builtin.OptionFor(spec, props, p.Key.Value)
		if op == nil || len(op.Enum) == 0 || op.Prefix {
			continue
		}
		allowed := op.Enum
		valid := false
		for _, a := range allowed {
			valid = valid || strings.EqualFold(a, p.Value.Value)
		}
		if !valid {
			hint := didYouMean(p.Value.Value, allowed)
			if hint == "" {
				hint = "one of '" + strings.Join(allowed, "', '") + "'"
			}
			oc.errorf(CodeBadOptionValue, p.Value, hint, "invalid value '%s' for '%s'", p.Value.Value, p.Key.Value)
		}
	}
	if t.connector != "kafka" {
		return
	}
	need := func(cond bool, p *ast.Property, key, why string) {
		if cond && p != nil && props.Find(key) == nil {
			oc.errorf(CodeMissingOption, p, "add '"+key+"'", "%s needs '%s'", why, key)
		}
	}
	mode := props.Find("scan.startup.mode")
	modeValue := ""
	if mode != nil {
		modeValue = mode.Value.Value
	}
	need(modeValue == "timestamp", mode, "scan.startup.timestamp-millis", "'scan.startup.mode' = 'timestamp'")
	need(modeValue == "specific-offsets", mode, "scan.startup.specific-offsets", "'scan.startup.mode' = 'specific-offsets'")
	dg := props.Find("sink.delivery-guarantee")
	need(dg != nil && dg.Value.Value == "exactly-once", dg, "sink.transactional-id-prefix", "'sink.delivery-guarantee' = 'exactly-once'")
	if kf := props.Find("key.format"); kf != nil && props.Find("key.fields") == nil {
		oc.errorf(CodeMissingOption, kf, "list the key columns: 'key.fields' = 'col1;col2'",
			"'key.format' needs 'key.fields' on a kafka table")
	}
	if kf := props.Find("key.fields"); kf != nil && !t.unknown {
		prefix, _ := props.Get("key.fields-prefix")
		for _, name := range strings.Split(kf.Value.Value, ";") {
			name = strings.TrimSpace(name)
			if name != "" && t.column(name) == nil {
				oc.errorf(CodeUnknownColumn, kf.Value, "", "'key.fields' names '%s', which is not a column of '%s'", name, t.name)
			} else if prefix != "" && !strings.HasPrefix(name, prefix) {
				oc.errorf(CodeBadOptionValue, kf.Value, "", "key column '%s' does not start with 'key.fields-prefix' '%s'", name, prefix)
			}
		}
	}
	if props.Find("topic") != nil && props.Find("topic-pattern") != nil {
		oc.errorf(CodeBadOptionValue, props.Find("topic-pattern").Key, "keep one of them", "'topic' and 'topic-pattern' cannot both be set")
	}
}

// checkKafkaMetadata checks metadata column keys against the Kafka
// connector's metadata (value.* keys belong to the value format).
func (oc *optionChecker) checkKafkaMetadata(s *ast.CreateTable) {
	for _, c := range s.Columns {
		if !c.Metadata {
			continue
		}
		key, node := c.Name.Name, ast.Node(c.Name)
		if c.MetadataFrom != nil {
			key, node = c.MetadataFrom.Value, c.MetadataFrom
		}
		if strings.HasPrefix(key, "value.") || strings.HasPrefix(key, "key.") {
			continue
		}
		known := false
		for _, k := range builtin.KafkaMetadata {
			known = known || k == key
		}
		if !known {
			oc.errorf(CodeUnknownOption, node, didYouMean(key, builtin.KafkaMetadata), "unknown kafka metadata key '%s'", key)
		}
	}
}

// checkHints checks the options of OPTIONS hints, on top of the table's
// own.
func (oc *optionChecker) checkHints(hints []*ast.Hint, t *tableDef) {
	for _, h := range hints {
		if h.Name.Name != "OPTIONS" {
			continue
		}
		spec := builtin.Connectors[t.connector]
		if spec == nil || !spec.Checked {
			continue
		}
		var own ast.Properties
		for _, kv := range h.KVs {
			k, ok1 := kv.Key.(*ast.StringLit)
			val, ok2 := kv.Value.(*ast.StringLit)
			if ok1 && ok2 {
				own = append(own, &ast.Property{Span: kv.Span, Key: k, Value: val})
			}
		}
		merged := append(append(ast.Properties{}, t.props...), own...)
		oc.checkKeys(merged, spec, t, own)
	}
}
