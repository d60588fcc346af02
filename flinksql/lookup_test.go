package flinksql

import (
	"testing"

	"github.com/palink/palink/flinksql/ast"

	"github.com/palink/palink/flinksql/format"
)

func TestLookupJoins(t *testing.T) {
	src := `INSERT INTO enriched
SELECT o.order_id, u.name, r.rate
FROM orders AS o
LEFT JOIN users FOR SYSTEM_TIME AS OF o.proc_time AS u ON o.user_id = u.id AND u.region = UPPER(o.region) AND u.active
JOIN rates FOR SYSTEM_TIME AS OF o.proc_time ON rates.currency = o.currency
JOIN plain AS p ON p.k = o.k`
	st := mustParse(t, src)
	ljs := LookupJoins(st)
	if len(ljs) != 2 {
		t.Fatalf("%d lookup joins, want 2", len(ljs))
	}
	u := ljs[0]
	if u.Alias != "u" || u.Table.Name.Key() != "users" || u.Join.Kind != ast.JoinLeft {
		t.Errorf("first join: alias %q table %q kind %v", u.Alias, u.Table.Name.Key(), u.Join.Kind)
	}
	if len(u.Keys) != 2 || u.Keys[0].Column != "id" || format.Expr(u.Keys[0].Probe) != "o.user_id" ||
		u.Keys[1].Column != "region" || format.Expr(u.Keys[1].Probe) != "UPPER(o.region)" {
		t.Errorf("keys = %+v", u.Keys)
	}
	if len(u.Residual) != 1 || format.Expr(u.Residual[0]) != "u.active" {
		t.Errorf("residual = %v", u.Residual)
	}
	r := ljs[1]
	if r.Alias != "rates" || len(r.Keys) != 1 || r.Keys[0].Column != "currency" || format.Expr(r.Keys[0].Probe) != "o.currency" {
		t.Errorf("second join = %+v keys %+v", r, r.Keys)
	}
}

func TestScriptTableAndView(t *testing.T) {
	s, errs := ParseScript("CREATE TABLE t (a INT) WITH ('connector'='print');\nCREATE VIEW v AS SELECT 1;\nDROP TABLE t;\nCREATE TABLE t (b INT) WITH ('connector'='print');")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if tb := s.Table("t"); tb == nil || tb.Columns[0].Name.Name != "b" {
		t.Errorf("Table(t) = %v, want the last definition", tb)
	}
	if s.View("v") == nil || s.Table("v") != nil || s.Table("nope") != nil {
		t.Error("View/Table lookups wrong")
	}
}
