package debug

import (
	"strings"

	"github.com/palink/palink/flinksql/ast"
	"github.com/palink/palink/join"
	"github.com/palink/palink/join/debug/value"
)

// tableDef is a CREATE TABLE of the job.
type tableDef struct {
	name     string
	physical []join.Column // as written, for lookup sources
	types    []value.Type  // of physical
	cols     []tableCol    // every column in DDL order
	with     map[string]string
	pk       []string
	wm       *ast.Watermark
	node     *ast.CreateTable
}

// tableCol is a column of a table: physical (phys ≥ 0, its index among the
// physical ones), computed (expr) or metadata.
type tableCol struct {
	name     string
	typ      value.Type
	phys     int
	expr     ast.Expr
	metadata string // the metadata key of a METADATA column
	virtual  bool
}

func (d *runner) createTable(s *ast.CreateTable) error {
	if s.Like != nil || s.As != nil {
		return errorAt(s, "CREATE TABLE %s LIKE/AS is not supported in debug runs: declare its columns", s.Name)
	}
	t := &tableDef{name: s.Name.Last(), with: map[string]string{}, node: s, pk: s.PrimaryKey()}
	for _, c := range s.Columns {
		tc := tableCol{name: c.Name.Name, phys: -1}
		switch {
		case c.Expr != nil:
			tc.expr = c.Expr
		default:
			typ, err := value.FromAST(c.Type)
			if err != nil {
				return errorAt(c, "column %s: %v", c.Name.Name, err)
			}
			tc.typ = typ
			if c.Metadata {
				tc.metadata, tc.virtual = c.Name.Name, c.Virtual
				if c.MetadataFrom != nil {
					tc.metadata = c.MetadataFrom.Value
				}
			} else {
				tc.phys = len(t.physical)
				t.physical = append(t.physical, join.Column{Name: c.Name.Name, Type: c.Type.String()})
				t.types = append(t.types, typ)
			}
		}
		t.cols = append(t.cols, tc)
	}
	for _, p := range s.With {
		t.with[p.Key.Value] = p.Value.Value
	}
	if len(s.Watermarks) > 0 {
		t.wm = s.Watermarks[0]
	}
	d.tables[strings.ToLower(s.Name.Key())] = t
	d.tables[strings.ToLower(s.Name.Last())] = t
	return nil
}

func (d *runner) table(name *ast.QualifiedName) *tableDef {
	if t, ok := d.tables[strings.ToLower(name.Key())]; ok {
		return t
	}
	return d.tables[strings.ToLower(name.Last())]
}

// option is a WITH option of the table, "" when not set.
func (t *tableDef) option(key string) string { return t.with[key] }

// format is the table's value format: 'format' or 'value.format'.
func (t *tableDef) format() string {
	if f := t.with["format"]; f != "" {
		return strings.ToLower(f)
	}
	return strings.ToLower(t.with["value.format"])
}

// connector is the table's connector, in lower case.
func (t *tableDef) connector() string { return strings.ToLower(t.with["connector"]) }

// changelog says whether the table's source gives updates: a CDC format
// or an upsert connector.
func (t *tableDef) changelog() bool {
	switch t.format() {
	case "debezium-json", "canal-json", "maxwell-json", "ogg-json", "debezium-avro-confluent":
		return true
	}
	return t.connector() == "upsert-kafka"
}

// pkIndexes are the primary key's positions among cols (by name).
func pkIndexes(pk []string, cols scope) []int {
	var out []int
	for _, k := range pk {
		for i, c := range cols {
			if strings.EqualFold(c.name, k) {
				out = append(out, i)
			}
		}
	}
	if len(out) != len(pk) {
		return nil
	}
	return out
}
