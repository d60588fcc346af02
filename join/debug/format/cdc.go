package format

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/palink/palink/join/debug/stream"
	"github.com/palink/palink/join/debug/value"
)

// The changelog formats: each message may give several records (an
// update gives the row before and after), which cdcReader hands out one
// at a time.

type cdcKind int

const (
	debezium cdcKind = iota
	canal
	maxwell
)

type cdcReader struct {
	*lines
	t      Table
	kind   cdcKind
	conv   []converter
	ignore bool
	skips
	db, tab *regexp.Regexp // canal-json's and maxwell-json's include filters
	pending []stream.Rec
}

func newCDC(l *lines, t Table, opt func(string) string, kind cdcKind) (*cdcReader, error) {
	r := &cdcReader{lines: l, t: t, kind: kind, ignore: isTrue(opt("ignore-parse-errors"))}
	o := jsonOpts{iso: strings.EqualFold(opt("timestamp-format.standard"), "ISO-8601"), bigFloats: tableHasDecimal(t.Columns)}
	if r.ignore {
		o.nulled = &r.nulled
	}
	for _, c := range t.Columns {
		r.conv = append(r.conv, jsonConverter(c.Type, o))
	}
	for key, re := range map[string]**regexp.Regexp{"database.include": &r.db, "table.include": &r.tab} {
		if p := opt(key); p != "" {
			c, err := regexp.Compile("^(?:" + p + ")$")
			if err != nil {
				return nil, fmt.Errorf("table %s: '%s': %v", t.Name, key, err)
			}
			*re = c
		}
	}
	return r, nil
}

func (r *cdcReader) Next() (stream.Rec, bool, error) {
	for len(r.pending) == 0 {
		text, n, ok, err := r.next()
		if !ok || err != nil {
			return stream.Rec{}, false, err
		}
		recs, err := r.message(text)
		if err != nil {
			if r.ignore {
				r.skips.row(n)
				continue
			}
			return stream.Rec{}, false, lineError(r.name, n, err)
		}
		r.skips.fields(n)
		for i := range recs {
			recs[i].Src = n
		}
		r.pending = recs
	}
	rec := r.pending[0]
	r.pending = r.pending[1:]
	return rec, true, nil
}

func (r *cdcReader) message(text string) ([]stream.Rec, error) {
	if text == "null" {
		return nil, nil // a tombstone
	}
	v, err := decode(text)
	if err != nil {
		return nil, fmt.Errorf("Corrupt %s message '%s': %v", r.t.Format, text, err)
	}
	msg, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("Corrupt %s message '%s'", r.t.Format, text)
	}
	switch r.kind {
	case debezium:
		return r.debezium(msg)
	case canal:
		return r.canal(msg)
	}
	return r.maxwell(msg)
}

func (r *cdcReader) row(v any) (value.Row, error) {
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("the row is not an object: %s", text(v))
	}
	return objectRow(obj, r.t.Columns, r.conv, false)
}

// debezium reads {"before", "after", "op"} (or the same inside "payload").
func (r *cdcReader) debezium(msg map[string]any) ([]stream.Rec, error) {
	if p, ok := msg["payload"].(map[string]any); ok {
		msg = p
	}
	op, _ := msg["op"].(string)
	row := func(k string) (value.Row, error) { return r.row(msg[k]) }
	switch op {
	case "c", "r":
		after, err := row("after")
		return []stream.Rec{{Kind: stream.Insert, Row: after}}, err
	case "u":
		before, err := row("before")
		if err != nil {
			return nil, fmt.Errorf("The \"before\" field of update message is null, if you are using Debezium Postgres Connector, please check the Postgres table has been set REPLICA IDENTITY to FULL level. (%v)", err)
		}
		after, err := row("after")
		return []stream.Rec{{Kind: stream.UpdateBefore, Row: before}, {Kind: stream.UpdateAfter, Row: after}}, err
	case "d":
		before, err := row("before")
		return []stream.Rec{{Kind: stream.Delete, Row: before}}, err
	}
	return nil, fmt.Errorf("Unknown \"op\" value \"%s\". The Debezium JSON message is '%s'", op, text(msg))
}

func (r *cdcReader) included(msg map[string]any) bool {
	if r.db != nil && !r.db.MatchString(text(msg["database"])) {
		return false
	}
	return r.tab == nil || r.tab.MatchString(text(msg["table"]))
}

// canal reads {"data": [rows], "old": [changed fields], "type"}.
func (r *cdcReader) canal(msg map[string]any) ([]stream.Rec, error) {
	if !r.included(msg) {
		return nil, nil
	}
	data, _ := msg["data"].([]any)
	old, _ := msg["old"].([]any)
	var out []stream.Rec
	switch typ, _ := msg["type"].(string); typ {
	case "INSERT":
		for _, d := range data {
			row, err := r.row(d)
			if err != nil {
				return nil, err
			}
			out = append(out, stream.Rec{Kind: stream.Insert, Row: row})
		}
	case "UPDATE":
		for i, d := range data {
			var o any
			if i < len(old) {
				o = old[i]
			}
			recs, err := r.update(d, o)
			if err != nil {
				return nil, err
			}
			out = append(out, recs...)
		}
	case "DELETE":
		for _, d := range data {
			row, err := r.row(d)
			if err != nil {
				return nil, err
			}
			out = append(out, stream.Rec{Kind: stream.Delete, Row: row})
		}
	case "CREATE", "QUERY", "ALTER", "ERASE", "TRUNCATE", "":
		// DDL and other messages carry no rows.
	default:
		return nil, fmt.Errorf("Unknown \"type\" value \"%s\". The Canal JSON message is '%s'", typ, text(msg))
	}
	return out, nil
}

