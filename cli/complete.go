package cli

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/palink/palink/core/api"
)

// Shell completion (cobra's dynamic completion: `palink completion bash`
// and the like print the scripts). Names come from the same service every
// command uses — the agent when one runs — within a second, and a palink
// that cannot answer completes nothing rather than stall the shell.

const completeWithin = time.Second

// completeJobs completes job names: every argument of the actions, the
// first of show, history, edit and logs (once is true).
func completeJobs(g *globals, once bool) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if once && len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var out []cobra.Completion
		withService(g, func(ctx context.Context, e *env) {
			jobs, err := e.svc.ListJobs(ctx, api.JobFilter{Cluster: g.cluster})
			if err != nil {
				return
			}
			for _, j := range jobs {
				if strings.HasPrefix(j.Name, prefix) {
					out = append(out, cobra.CompletionWithDesc(j.Name, j.State.String()+" on "+j.Cluster))
				}
			}
		})
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// completeLogs completes the second argument of `palink logs JOB LOG`.
func completeLogs(g *globals) cobra.CompletionFunc {
	jobs := completeJobs(g, true)
	return func(cmd *cobra.Command, args []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) == 0 {
			return jobs(cmd, args, prefix)
		}
		if len(args) > 1 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var out []cobra.Completion
		withService(g, func(ctx context.Context, e *env) {
			list, err := e.svc.Logs(ctx, args[0])
			if err != nil {
				return
			}
			for _, s := range list.Sources {
				if s.Kind == api.LogContainer {
					continue // a link, not a log palink reads
				}
				if name := formatLogRef(s.Ref); strings.HasPrefix(name, prefix) {
					out = append(out, cobra.CompletionWithDesc(name, s.Title))
				}
			}
		})
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// completeClusters completes --cluster and `palink cluster NAME`.
func completeClusters(g *globals) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
		cfg, err := g.loadConfig()
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var out []cobra.Completion
		for _, c := range cfg.Clusters {
			if strings.HasPrefix(c.Name, prefix) {
				out = append(out, c.Name)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// withService opens palink for a completion, bounded by completeWithin.
func withService(g *globals, fn func(ctx context.Context, e *env)) {
	ctx, cancel := context.WithTimeout(context.Background(), completeWithin)
	defer cancel()
	saved := g.readOnly
	g.readOnly = true // completing never acts, and must not take the store's write lock
	defer func() { g.readOnly = saved }()
	e, err := g.openEnv(ctx)
	if err != nil {
		return
	}
	defer e.Close()
	fn(ctx, e)
}

// completeAlerts completes RULE then JOB of an alert that exists.
func completeAlerts(g *globals) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 1 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var out []cobra.Completion
		withService(g, func(ctx context.Context, e *env) {
			as, err := e.svc.Alerts(ctx, api.AlertFilter{})
			if err != nil {
				return
			}
			for _, a := range as {
				c := a.Rule
				if len(args) == 1 {
					if a.Rule != args[0] {
						continue
					}
					c = a.JobName
				}
				if strings.HasPrefix(c, prefix) && !slices.Contains(out, c) {
					out = append(out, c)
				}
			}
		})
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}
