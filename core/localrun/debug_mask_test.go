package localrun_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/localrun"
	"github.com/palink/palink/model"
)

// TestDebugRunMasksSecretsInRows: a secret stands in a connector option
// (the only place a debug run takes it), and the data the run reads holds
// the same string: the run is real, but the rows it reports and prints
// show it masked, as it is and as JSON writes it (a secret with < > & "
// is escaped there).
func TestDebugRunMasksSecretsInRows(t *testing.T) {
	const secret = `pl4nted<debug>&"secret"-31`
	t.Setenv("PALINK_TEST_DEBUG_SECRET", secret)
	data := filepath.Join(t.TempDir(), "src.jsonl")
	row := func(id int, pw string) string {
		b, _ := json.Marshal(map[string]any{"id": id, "pw": pw})
		return string(b) + "\n"
	}
	if err := os.WriteFile(data, []byte(row(1, secret)+row(2, "was "+secret)), 0o600); err != nil {
		t.Fatal(err)
	}
	sql := "CREATE TABLE src (id BIGINT, pw STRING) WITH ('connector' = 'kafka', 'topic' = 'src', 'format' = 'json',\n" +
		"  'properties.sasl.jaas.config' = 'org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" password=\"${pw}\";');\n" +
		"CREATE TABLE snk (id BIGINT, pw STRING) WITH ('connector' = 'print');\n" +
		"INSERT INTO snk SELECT id, pw FROM src;\n"
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ch, err := (&localrun.Debugger{}).Debug(ctx, api.DebugRequest{SQL: sql, Data: map[string]string{"src": data},
		Vars: []model.Variable{{Name: "pw", SecretEnv: "PALINK_TEST_DEBUG_SECRET"}}})
	if err != nil {
		t.Fatal(err)
	}
	var shown strings.Builder
	var fin api.DebugEvent
	rows := 0
	for ev := range ch {
		if ev.Row != nil {
			rows++
			shown.WriteString(strings.Join(ev.Row.Values, " ") + "\n")
		}
		if ev.Kind == api.DebugFinished {
			fin = ev
		}
	}
	if fin.Err != nil || rows != 2 {
		t.Fatalf("run: %v, %d rows", fin.Err, rows)
	}
	var out bytes.Buffer
	if err := fin.Output.WriteText(&out); err != nil {
		t.Fatal(err)
	}
	if err := fin.Output.WriteJSON(&out); err != nil {
		t.Fatal(err)
	}
	shown.WriteString(out.String())
	escaped, _ := json.Marshal(secret)
	if strings.Contains(shown.String(), secret) || strings.Contains(shown.String(), string(escaped[1:len(escaped)-1])) ||
		strings.Contains(shown.String(), `pl4nted<debug>&\"secret\"`) || strings.Count(shown.String(), model.Masked) < 6 {
		t.Errorf("the run showed the secret, or not masked:\n%s", shown.String())
	}
}

// TestDebugOutFilesMaskSecrets: the files --out writes (an updating sink's
// changelog and its final table) hold no secret, as it is or JSON-escaped,
// when the data holds the string of a secret the script's options use.
func TestDebugOutFilesMaskSecrets(t *testing.T) {
	const secret = `pl4nted<out>&secret-"47"`
	t.Setenv("PALINK_TEST_DEBUG_SECRET", secret)
	escapedSecret, _ := json.Marshal(secret)
	data := filepath.Join(t.TempDir(), "src.jsonl")
	line := `{"pw": ` + string(escapedSecret) + "}\n"
	if err := os.WriteFile(data, []byte(line+line+line), 0o600); err != nil {
		t.Fatal(err)
	}
	sql := "CREATE TABLE src (pw STRING) WITH ('connector' = 'kafka', 'topic' = 'src', 'format' = 'json', 'properties.ssl.key.password' = '${pw}');\n" +
		"CREATE TABLE snk (pw STRING, n BIGINT) WITH ('connector' = 'print');\n" +
		"INSERT INTO snk SELECT pw, COUNT(*) FROM src GROUP BY pw;\n"
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ch, err := (&localrun.Debugger{}).Debug(ctx, api.DebugRequest{SQL: sql, Out: filepath.Join(dir, "out.jsonl"), Data: map[string]string{"src": data},
		Vars: []model.Variable{{Name: "pw", SecretEnv: "PALINK_TEST_DEBUG_SECRET"}}})
	if err != nil {
		t.Fatal(err)
	}
	for ev := range ch {
		if ev.Kind == api.DebugFinished && ev.Err != nil {
			t.Fatal(ev.Err)
		}
	}
	escaped, _ := json.Marshal(secret)
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(files) != 2 {
		t.Fatalf("want the changelog and the final table, got %v", files)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), secret) || strings.Contains(string(b), string(escaped[1:len(escaped)-1])) || !strings.Contains(string(b), model.Masked) {
			t.Errorf("%s shows the secret, or does not mask it:\n%s", filepath.Base(f), b)
		}
	}
}