// update is the -U and +U of a row whose old values are the changed
// fields of old over data.
func (r *cdcReader) update(data, old any) ([]stream.Rec, error) {
	after, err := r.row(data)
	if err != nil {
		return nil, err
	}
	beforeObj := map[string]any{}
	if d, ok := data.(map[string]any); ok {
		for k, v := range d {
			beforeObj[k] = v
		}
	}
	if o, ok := old.(map[string]any); ok {
		for k, v := range o {
			beforeObj[k] = v
		}
	}
	before, err := r.row(beforeObj)
	if err != nil {
		return nil, err
	}
	return []stream.Rec{{Kind: stream.UpdateBefore, Row: before}, {Kind: stream.UpdateAfter, Row: after}}, nil
}

// maxwell reads {"data": row, "old": changed fields, "type"}.
func (r *cdcReader) maxwell(msg map[string]any) ([]stream.Rec, error) {
	if !r.included(msg) {
		return nil, nil
	}
	switch typ, _ := msg["type"].(string); typ {
	case "insert":
		row, err := r.row(msg["data"])
		return []stream.Rec{{Kind: stream.Insert, Row: row}}, err
	case "update":
		return r.update(msg["data"], msg["old"])
	case "delete":
		row, err := r.row(msg["data"])
		return []stream.Rec{{Kind: stream.Delete, Row: row}}, err
	case "bootstrap-start", "bootstrap-complete", "table-create", "table-alter":
		return nil, nil
	case "bootstrap-insert":
		row, err := r.row(msg["data"])
		return []stream.Rec{{Kind: stream.Insert, Row: row}}, err
	default:
		return nil, fmt.Errorf("Unknown \"type\" value \"%s\". The Maxwell JSON message is '%s'", typ, text(msg))
	}
}

// upsertReader is upsert-kafka: a line is a record's value (key fields
// included), or {"key": …, "value": …}; a null value deletes the key. It
// gives +U for a value and -D for a deletion; the planner normalizes them
// into a changelog (ChangelogNormalize), as Flink's does.
type upsertReader struct {
	*lines
	t    Table
	conv []converter
	avro *avroReader // the key's and value's records when the format is avro
}

func newUpsert(l *lines, t Table) (*upsertReader, error) {
	if len(t.Key) == 0 {
		return nil, fmt.Errorf("table %s: 'upsert-kafka' tables require to define a PRIMARY KEY constraint", t.Name)
	}
	r := &upsertReader{lines: l, t: t}
	o := jsonOpts{iso: strings.EqualFold(t.Options["value.json.timestamp-format.standard"], "ISO-8601"), bigFloats: tableHasDecimal(t.Columns)}
	for _, c := range t.Columns {
		r.conv = append(r.conv, jsonConverter(c.Type, o))
	}
	return r, nil
}

func (r *upsertReader) Next() (stream.Rec, bool, error) {
	text, n, ok, err := r.next()
	if !ok || err != nil {
		return stream.Rec{}, false, err
	}
	v, err := decode(text)
	if err != nil {
		return stream.Rec{}, false, fmt.Errorf("%s line %d: %v", r.name, n, err)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return stream.Rec{}, false, fmt.Errorf("%s line %d: not an object", r.name, n)
	}
	key, val, isRecord := obj, any(obj), false
	if k, hasKey := obj["key"]; hasKey && len(obj) == 2 {
		if vv, hasVal := obj["value"]; hasVal {
			ko, _ := k.(map[string]any)
			key, val, isRecord = ko, vv, true
		}
	}
	_ = isRecord
	if val == nil && r.avro != nil {
		row, err := r.avro.record(key, r.t.Key)
		if err != nil {
			return stream.Rec{}, false, lineError(r.name, n, err)
		}
		return stream.Rec{Kind: stream.Delete, Row: row, Src: n}, true, nil
	}
	if val == nil {
		row := make(value.Row, len(r.t.Columns))
		for _, i := range r.t.Key {
			c := r.t.Columns[i]
			if kv, ok := key[c.Name]; ok {
				if row[i], err = r.conv[i](kv); err != nil {
					return stream.Rec{}, false, fmt.Errorf("%s line %d, key %s: %w", r.name, n, c.Name, err)
				}
			}
		}
		return stream.Rec{Kind: stream.Delete, Row: row, Src: n}, true, nil
	}
	vo, ok := val.(map[string]any)
	if !ok {
		return stream.Rec{}, false, fmt.Errorf("%s line %d: the value is not an object", r.name, n)
	}
	merged := map[string]any{}
	for k, x := range key {
		merged[k] = x
	}
	for k, x := range vo {
		merged[k] = x
	}
	var row value.Row
	if r.avro != nil {
		row, err = r.avro.record(merged, nil)
	} else {
		row, err = objectRow(merged, r.t.Columns, r.conv, false)
	}
	if err != nil && r.avro != nil {
		return stream.Rec{}, false, lineError(r.name, n, err)
	}
	if err != nil {
		return stream.Rec{}, false, fmt.Errorf("%s line %d: %w", r.name, n, err)
	}
	return stream.Rec{Kind: stream.UpdateAfter, Row: row, Src: n}, true, nil
}
