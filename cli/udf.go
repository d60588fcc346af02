package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

func newUDFCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{Use: "udf", Short: "The UDF registry: functions SQL jobs call, created for them at deploy"}
	cmd.AddCommand(newUDFAddCmd(g), newUDFListCmd(g), newUDFRmCmd(g))
	return cmd
}

func newUDFAddCmd(g *globals) *cobra.Command {
	var (
		u        model.UDF
		language string
		replace  bool
	)
	cmd := &cobra.Command{
		Use:   "add NAME --class C --language java|scala|python (--project P [--artifact V] | --jar PATH | --py FILE) [--signature SIG]",
		Short: "Register a function: its class, language, where it lives and, optionally, its SQL signature",
		Example: "  palink udf add mask --class com.acme.udf.Mask --language java --project udfs --signature '(STRING) -> STRING'\n" +
			"  palink udf add geo --class geo.lookup --language python --py ./udf/geo.py",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			u.Name = args[0]
			if language == "" {
				return fmt.Errorf("udf add %s: no language: give --language java, scala or python", u.Name)
			}
			l, err := model.ParseUDFLanguage(language)
			if err != nil {
				return fmt.Errorf("udf add %s: --%w", u.Name, err)
			}
			u.Language = l
			// The agent may run elsewhere in the file tree: send absolute paths.
			for _, p := range []*string{&u.Jar, &u.PyFile} {
				if *p != "" && !strings.Contains(*p, "://") {
					if *p, err = filepath.Abs(*p); err != nil {
						return err
					}
				}
			}
			return g.withEnv(cmd, func(ctx context.Context, e *env) error {
				saved, err := e.svc.AddUDF(ctx, api.AddUDFRequest{UDF: u, Replace: replace})
				if err != nil {
					return err
				}
				if g.structured() {
					return writeData(cmd.OutOrStdout(), g.output, saved)
				}
				fmt.Fprintf(cmd.OutOrStdout(), "function %s: %s %s from %s; SQL jobs that call it get it at deploy\n",
					saved.Name, saved.Language, saved.Class, saved.Where())
				return nil
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&u.Class, "class", "", "the function's class (java, scala) or module.function (python)")
	f.StringVar(&language, "language", "", "java, scala or python")
	f.StringVar(&u.Project, "project", "", "the project whose artifact holds the function")
	f.IntVar(&u.ArtifactVersion, "artifact", 0, "the project's artifact version (default: the newest at each deploy)")
	f.StringVar(&u.Jar, "jar", "", "a jar holding the function, readable by the SQL Gateway")
	f.StringVar(&u.PyFile, "py", "", "a Python file holding the function")
	f.StringVar(&u.Signature, "signature", "", "its SQL signature, like '(STRING, INT) -> STRING' (the validator checks calls' arguments)")
	f.BoolVar(&replace, "replace", false, "replace a function registered under the name")
	_ = cmd.MarkFlagRequired("class")
	return cmd
}

func newUDFListCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the registered functions and the jobs that call them",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return g.withEnv(cmd, func(ctx context.Context, e *env) error {
				us, err := e.svc.UDFs(ctx)
				if err != nil {
					return err
				}
				if g.structured() {
					return writeData(cmd.OutOrStdout(), g.output, us)
				}
				tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "NAME\tLANGUAGE\tCLASS\tARTIFACT\tSIGNATURE\tJOBS")
				for _, u := range us {
					fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", u.Name, u.Language, u.Class, u.Where(), orDash(u.Signature), udfJobs(u.Jobs))
				}
				return tw.Flush()
			})
		},
	}
}

func newUDFRmCmd(g *globals) *cobra.Command {
	var force bool
	cmd := &cobra.Command{
		Use:   "rm NAME [--force]",
		Short: "Remove a function; refused while jobs call it, unless --force",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return g.withEnv(cmd, func(ctx context.Context, e *env) error {
				r, err := e.svc.RemoveUDF(ctx, api.RemoveUDFRequest{Name: args[0], Force: force})
				if err != nil {
					return err
				}
				if g.structured() {
					return writeData(cmd.OutOrStdout(), g.output, r)
				}
				fmt.Fprintf(cmd.OutOrStdout(), "function %s removed\n", r.UDF.Name)
				if len(r.Jobs) > 0 {
					fmt.Fprintf(cmd.OutOrStdout(), "these jobs call it and will not deploy until it is registered again: %s\n", udfJobs(r.Jobs))
				}
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&force, "force", false, "remove it although jobs call it")
	return cmd
}

// udfJobs names the jobs that call a function, "-" for none.
func udfJobs(us []api.UDFUse) string {
	if len(us) == 0 {
		return "-"
	}
	names := make([]string, len(us))
	for i, u := range us {
		names[i] = u.JobName
	}
	return strings.Join(names, ", ")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// registeredUDFs are the registry's functions, as a debug run names them.
func registeredUDFs(ctx context.Context, e *env) ([]model.UDF, error) {
	vs, err := e.svc.UDFs(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]model.UDF, len(vs))
	for i, v := range vs {
		out[i] = v.UDF
	}
	return out, nil
}
