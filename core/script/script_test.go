package script

import (
	"strings"
	"testing"
)

func TestPlanScript(t *testing.T) {
	p, err := Plan("SET 'a' = '1';\nCREATE TABLE t (x INT) WITH ('connector'='datagen');\nINSERT INTO s SELECT x FROM t;")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Sets) != 1 || len(p.DDL) != 1 || p.Job.Line != 3 {
		t.Errorf("plan = %+v", p)
	}
	for src, want := range map[string]string{
		"CREATE TABLE t (x INT);":                          "no INSERT or STATEMENT SET",
		"INSERT INTO a SELECT 1;\nINSERT INTO b SELECT 2;": "line 2: a second job statement (line 1 has the first)",
		"SELECT 1;": "line 1: a query is not a job",
		"INSERT INTO a SELECT 1;\nCREATE VIEW v AS SELECT 1;": "line 2: statements after the job statement",
	} {
		if _, err := Plan(src); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Plan(%q) = %v, want %q", src, err, want)
		}
	}
}

func TestPlanScriptSendsStatementSetsInOneStatement(t *testing.T) {
	p, err := Plan("BEGIN STATEMENT SET;\nINSERT INTO a SELECT 1;\nINSERT INTO b SELECT 2;\nEND;")
	if err != nil {
		t.Fatal(err)
	}
	want := "EXECUTE STATEMENT SET BEGIN\nINSERT INTO a SELECT 1;\nINSERT INTO b SELECT 2;\nEND"
	if p.Job.Text != want {
		t.Errorf("job statement %q, want %q", p.Job.Text, want)
	}
	p, _ = Plan("EXECUTE STATEMENT SET BEGIN INSERT INTO a SELECT 1; END")
	if p.Job.Text != "EXECUTE STATEMENT SET BEGIN INSERT INTO a SELECT 1; END" {
		t.Errorf("execute form changed: %q", p.Job.Text)
	}
}
