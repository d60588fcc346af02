package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/palink/palink/core"
	"github.com/palink/palink/core/agent"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// newTeamCmd is `palink team`: the tenants, what they own and who has
// which role in each (docs/ssh.md, "Teams and roles").
func newTeamCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "team",
		Short: "Teams (tenants): what each owns, and each member's role in it",
		Long: "A team owns clusters, or queues of them, and thereby the jobs that run there; each member\n" +
			"has a role in it (viewer, operator, admin). Once palink has a team, every user sees the jobs\n" +
			"of their teams only, and acts with their role in the team that owns what they act on.",
	}
	cmd.AddCommand(newTeamListCmd(g), newTeamAddCmd(g), newTeamGrantCmd(g), newTeamMembersCmd(g))
	return cmd
}

func newTeamListCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List your teams (every team for palink's own admins)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return g.withEnv(cmd, func(ctx context.Context, e *env) error {
				ts, err := e.svc.Teams(ctx)
				return show(g, cmd.OutOrStdout(), orEmpty(ts), err, printTeams)
			})
		},
	}
}

func newTeamAddCmd(g *globals) *cobra.Command {
	var owns []string
	cmd := &cobra.Command{
		Use:   "add NAME",
		Short: "Create a team, or give one more clusters or queues (palink's own admins)",
		Example: "  palink team add payments --owns prod-yarn/payments\n" +
			"  palink team add search --owns staging-yarn",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			r := api.TeamRequest{Name: args[0]}
			for _, o := range owns {
				cluster, queue, _ := strings.Cut(o, "/")
				if cluster == "" {
					return exitError{code: 2, msg: fmt.Sprintf("--owns %q: want CLUSTER or CLUSTER/QUEUE", o)}
				}
				r.Owns = append(r.Owns, model.Holding{Cluster: cluster, Queue: queue})
			}
			return g.withEnv(cmd, func(ctx context.Context, e *env) error {
				t, err := e.svc.AddTeam(ctx, r)
				return show(g, cmd.OutOrStdout(), t, err, printTeam)
			})
		},
	}
	cmd.Flags().StringSliceVar(&owns, "owns", nil, "a cluster (CLUSTER) or one YARN queue of it (CLUSTER/QUEUE) the team owns; repeatable")
	return cmd
}

func newTeamGrantCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "grant TEAM USER ROLE",
		Short: "Give a user a role in a team: viewer, operator, admin, or none to take them out",
		Example: "  palink team grant payments alice operator\n" +
			"  palink team grant payments ci-bot viewer\n" +
			"  palink team grant payments bob none",
		Args: cobra.ExactArgs(3),
		RunE: func(cmd *cobra.Command, args []string) error {
			role, err := model.ParseRole(args[2])
			if err != nil {
				return exitError{code: 2, msg: fmt.Sprintf("role %q: viewer, operator, admin or none", args[2])}
			}
			return g.withEnv(cmd, func(ctx context.Context, e *env) error {
				t, err := e.svc.Grant(ctx, api.GrantRequest{Team: args[0], User: args[1], Role: role})
				return show(g, cmd.OutOrStdout(), t, err, printTeam)
			})
		},
	}
}

func newTeamMembersCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "members TEAM",
		Short: "List a team's members and their roles",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return g.withEnv(cmd, func(ctx context.Context, e *env) error {
				ms, err := e.svc.TeamMembers(ctx, args[0])
				return show(g, cmd.OutOrStdout(), orEmpty(ms), err, printMembers)
			})
		},
	}
}

// newWhoAmICmd is `palink whoami`: who palink takes you for, and your role
// in each of your teams.
func newWhoAmICmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "whoami",
		Short: "Show who palink takes you for: your user, your teams and your role in each",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return g.withEnv(cmd, func(ctx context.Context, e *env) error {
				id, err := e.svc.WhoAmI(ctx)
				return show(g, cmd.OutOrStdout(), id, err, printIdentity)
			})
		},
	}
}

