package cli

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/config"
	"github.com/palink/palink/core"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn/sim"
)

// TestTeamsFromTheCommandLine: the fixed shapes of issue 26 from outside.
// The store's owner makes a team and grants a role; a token's user (an
// automation) is that user on the agent: whoami names their team and role,
// they see the team's jobs, act on them, and the audit log names them. A
// token file others may read is refused, and says so.
func TestTeamsFromTheCommandLine(t *testing.T) {
	dir := t.TempDir()
	tokens := filepath.Join(dir, "tokens")
	writePrivate(t, tokens, "0123456789abcdef-ci ci-bot\n")
	e := newCLIEnv(t, sim.Options{}, func(c *config.Config) { c.Agent.Tokens = tokens })
	e.createJob("team-job")

	e.mustRun("team", "add", "payments", "--owns", "sim")
	e.mustRun("team", "grant", "payments", "ci-bot", "operator")
	var ms []model.Member
	if err := decodeWire([]byte(e.mustRun("team", "members", "payments", "-o", "json")), &ms); err != nil {
		t.Fatal(err)
	}
	if len(ms) != 1 || ms[0].User != "ci-bot" || ms[0].Role != model.Operator || ms[0].GrantedBy != core.CurrentUser() {
		t.Errorf("team members payments: %+v, want ci-bot an operator, granted by %s", ms, core.CurrentUser())
	}
	var me api.Identity
	if err := decodeWire([]byte(e.mustRun("whoami", "-o", "json")), &me); err != nil {
		t.Fatal(err)
	}
	if me.User != core.CurrentUser() || me.Role != model.Admin {
		t.Errorf("whoami of the store's owner: %+v, want %s, admin", me, core.CurrentUser())
	}

	e.startAgent(filepath.Join(filepath.Dir(e.config), "agent.sock"))
	mine := filepath.Join(dir, "ci.token")
	writePrivate(t, mine, "0123456789abcdef-ci\n")
	var bot api.Identity
	if err := decodeWire([]byte(e.mustRun("--token-file", mine, "whoami", "-o", "json")), &bot); err != nil {
		t.Fatal(err)
	}
	if bot.User != "ci-bot" || !slices.Equal(bot.Teams, []api.TeamRole{{Team: "payments", Role: model.Operator}}) {
		t.Errorf("whoami with ci-bot's token: %+v, want ci-bot, operator of payments", bot)
	}
	if names := e.jobNames("--token-file", mine); !slices.Equal(names, []string{"team-job"}) {
		t.Errorf("ci-bot lists %v, want [team-job]", names)
	}
	e.mustRun("--token-file", mine, "job", "submit", "team-job")
	var es []model.AuditEntry
	if err := decodeWire([]byte(e.mustRun("audit", "--user", "ci-bot", "--since", "1h", "-o", "json")), &es); err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(es, func(a model.AuditEntry) bool { return a.User == "ci-bot" && strings.Contains(a.Action, "submit") }) {
		t.Errorf("the audit log does not name ci-bot's submit: %+v", es)
	}

	if err := os.Chmod(mine, 0o640); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := e.run(ctx, "--token-file", mine, "jobs"); err == nil || !strings.Contains(err.Error(), "readable or writable by group or others (mode 0640)") {
		t.Errorf("a token file the group may read: %v, want refused saying why", err)
	}
}

func writePrivate(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}
