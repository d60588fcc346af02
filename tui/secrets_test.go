package tui

import (
	"os"
	"path/filepath"
	"slices"
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

	command := func(line string, keys ...string) func(h *harness) {
		return func(h *harness) { h.Press(":"); h.Type(line); h.Press(append([]string{"enter"}, keys...)...) }
	}
	// verb is the `:` command a view opens, if any: every screen the
	// command line opens is visited.
	views := []struct {
		name, verb string
		open       func(h *harness)
	}{
		{"jobs", "jobs", func(h *harness) {}},
		{"detail tabs", "", func(h *harness) { h.OpenDetail("orders-enrich") }},
		{"raw", "", func(h *harness) { h.SelectJob("orders-enrich"); h.Press("y") }},
		{"commands", "cmd", command("cmd")},
		{"command log", "", command("cmd", "enter")},
		{"editor", "sql", command("sql orders-enrich")},
		{"tables", "tables", command("tables")},
		{"table", "", command("tables", "j", "enter")},
		{"cluster", "cluster", command("cluster prod")},
		{"alerts", "alerts", command("alerts")},
		{"projects", "projects", command("projects")},
		{"udfs", "udfs", command("udfs")},
		{"vars", "vars", command("vars")},
		{"vars, each in depth", "", command("vars", "j", "j", "j")},
	}
	for _, verb := range commandVerbs {
		if verb == "theme" || verb == "help" || verb == "q" {
			continue // no data of a job
		}
		if !slices.ContainsFunc(views, func(v struct {
			name, verb string
			open       func(h *harness)
		}) bool {
			return v.verb == verb
		}) {
			t.Errorf(":%s opens a screen this test does not look at", verb)
		}
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
