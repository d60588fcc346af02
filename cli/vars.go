package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// newVarCmd is `palink var`: the ${name} variables of SQL jobs, per
// cluster, and secrets that palink never keeps or shows.
func newVarCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "var",
		Short: "Set and list the ${name} variables of SQL jobs (per cluster; secrets never stored)",
		Long: "A SQL job (and the catalog's tables, and a job's Flink config) may write ${name}: the\n" +
			"deploy replaces it with the variable of the job's cluster, or else the one of every\n" +
			"cluster (set without --cluster). A secret variable names where its value comes from, an\n" +
			"environment variable, a file or a command (sh -c, 10 s at most; its output is the value) of\n" +
			"the process that deploys (the agent, when one runs), read when a deploy or debug run needs it:\n" +
			"the store keeps only that, and palink shows the value nowhere (masked ••••).",
		Args: knownSubcommand,
		RunE: func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newVarSetCmd(g), newVarListCmd(g), newVarRmCmd(g))
	return cmd
}

// varView is a variable as `var list -o json` shows it: a secret's value
// masked.
type varView struct {
	Cluster    string    `json:"cluster"`
	Name       string    `json:"name"`
	Value      string    `json:"value"`
	Secret     bool      `json:"secret"`
	SecretEnv  string    `json:"secret_env,omitempty"`
	SecretFile string    `json:"secret_file,omitempty"`
	SecretCmd  string    `json:"secret_cmd,omitempty"`
	Author     string    `json:"author"`
	UpdatedAt  time.Time `json:"updated_at"`
}

func viewVar(v model.Variable) varView {
	out := varView{Cluster: v.Cluster, Name: v.Name, Value: v.Value, Secret: v.Secret(), SecretEnv: v.SecretEnv, SecretFile: v.SecretFile, SecretCmd: v.SecretCmd,
		Author: v.Author, UpdatedAt: v.UpdatedAt}
	if out.Secret {
		out.Value = model.Masked
	}
	return out
}

func newVarSetCmd(g *globals) *cobra.Command {
	var secretEnv, file, secretCmd string
	cmd := &cobra.Command{
		Use:   "set NAME (VALUE | --secret-env ENV | --secret-file FILE | --secret-cmd CMD)",
		Short: "Set a variable of a cluster (--cluster), or of every cluster",
		Example: "  palink var set db_url jdbc:postgresql://db.test:5432/app --cluster test\n" +
			"  palink var set db_pass --secret-env PROD_DB_PASS --cluster prod\n" +
			"  palink var set db_pass --secret-file /etc/palink/db_pass\n" +
			"  palink var set db_pass --secret-cmd 'vault kv get -field=password secret/db' --cluster prod",
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			v := model.Variable{Cluster: g.cluster, Name: args[0], SecretEnv: secretEnv, SecretCmd: strings.TrimSpace(secretCmd)}
			sources := 0
			for _, s := range []string{secretEnv, file, secretCmd} {
				if s != "" {
					sources++
				}
			}
			switch {
			case sources > 1:
				return fmt.Errorf("var set %s: one of --secret-env, --secret-file and --secret-cmd", args[0])
			case cmd.Flags().Changed("secret-cmd") && v.SecretCmd == "":
				return fmt.Errorf("var set %s: --secret-cmd is empty: give the command that prints the secret", args[0])
			case sources == 1 && len(args) == 2:
				return fmt.Errorf("var set %s: a secret takes no VALUE: palink never keeps it", args[0])
			case sources == 0 && len(args) != 2:
				return fmt.Errorf("var set %s: give a VALUE, or --secret-env ENV, --secret-file FILE or --secret-cmd CMD", args[0])
			case len(args) == 2:
				v.Value = args[1]
			}
			if file != "" {
				abs, err := filepath.Abs(file)
				if err != nil {
					return fmt.Errorf("var set %s: %w", args[0], err)
				}
				v.SecretFile = abs
			}
			return g.withEnv(cmd, func(ctx context.Context, e *env) error {
				got, err := e.svc.SetVar(ctx, v)
				if err != nil {
					return err
				}
				if g.structured() {
					return writeData(cmd.OutOrStdout(), g.output, viewVar(got))
				}
				scope := "every cluster"
				if got.Cluster != "" {
					scope = "cluster " + got.Cluster
				}
				_, err = fmt.Fprintf(cmd.OutOrStdout(), "${%s} of %s = %s\n", got.Name, scope, got.Shown())
				return err
			})
		},
	}
	cmd.Flags().StringVar(&secretEnv, "secret-env", "", "a secret: read from this environment variable when a job deploys")
	cmd.Flags().StringVar(&file, "secret-file", "", "a secret: read from this file when a job deploys")
	cmd.Flags().StringVar(&secretCmd, "secret-cmd", "", "a secret: the output of this command (sh -c), run when a job deploys")
	return cmd
}

func newVarListCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the variables (with --cluster, the ones its jobs see); secrets masked",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return g.withEnv(cmd, func(ctx context.Context, e *env) error {
				vs, err := e.svc.Vars(ctx, g.cluster)
				if err != nil {
					return err
				}
				out := make([]varView, 0, len(vs))
				for _, v := range vs {
					out = append(out, viewVar(v))
				}
				w := cmd.OutOrStdout()
				if g.structured() {
					return writeData(w, g.output, out)
				}
				if err := checkOutput(g.output); err != nil {
					return err
				}
				if len(out) == 0 {
					_, err := fmt.Fprintln(w, "no variables (palink var set NAME VALUE)")
					return err
				}
				tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "NAME\tCLUSTER\tVALUE\tBY\tUPDATED")
				for _, v := range vs {
					cl := v.Cluster
					if cl == "" {
						cl = "*"
					}
					fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", v.Name, cl, v.Shown(), v.Author, since(v.UpdatedAt))
				}
				return tw.Flush()
			})
		},
	}
}

func newVarRmCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "rm NAME",
		Short: "Remove a variable of a cluster (--cluster), or of every cluster",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return g.withEnv(cmd, func(ctx context.Context, e *env) error {
				return e.svc.RemoveVar(ctx, api.VarRef{Cluster: g.cluster, Name: args[0]})
			})
		},
	}
}