// newAuditCmd is `palink audit`: every action of every user, in the order
// the store committed them.
func newAuditCmd(g *globals) *cobra.Command {
	var (
		since string
		user  string
		limit int
	)
	cmd := &cobra.Command{
		Use:   "audit",
		Short: "Show the audit log: every action of every user, oldest first",
		Long: "The audit log is one ordered log in the store: every action, and every refusal, of every\n" +
			"user on every host that shares the store, named by the user palink took them for (the OS user\n" +
			"on the agent's socket, the SSH key's user, a token's user). palink's own admins read all of\n" +
			"it; a team's admins the entries of their team's jobs.",
		Example: "  palink audit --since 1h\n  palink audit --user alice -o json\n  palink audit --since 2026-12-05T09:00:00Z",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f := api.AuditFilter{User: user, Limit: limit}
			if since != "" {
				t, err := parseSince(since, time.Now())
				if err != nil {
					return exitError{code: 2, msg: err.Error()}
				}
				f.Since = t
			}
			return g.withEnv(cmd, func(ctx context.Context, e *env) error {
				es, err := e.svc.Audit(ctx, f)
				return show(g, cmd.OutOrStdout(), orEmpty(es), err, printAudit)
			})
		},
	}
	cmd.Flags().StringVar(&since, "since", "", "only entries at or after this: a duration back from now (1h, 30m) or an RFC 3339 time")
	cmd.Flags().StringVar(&user, "user", "", "only this user's entries")
	cmd.Flags().IntVar(&limit, "limit", 0, "only the newest N entries (0: all)")
	return cmd
}

// parseSince reads --since: a duration back from now, or a time.
func parseSince(s string, now time.Time) (time.Time, error) {
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("--since %q: want a duration (1h, 30m) or an RFC 3339 time (2026-12-05T09:00:00Z)", s)
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func printTeams(w io.Writer, ts []model.Team) error {
	if len(ts) == 0 {
		_, err := fmt.Fprintln(w, "no teams")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TEAM\tOWNS\tMEMBERS")
	for _, t := range ts {
		fmt.Fprintf(tw, "%s\t%s\t%d\n", t.Name, holdings(t.Owns), len(t.Members))
	}
	return tw.Flush()
}

func holdings(hs []model.Holding) string {
	var out []string
	for _, h := range hs {
		if h.Queue == "" {
			out = append(out, h.Cluster)
		} else {
			out = append(out, h.Cluster+"/"+h.Queue)
		}
	}
	if len(out) == 0 {
		return "-"
	}
	return strings.Join(out, ", ")
}

func printTeam(w io.Writer, t model.Team) error {
	fmt.Fprintf(w, "team %s owns %s\n", t.Name, holdings(t.Owns))
	return printMembers(w, t.Members)
}

func printMembers(w io.Writer, ms []model.Member) error {
	if len(ms) == 0 {
		_, err := fmt.Fprintln(w, "no members")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "USER\tROLE\tGRANTED BY\tSINCE")
	for _, m := range ms {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", m.User, m.Role, m.GrantedBy, m.GrantedAt.Format(time.DateTime))
	}
	return tw.Flush()
}

func printIdentity(w io.Writer, id api.Identity) error {
	fmt.Fprintf(w, "user %s\n", id.User)
	if id.Role != model.NoRole {
		fmt.Fprintf(w, "role of palink's own: %s\n", id.Role)
	}
	for _, t := range id.Teams {
		fmt.Fprintf(w, "team %s: %s\n", t.Team, t.Role)
	}
	if id.ReadOnly {
		fmt.Fprintln(w, "read-only: you may change nothing")
	}
	if id.Why != "" {
		fmt.Fprintln(w, id.Why)
	}
	return nil
}

func printAudit(w io.Writer, es []model.AuditEntry) error {
	if len(es) == 0 {
		_, err := fmt.Fprintln(w, "no audit entries")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SEQ\tTIME\tUSER\tHOST\tACTION\tJOB\tOUTCOME")
	for _, e := range es {
		host := e.Host
		if host == "" {
			host = "-" // written before palink recorded hosts
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", e.Seq, e.Time.Format(time.RFC3339), e.User, host, e.Action, e.JobID, firstLine(e.Outcome))
	}
	return tw.Flush()
}

// agentServeOptions are what the agent of e serves: the config's roles,
// the teams of its store, and the config's token file.
func agentServeOptions(e *env) (agent.ServeOptions, error) {
	o := agent.ServeOptions{
		Roles:   agent.Roles{Operators: e.cfg.Operators, Admins: e.cfg.Admins, Self: core.CurrentUser()},
		Tenancy: e.local.Tenancy(),
		Store:   e.local.StorePath(),
		Log:     e.log,
	}
	if e.cfg.Agent.Tokens != "" {
		ts, err := agent.LoadTokens(e.cfg.Agent.Tokens)
		if err != nil {
			return o, err
		}
		o.Tokens = ts
	}
	return o, nil
}
