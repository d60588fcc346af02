package core_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// TestDebugRunMasksSecretsInRows: a script that selects a secret gets its
// value (the run is real), but the rows the run reports and prints show
// it masked.
func TestDebugRunMasksSecretsInRows(t *testing.T) {
	const secret = "pl4nted-debug-secret-31"
	t.Setenv("PALINK_TEST_DEBUG_SECRET", secret)
	sql := "CREATE TABLE src (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '2');\n" +
		"CREATE TABLE snk (id BIGINT, pw STRING) WITH ('connector' = 'print');\n" +
		"INSERT INTO snk SELECT id, '${pw}' FROM src;\n"
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ch, err := (&core.Debugger{}).Debug(ctx, api.DebugRequest{SQL: sql, Vars: []model.Variable{{Name: "pw", SecretEnv: "PALINK_TEST_DEBUG_SECRET"}}})
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
	if strings.Contains(shown.String(), secret) || strings.Count(shown.String(), model.Masked) < 4 {
		t.Errorf("the run showed the secret, or not masked:\n%s", shown.String())
	}
}

// TestDebugOutFilesMaskSecrets: the files --out writes (an updating sink's
// changelog and its final table) hold no secret, as it is or JSON-escaped.
func TestDebugOutFilesMaskSecrets(t *testing.T) {
	const secret = `pl4nted<out>&secret-"47"`
	t.Setenv("PALINK_TEST_DEBUG_SECRET", secret)
	sql := "CREATE TABLE src (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '3');\n" +
		"CREATE TABLE snk (pw STRING, n BIGINT) WITH ('connector' = 'print');\n" +
		"INSERT INTO snk SELECT pw, COUNT(*) FROM (SELECT '${pw}' AS pw FROM src) GROUP BY pw;\n"
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ch, err := (&core.Debugger{}).Debug(ctx, api.DebugRequest{SQL: sql, Out: filepath.Join(dir, "out.jsonl"),
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
