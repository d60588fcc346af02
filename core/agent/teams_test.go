package agent_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/palink/palink/core"
	"github.com/palink/palink/core/agent"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/internal/coretest"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn/sim"
)

// serveAgentWith serves e's service as an agent would, with o.
func serveAgentWith(t *testing.T, e *coretest.Env, o agent.ServeOptions, token string) (*agent.Client, error) {
	t.Helper()
	sock := filepath.Join(t.TempDir(), "a.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(e.Ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		o.Store = e.St.Path()
		_ = agent.Serve(ctx, ln, e.Svc, o)
	}()
	t.Cleanup(func() { cancel(); <-done })
	r, err := agent.Dial(e.Ctx, agent.AgentSocket{Path: sock, Configured: true, Token: token})
	if err == nil {
		t.Cleanup(func() { r.Close() })
	}
	return r, err
}

// newTeams makes two teams of the simulator's queues, each with a job:
// team-a owns queue prod (job a-job), team-b queue dev (job b-job).
func newTeams(t *testing.T) *coretest.Env {
	e := coretest.New(t, sim.Options{}, nil)
	for _, j := range []struct{ name, queue string }{{"a-job", "prod"}, {"b-job", "dev"}} {
		if _, err := e.Svc.CreateJob(e.Ctx, api.CreateJobRequest{Name: j.name, Cluster: "sim", Kind: model.KindSQL,
			Spec: model.Spec{SQL: coretest.SQL}, Config: map[string]string{model.QueueProperty: j.queue}}); err != nil {
			t.Fatal(err)
		}
	}
	for team, queue := range map[string]string{"team-a": "prod", "team-b": "dev"} {
		if _, err := e.Svc.AddTeam(e.Ctx, api.TeamRequest{Name: team, Owns: []model.Holding{{Cluster: "sim", Queue: queue}}}); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

func grant(t *testing.T, e *coretest.Env, team, user string, role model.Role) {
	t.Helper()
	if _, err := e.Svc.Grant(e.Ctx, api.GrantRequest{Team: team, User: user, Role: role}); err != nil {
		t.Fatal(err)
	}
}

func jobNames(js []api.JobView) []string {
	var out []string
	for _, j := range js {
		out = append(out, j.Name)
	}
	slices.Sort(out)
	return out
}

// TestOperatorOfATeamNeitherSeesNorActsOnAnothers: an operator of team-a
// sees team-a's jobs only and acts on them; team-b's job is not there for
// them (not found, as one that does not exist), through the agent and in
// process alike, and nothing of theirs on it is recorded.
func TestOperatorOfATeamNeitherSeesNorActsOnAnothers(t *testing.T) {
	e := newTeams(t)
	me := core.CurrentUser()
	grant(t, e, "team-a", me, model.Operator)
	grant(t, e, "team-b", "somebody-else", model.Operator)
	viaAgent, err := serveAgentWith(t, e, agent.ServeOptions{Roles: agent.Roles{Self: "not-" + me}, Tenancy: e.Svc.Tenancy()}, "")
	if err != nil {
		t.Fatal(err)
	}
	inProcess := api.Guard(e.Svc, api.Caller{User: me, Where: " in process", Tenancy: e.Svc.Tenancy()})
	for name, s := range map[string]api.Service{"agent": viaAgent, "in process": inProcess} {
		t.Run(name, func(t *testing.T) {
			js, err := s.ListJobs(e.Ctx, api.JobFilter{})
			if err != nil {
				t.Fatal(err)
			}
			if got := jobNames(js); !slices.Equal(got, []string{"a-job"}) {
				t.Errorf("an operator of team-a lists %v, want [a-job]", got)
			}
			if _, err := s.Job(e.Ctx, "b-job"); !errors.Is(err, model.ErrNotFound) {
				t.Errorf("team-b's job opened by team-a's operator: %v, want not found", err)
			}
			if _, err := s.Act(e.Ctx, api.ActionRequest{JobRef: "b-job", Kind: model.CmdSubmit}); !errors.Is(err, model.ErrNotFound) {
				t.Errorf("team-a's operator submitted team-b's job: %v, want not found", err)
			}
			if _, err := s.SaveSpec(e.Ctx, "b-job", model.Spec{SQL: coretest.SQL + "\n-- theirs"}); !errors.Is(err, model.ErrNotFound) {
				t.Errorf("team-a's operator edited team-b's job: %v, want not found", err)
			}
			p, err := s.Plan(e.Ctx, api.ActionRequest{JobRef: "a-job", Kind: model.CmdSubmit})
			if err != nil || !p.Allowed {
				t.Errorf("team-a's operator may not submit team-a's job: %+v %v", p, err)
			}
			cs, err := s.Commands(e.Ctx, api.CommandFilter{})
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range cs {
				if c.JobID == e.Job("b-job").ID {
					t.Errorf("team-a's operator sees team-b's command %s", c.ID)
				}
			}
			// A page at a time, a job or a command a page: what the
			// caller may not see leaves pages empty, not the list cut.
			var paged []api.JobView
			for p := (api.Page{Size: 1}); ; {
				pg, err := s.ListJobsPage(e.Ctx, api.JobFilter{}, p)
				if err != nil {
					t.Fatal(err)
				}
				paged = append(paged, pg.Jobs...)
				if p.Cursor = pg.Next; p.Cursor == "" {
					break
				}
			}
			if got := jobNames(paged); !slices.Equal(got, []string{"a-job"}) {
				t.Errorf("an operator of team-a lists %v a page at a time, want [a-job]", got)
			}
			for p := (api.Page{Size: 1}); ; {
				pg, err := s.CommandsPage(e.Ctx, api.CommandFilter{}, p)
				if err != nil {
					t.Fatal(err)
				}
				for _, c := range pg.Commands {
					if c.JobID == e.Job("b-job").ID {
						t.Errorf("team-a's operator sees team-b's command %s a page at a time", c.ID)
					}
				}
				if p.Cursor = pg.Next; p.Cursor == "" {
					break
				}
			}
			id, err := s.WhoAmI(e.Ctx)
			if err != nil || id.User != me || !slices.Equal(id.Teams, []api.TeamRole{{Team: "team-a", Role: model.Operator}}) {
				t.Errorf("whoami: %+v %v, want %s operator of team-a", id, err, me)
			}
		})
	}
	// team-a's operator acts on a-job: through the agent and in process,
	// recorded as theirs.
	c, err := viaAgent.Act(e.Ctx, api.ActionRequest{JobRef: "a-job", Kind: model.CmdSubmit})
	if err != nil {
		t.Fatalf("team-a's operator submits a-job: %v", err)
	}
	if c.Issuer != me {
		t.Errorf("the submit's issuer is %q, want %q", c.Issuer, me)
	}
	if sp, err := inProcess.SaveSpec(e.Ctx, "a-job", model.Spec{SQL: coretest.SQL + "\n-- ours"}); err != nil || sp.Author != me {
		t.Errorf("team-a's operator edits a-job in process: author %q, %v", sp.Author, err)
	}
	es, err := e.Svc.Audit(e.Ctx, api.AuditFilter{User: me})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range es {
		if a.JobID == e.Job("b-job").ID {
			t.Errorf("team-a's operator's refused attempts on b-job left a trace on it: %+v", a)
		}
	}
}

// TestRolesPerTeam: a viewer of team-a sees a-job but may not act on it,
// and is told why; an admin of team-b is no admin of team-a's.
func TestRolesPerTeam(t *testing.T) {
	e := newTeams(t)
	grant(t, e, "team-a", "vera", model.Viewer)
	grant(t, e, "team-b", "vera", model.Admin)
	s := api.Guard(e.Svc, api.Caller{User: "vera", Tenancy: e.Svc.Tenancy()})
	js, err := s.ListJobs(e.Ctx, api.JobFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if got := jobNames(js); !slices.Equal(got, []string{"a-job", "b-job"}) {
		t.Errorf("vera lists %v, want both teams' jobs", got)
	}
	_, err = s.Act(e.Ctx, api.ActionRequest{JobRef: "a-job", Kind: model.CmdSubmit})
	if !refusedForRole(err) || !strings.Contains(fmt.Sprint(err), "user vera is a viewer in team team-a; it needs an operator in team team-a") {
		t.Errorf("a viewer of team-a submits a-job: %v, want refused naming the role and team", err)
	}
	if _, err := s.Act(e.Ctx, api.ActionRequest{JobRef: "b-job", Kind: model.CmdSubmit}); err != nil {
		t.Errorf("an admin of team-b may not submit b-job: %v", err)
	}
	if _, err := s.Grant(e.Ctx, api.GrantRequest{Team: "team-a", User: "mallory", Role: model.Admin}); !refusedForRole(err) {
		t.Errorf("team-b's admin grants a role in team-a: %v, want refused", err)
	}
	if _, err := s.Grant(e.Ctx, api.GrantRequest{Team: "team-b", User: "bob", Role: model.Operator}); err != nil {
		t.Errorf("team-b's admin may not grant in team-b: %v", err)
	}
	if _, err := s.AddTeam(e.Ctx, api.TeamRequest{Name: "team-c"}); !errors.Is(err, model.ErrForbidden) {
		t.Errorf("a team's admin creates a team: %v, want refused (palink's own admins)", err)
	}
}

// TestUserInNoTeamSeesNothingAndIsToldWhy: once palink has teams, a user
// in none lists nothing, and the refusal and whoami say why and what to do.
func TestUserInNoTeamSeesNothingAndIsToldWhy(t *testing.T) {
	e := newTeams(t)
	cl, err := serveAgentWith(t, e, agent.ServeOptions{Roles: agent.Roles{Self: "not-" + core.CurrentUser()}, Tenancy: e.Svc.Tenancy()}, "")
	if err != nil {
		t.Fatal(err)
	}
	js, err := cl.ListJobs(e.Ctx, api.JobFilter{})
	if !errors.Is(err, model.ErrForbidden) || !strings.Contains(fmt.Sprint(err), "is in no team") || len(js) != 0 {
		t.Errorf("a user in no team lists %v, %v; want nothing and why", jobNames(js), err)
	}
	id, err := cl.WhoAmI(e.Ctx)
	if err != nil || len(id.Teams) != 0 || !strings.Contains(id.Why, "palink team grant") || !id.ReadOnly {
		t.Errorf("whoami of a user in no team: %+v %v", id, err)
	}
	if cl.Info().Role != model.NoRole || !cl.ReadOnly() {
		t.Errorf("the agent gives a user in no team role %s, read-only %v", cl.Info().Role, cl.ReadOnly())
	}
}

// TestTokenIsItsUser: a client that presents a token of the agent's token
// file is the token's user, whoever runs it; an unknown token is refused
// before any call; a token file others may read is refused, and says so.
func TestTokenIsItsUser(t *testing.T) {
	e := newTeams(t)
	grant(t, e, "team-a", "ci-bot", model.Operator)
	dir := t.TempDir()
	tokens := filepath.Join(dir, "tokens")
	writeFile(t, tokens, "# automation\n0123456789abcdef-ci ci-bot\n", 0o600)
	ts, err := agent.LoadTokens(tokens)
	if err != nil {
		t.Fatal(err)
	}
	mine := filepath.Join(dir, "ci.token")
	writeFile(t, mine, "0123456789abcdef-ci\n", 0o600)
	tok, err := agent.ReadToken(mine)
	if err != nil {
		t.Fatal(err)
	}
	o := agent.ServeOptions{Roles: agent.Roles{Self: "not-" + core.CurrentUser()}, Tenancy: e.Svc.Tenancy(), Tokens: ts}
	cl, err := serveAgentWith(t, e, o, tok)
	if err != nil {
		t.Fatal(err)
	}
	if cl.Info().User != "ci-bot" || cl.Info().Role != model.Operator {
		t.Errorf("the token's session is %+v, want ci-bot, an operator", cl.Info())
	}
	js, err := cl.ListJobs(e.Ctx, api.JobFilter{})
	if err != nil || !slices.Equal(jobNames(js), []string{"a-job"}) {
		t.Errorf("ci-bot lists %v, %v; want [a-job]", jobNames(js), err)
	}
	c, err := cl.Act(e.Ctx, api.ActionRequest{JobRef: "a-job", Kind: model.CmdSubmit})
	if err != nil || c.Issuer != "ci-bot" {
		t.Errorf("ci-bot submits a-job: issuer %q, %v", c.Issuer, err)
	}

	if _, err := serveAgentWith(t, e, o, "0123456789abcdef-guessed"); !errors.Is(err, model.ErrForbidden) {
		t.Errorf("an unknown token: %v, want refused", err)
	}

	for _, path := range []string{tokens, mine} {
		if err := os.Chmod(path, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := agent.ReadToken(mine); err == nil || !strings.Contains(err.Error(), "readable or writable by group or others (mode 0644)") {
		t.Errorf("a client's token file readable by others: %v, want refused saying why", err)
	}
	if _, err := agent.LoadTokens(tokens); err == nil || !strings.Contains(err.Error(), "readable or writable by group or others") {
		t.Errorf("an agent's token file readable by others: %v, want refused saying why", err)
	}
}

func writeFile(t *testing.T, path, text string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil { // past the umask
		t.Fatal(err)
	}
}

// TestEveryMethodRefusesByTheRoleInTheTeam: the walk of roles_test.go once
// palink has teams. The caller has no role of palink's own, and a role in
// walk-team, which owns the cluster and so every job of the walk: through
// the agent and through a guard in process, each declared method is
// allowed exactly when that role reaches the declaration's and the
// method acts on something of a team (never on=global: that is palink's
// own admins' and operators'), and a refused call keeps nothing.
func TestEveryMethodRefusesByTheRoleInTheTeam(t *testing.T) {
	e, f := newWalk(t)
	me := core.CurrentUser()
	for _, role := range model.Roles() {
		for _, guarded := range []bool{false, true} {
			name := role.String() + " in walk-team, via the agent"
			if guarded {
				name = role.String() + " in walk-team, guarded in process"
			}
			t.Run(name, func(t *testing.T) {
				grant(t, e, "walk-team", me, role)
				var s api.Service
				if guarded {
					s = api.Guard(e.Svc, api.Caller{User: me, Where: " over SSH", Tenancy: e.Svc.Tenancy()})
				} else {
					cl, err := serveAgentWith(t, e, agent.ServeOptions{Roles: agent.Roles{Self: "not-" + me}, Tenancy: e.Svc.Tenancy()}, "")
					if err != nil {
						t.Fatal(err)
					}
					s = cl
				}
				for _, m := range api.Methods() {
					if m.Local {
						continue // the caller's own process: no guard
					}
					before := auditLen(t, e)
					err := examples[m.Name](e.Ctx, s, f)
					allowed := role.Allows(m.Role) && m.On != api.ScopeGlobal
					switch {
					case allowed && refusedForRole(err):
						t.Errorf("%s (%s, on %s) as a %s of the owning team: refused: %v", m.Name, m.Role, m.On, role, err)
					case !allowed && !refusedForRole(err):
						t.Errorf("%s (%s, on %s) as a %s of the owning team: not refused: %v", m.Name, m.Role, m.On, role, err)
					case !allowed && !strings.Contains(fmt.Sprint(err), "user "+me):
						t.Errorf("%s as a %s: the refusal does not name the user: %v", m.Name, role, err)
					}
					if !allowed && auditLen(t, e) != before {
						t.Errorf("%s as a %s of the team: refused, yet the audit log grew", m.Name, role)
					}
				}
			})
		}
	}
}
