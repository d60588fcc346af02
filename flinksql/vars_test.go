package flinksql

import (
	"fmt"
	"strings"
	"testing"
)

// TestVarsOutsideOptions: a secret variable may stand in an option's value
// (a WITH clause, an OPTIONS hint) and nowhere else: each reference
// elsewhere is reported at its line:col in the text as written, whatever
// the values of the others.
func TestVarsOutsideOptions(t *testing.T) {
	secret := []string{"sv", "pw"}
	cases := []struct {
		name, src string
		want      []string // "name@line:col"
	}{
		{"in WITH options only", "CREATE TABLE t (a STRING) WITH ('connector' = 'jdbc', 'password' = '${pw}', 'url' = 'jdbc:x://h/${sv}?p=${pw}');\nINSERT INTO s SELECT a FROM t;", nil},
		{"in an OPTIONS hint", "INSERT INTO s SELECT a FROM t /*+ OPTIONS('password' = '${pw}') */;", nil},
		{"in a catalog's WITH", "CREATE CATALOG c WITH ('type' = 'jdbc', 'password' = '${pw}');", nil},
		{"transformed in a SELECT", "CREATE TABLE t (a STRING) WITH ('connector' = 'datagen');\nINSERT INTO s\nSELECT UPPER(SUBSTRING('${sv}', 1, 6)) FROM t;", []string{"sv@3:25"}},
		{"unquoted in a WHERE", "INSERT INTO s SELECT a FROM t WHERE a = ${pw} AND b = '${sv}';", []string{"pw@1:41", "sv@1:56"}},
		{"in a SET", "SET 'pipeline.name' = 'job-${sv}';", []string{"sv@1:28"}},
		{"an option's key is no value", "CREATE TABLE t (a STRING) WITH ('${sv}' = 'x');", []string{"sv@1:34"}},
		{"a LOOKUP hint is no connector option", "SELECT * FROM o JOIN d /*+ LOOKUP('table'='d', 'retry-predicate'='${sv}') */ FOR SYSTEM_TIME AS OF o.pt ON o.k = d.k;", []string{"sv@1:67"}},
		{"a computed column", "CREATE TABLE t (a STRING, b AS CONCAT(a, '${sv}')) WITH ('connector' = 'datagen', 'password' = '${pw}');", []string{"sv@1:43"}},
		{"a plain variable is none of its business", "CREATE TABLE t (a STRING) WITH ('connector' = '${conn}');\nINSERT INTO s SELECT a FROM t WHERE a = '${plain}' LIMIT ${n};", nil},
		{"after a plain variable outside a string", "INSERT INTO s SELECT a FROM t LIMIT ${n};\nINSERT INTO s SELECT '${sv}' FROM t;", []string{"sv@2:23"}},
		{"in a statement that does not parse", "INSERT INTO s SELECT FROM WHERE '${sv}';", []string{"sv@1:34"}},
		{"the same name twice", "CREATE TABLE t (a STRING) WITH ('password' = '${sv}');\nSELECT '${sv}' FROM t;", []string{"sv@2:9"}},
		{"before a plain variable", "INSERT INTO s SELECT '${sv}' FROM t LIMIT ${n};", []string{"sv@1:23"}},
		{"a plain variable outside a string does not hide an option", "INSERT INTO s SELECT a FROM t /*+ OPTIONS('password' = '${pw}') */ WHERE a > ${n};", nil},
		{"an unquoted hint value is an option's value too", "INSERT INTO s SELECT a FROM t /*+ OPTIONS('password' = ${pw}) */;", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, r := range VarsOutsideOptions(c.src, secret) {
				got = append(got, fmt.Sprintf("%s@%d:%d", r.Name, r.Pos.Line, r.Pos.Col))
				if c.src[r.Pos.Offset:r.End.Offset] != "${"+r.Name+"}" {
					t.Errorf("%s: its span is %q", r.Name, c.src[r.Pos.Offset:r.End.Offset])
				}
			}
			if strings.Join(got, " ") != strings.Join(c.want, " ") {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}

// TestCheckWarnsOfASecretOutsideOptions: a check against a cluster's
// variables warns (does not refuse: a deploy may) where a script uses a
// secret anywhere but in a connector option, at its line:col in the
// script as written.
func TestCheckWarnsOfASecretOutsideOptions(t *testing.T) {
	src := "CREATE TABLE t (a STRING) WITH ('connector' = 'datagen', 'fields.a.length' = '${n}');\n" +
		"CREATE TABLE s (a STRING) WITH ('connector' = 'print', 'print-identifier' = '${pw}');\n" +
		"INSERT INTO s SELECT a FROM t WHERE a <> '${pw}';\n"
	res, _ := CheckWithAssets(src, Options{File: "job.sql"}, Assets{Vars: map[string]string{"n": "12345"}, Secrets: []string{"pw"}})
	var got []string
	for _, d := range res.Diagnostics {
		if d.Severity == SeverityError {
			t.Errorf("an error: %v", d)
		}
		if d.Code == CodeSecretOutsideOptions {
			got = append(got, d.Error())
		}
	}
	want := "job.sql:3:43: warning: secret variable ${pw} stands outside a connector option"
	if len(got) != 1 || !strings.HasPrefix(got[0], want) {
		t.Errorf("got %q, want one %q…", got, want)
	}
}

// TestSecretsOutsideOptionsSaysWhoRefuses: the same finding is a debug
// run's refusal or a deploy's warning.
func TestSecretsOutsideOptionsSaysWhoRefuses(t *testing.T) {
	src := "INSERT INTO s SELECT '${sv}' FROM t;"
	for sev, want := range map[Severity]string{
		SeverityError:   "job.sql:1:23: error: a debug run refuses secret variable ${sv} outside a connector option",
		SeverityWarning: "job.sql:1:23: warning: secret variable ${sv} stands outside a connector option",
	} {
		ds := SecretsOutsideOptions(src, "job.sql", []string{"sv"}, sev)
		if len(ds) != 1 || !strings.HasPrefix(ds[0].Error(), want) || ds[0].Code != CodeSecretOutsideOptions || ds[0].Severity != sev {
			t.Errorf("%s: %v, want %q…", sev, ds, want)
		}
	}
}
