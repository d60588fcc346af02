package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/internal/tuitest"
)

// TestPlantedSecretInNoView: secret variables whose values can be read in
// this process (an environment variable, a file, a command) and a job,
// catalog tables and a Flink config that use them: no screen of the TUI
// shows a value, since the TUI never resolves a secret (core does, at a
// deploy or a debug run, and masks what it reports).
func TestPlantedSecretInNoView(t *testing.T) {
	const env, file, cmd = "pl4nted-env-6d1", "pl4nted-file-0c9", "pl4nted-cmd-77e"
	t.Setenv("PALINK_TEST_PLANTED", env)
	secretFile := filepath.Join(t.TempDir(), "pw")
	if err := os.WriteFile(secretFile, []byte(file+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f := tuitest.WithLogs(tuitest.NewFixture())
	f.SetTables("prod", tuitest.FixtureTables())
	f.Variables = []model.Variable{
		{Name: "kafka", SecretEnv: "PALINK_TEST_PLANTED"},
		{Cluster: "prod", Name: "users_password", SecretFile: secretFile},
		{Name: "token", SecretCmd: "printf %s " + cmd},
	}
	f.Versions = map[string][]model.Spec{"j001": {{JobID: "j001", Version: 7, Author: "ops", CreatedAt: tuitest.Now,
		SQL: "SET 'pipeline.name' = 'orders-${token}';\nCREATE TABLE enriched_out (order_id BIGINT, name STRING) WITH ('connector' = 'print');\n" +
			"INSERT INTO enriched_out SELECT o.order_id, u.name FROM orders AS o\nLEFT JOIN users FOR SYSTEM_TIME AS OF o.proc_time AS u ON o.user_id = u.id;"}}}
	f.Jobs[0].Config = map[string]string{"env.java.opts": "-Dtoken=${token}"}

	views := []struct {
		name string
		open func(h *harness)
	}{
		{"jobs", func(h *harness) {}},
		{"detail tabs", func(h *harness) { h.OpenDetail("orders-enrich") }},
		{"raw", func(h *harness) { h.SelectJob("orders-enrich"); h.Press("y") }},
		{"commands", func(h *harness) { h.Press(":"); h.Type("cmd"); h.Press("enter") }},
		{"command log", func(h *harness) { h.Press(":"); h.Type("cmd"); h.Press("enter", "enter") }},
		{"editor", func(h *harness) { h.SelectJob("orders-enrich"); h.Press("e") }},
		{"tables", func(h *harness) { h.Press(":"); h.Type("tables"); h.Press("enter") }},
		{"table", func(h *harness) { h.Press(":"); h.Type("tables"); h.Press("enter", "j", "enter") }},
	}
	seen := 0
	for _, v := range views {
		h := newHarness(t, f, 160, 50, Options{Context: "test"})
		v.open(h)
		check := func(what string) {
			frame := ansi.Strip(h.Render())
			for _, s := range []string{env, file, cmd} {
				if strings.Contains(frame, s) {
					t.Errorf("%s shows the planted secret %q:\n%s", what, s, frame)
				}
			}
			if strings.Contains(frame, "${users_password}") || strings.Contains(frame, "${token}") {
				seen++
			}
		}
		check(v.name)
		if v.name == "detail tabs" {
			for range 7 {
				h.Press("tab")
				check(v.name + " · " + h.m.top().Title())
			}
		}
	}
	// The references themselves are on screen: the test looked where the
	// values would have been.
	if seen < 2 {
		t.Errorf("only %d views showed a ${name} reference", seen)
	}
}