// TestDebugRefusesASecretOutsideOptions: masking cannot hold once a query
// transforms a value (UPPER(SUBSTRING('${sv}', 1, 6)) wrote the secret
// out, upper-cased), so a debug run refuses a secret variable anywhere but
// in a connector option — at its file:line:col in the script as written,
// or in the catalog table that uses it — before any secret is read, and
// runs nothing.
func TestDebugRefusesASecretOutsideOptions(t *testing.T) {
	const secret = "pl4nted-transformed-52"
	t.Setenv("PALINK_TEST_DEBUG_SECRET", secret)
	vars := []model.Variable{{Name: "sv", SecretEnv: "PALINK_TEST_DEBUG_SECRET"}, {Name: "n", Value: "2"},
		{Name: "unread", SecretEnv: "PALINK_TEST_DEBUG_SECRET_NEVER_SET"}}
	const head = "CREATE TABLE src (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '${n}');\n" +
		"CREATE TABLE snk (id BIGINT, pw STRING) WITH ('connector' = 'print');\n"
	cases := []struct {
		name    string
		sql     string
		catalog []model.CatalogTable
		want    string
	}{
		{"transformed in a SELECT", head + "INSERT INTO snk SELECT id, UPPER(SUBSTRING('${sv}', 1, 6)) FROM src;\n",
			nil, "orders.sql:3:45: error: a debug run refuses secret variable ${sv} outside a connector option"},
		{"compared in a WHERE", head + "INSERT INTO snk SELECT id, 'x' FROM src\nWHERE CAST(id AS STRING) <> '${unread}';\n",
			nil, "orders.sql:4:30: error: a debug run refuses secret variable ${unread} outside a connector option"},
		{"in a SET", "SET 'pipeline.name' = 'orders-${sv}';\n" + head + "INSERT INTO snk SELECT id, 'x' FROM src;\n",
			nil, "orders.sql:1:31: error: a debug run refuses secret variable ${sv}"},
		{"in a catalog table's computed column", head + "INSERT INTO snk SELECT id, tag FROM users;\n",
			[]model.CatalogTable{{Name: "users", Version: 2, SQL: "CREATE TABLE users (id BIGINT, tag AS CONCAT('t-', '${sv}')) WITH ('connector' = 'datagen', 'number-of-rows' = '1')"}},
			"catalog table users@v2:1:53: error: a debug run refuses secret variable ${sv}"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			ch, err := (&localrun.Debugger{}).Debug(ctx, api.DebugRequest{SQL: c.sql, File: "orders.sql", Vars: vars, Catalog: c.catalog})
			if err != nil {
				t.Fatal(err)
			}
			var fin api.DebugEvent
			rows := 0
			for ev := range ch {
				if ev.Row != nil {
					rows++
				}
				if ev.Kind == api.DebugFinished {
					fin = ev
				}
			}
			if fin.Err == nil || !strings.HasPrefix(fin.Err.Error(), c.want) || rows != 0 {
				t.Fatalf("got %v (%d rows), want %q…", fin.Err, rows, c.want)
			}
			if strings.Contains(fin.Err.Error(), secret) || strings.Contains(strings.ToUpper(fin.Err.Error()), strings.ToUpper(secret[:6])) {
				t.Errorf("the refusal shows the secret: %v", fin.Err)
			}
		})
	}
}
