package core

import (
	"strings"
	"testing"
)

func TestSplitScript(t *testing.T) {
	src := "SET 'pipeline.name' = 'a;b';\n" +
		"-- a comment; with a semicolon\n" +
		"CREATE TABLE `t;1` (x INT) WITH ('connector' = 'datagen');\n" +
		"BEGIN STATEMENT SET;\n" +
		"INSERT INTO s1 SELECT * FROM `t;1`;\n" +
		"INSERT INTO s2 SELECT * FROM `t;1`;\n" +
		"END;\n" +
		"EXECUTE STATEMENT SET BEGIN INSERT INTO s1 SELECT 1; INSERT INTO s2 SELECT 2; END\n"
	got, err := splitScript(src)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		line   int
		prefix string
	}{
		{1, "SET 'pipeline.name' = 'a;b'"},
		{3, "CREATE TABLE `t;1`"},
		{4, "BEGIN STATEMENT SET;\nINSERT INTO s1"},
		{8, "EXECUTE STATEMENT SET BEGIN"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d statements: %+v", len(got), got)
	}
	for i, w := range want {
		if got[i].Line != w.line || !strings.HasPrefix(got[i].Text, w.prefix) {
			t.Errorf("statement %d = line %d %q, want line %d %q…", i, got[i].Line, got[i].Text, w.line, w.prefix)
		}
	}
	if !strings.HasSuffix(got[2].Text, "END") || !strings.HasSuffix(got[3].Text, "END") {
		t.Errorf("statement sets not whole: %q / %q", got[2].Text, got[3].Text)
	}
	if _, err := splitScript("BEGIN STATEMENT SET; INSERT INTO a SELECT 1;"); err == nil {
		t.Error("unterminated statement set accepted")
	}
}

func TestPlanScript(t *testing.T) {
	p, err := planScript("SET 'a' = '1';\nCREATE TABLE t (x INT) WITH ('connector'='datagen');\nINSERT INTO s SELECT x FROM t;")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.sets) != 1 || len(p.ddl) != 1 || p.job.line != 3 {
		t.Errorf("plan = %+v", p)
	}
	for src, want := range map[string]string{
		"CREATE TABLE t (x INT);":                          "no INSERT or STATEMENT SET",
		"INSERT INTO a SELECT 1;\nINSERT INTO b SELECT 2;": "line 2: a second job statement (line 1 has the first)",
		"SELECT 1;": "line 1: a query is not a job",
		"INSERT INTO a SELECT 1;\nCREATE VIEW v AS SELECT 1;": "line 2: statements after the job statement",
	} {
		if _, err := planScript(src); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("planScript(%q) = %v, want %q", src, err, want)
		}
	}
}
