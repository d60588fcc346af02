package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/palink/palink/config"
	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/flinksql/builtin"
)

func newSQLCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "sql",
		Short: "Check, format and complete Flink SQL scripts",
		Long: "Flink SQL is checked by palink's own parser and validator (the one the SQL editor runs),\n" +
			"so mistakes show up before a cluster sees the job.",
	}
	cmd.AddCommand(newSQLCheckCmd(g), newSQLFmtCmd(), newSQLCompleteCmd(g))
	return cmd
}

// readSQL reads a script from a file, or from stdin for "-".
func readSQL(cmd *cobra.Command, path string) (string, error) {
	if path == "-" {
		b, err := io.ReadAll(cmd.InOrStdin())
		if err != nil {
			return "", fmt.Errorf("read SQL from stdin: %w", err)
		}
		return string(b), nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("read SQL: %w", err)
	}
	return string(b), nil
}

// sqlFinding is a diagnostic as `sql check -o json` prints it.
type sqlFinding struct {
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	EndLine int    `json:"end_line"`
	EndCol  int    `json:"end_col"`
	Code    string `json:"code"`
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
	Snippet string `json:"snippet"`
}

// sqlReport is `sql check -o json`'s document.
type sqlReport struct {
	File     string       `json:"file"`
	Errors   []sqlFinding `json:"errors"`
	Warnings []sqlFinding `json:"warnings"`
	// Explain is the gateway's plan with --remote; ExplainError why there is none.
	Explain      string `json:"explain,omitempty"`
	ExplainError string `json:"explain_error,omitempty"`
	// Injected are the catalog tables the check took from --cluster's
	// table catalog, "orders@v3".
	Injected []string `json:"injected,omitempty"`
}

func newSQLCheckCmd(g *globals) *cobra.Command {
	var parseOnly, remote bool
	var flinkVersion string
	cmd := &cobra.Command{
		Use:   "check FILE",
		Short: "Parse and validate a Flink SQL script (exit 1 on errors)",
		Long: "Reports every error with file:line:col, the offending line underlined and a hint, then the\n" +
			"warnings (legal SQL that likely does not do what was meant). --parse-only checks the syntax\n" +
			"alone, for fragments whose tables are defined elsewhere. --remote also asks the SQL Gateway\n" +
			"of the cluster (--cluster, or the only one configured) to EXPLAIN the job. FILE - reads stdin.\n" +
			"The script is checked for a Flink release: --flink-version, else the flink_version of the\n" +
			"--cluster in the config, else the release its SQL Gateway reports, else the newest palink\n" +
			"knows; a statement, clause or function newer than it is an error (\"CREATE MODEL needs\n" +
			"Flink 2.0; cluster prod runs 1.20\").\n" +
			"The tables of the cluster's table catalog the script uses without defining them are injected and\n" +
			"its ${variables} known, as a deploy has them: --cluster's, else the only configured cluster's or\n" +
			"default_cluster's (with several clusters and no default, the script is checked as it is).",
		Example: "  palink sql check orders.sql\n  palink sql check fragment.sql --parse-only -o json\n  palink sql check --flink-version 1.18 orders.sql\n  palink sql check orders.sql --remote --cluster prod",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if g.output == outWide {
				return fmt.Errorf("sql check: output format %q: want table, json or yaml", g.output)
			}
			src, err := readSQL(cmd, args[0])
			if err != nil {
				return err
			}
			name := args[0]
			if name == "-" {
				name = "<stdin>"
			}
			version, target, err := sqlTarget(cmd, g, flinkVersion)
			if err != nil {
				return err
			}
			opts := flinksql.Options{File: name, ParseOnly: parseOnly, Version: version, Target: target}
			var (
				res flinksql.Result
				in  flinksql.Injection
			)
			cluster, implied := "", false
			if !parseOnly {
				cluster, implied = assetsCluster(g, cmd.ErrOrStderr())
			}
			if cluster != "" {
				assets, fns, err := clusterAssets(cmd, g, cluster)
				if err != nil && !implied {
					return err
				}
				if err != nil {
					// A cluster the user did not name must not stop a check
					// that needs none.
					fmt.Fprintf(cmd.ErrOrStderr(), "note: without the table catalog of cluster %s: %v\n", cluster, err)
				} else {
					// Only a registry read whole makes unknown functions errors.
					opts.Functions = fns
				}
				res, in = flinksql.CheckWithAssets(src, opts, assets)
			} else {
				res = flinksql.Check(src, opts)
			}
			rep := sqlReport{File: name, Errors: []sqlFinding{}, Warnings: []sqlFinding{}}
			for _, t := range in.Tables {
				rep.Injected = append(rep.Injected, t.Ref())
			}
			for _, d := range res.Diagnostics {
				f := sqlFinding{Line: d.Pos.Line, Col: d.Pos.Col, EndLine: d.End.Line, EndCol: d.End.Col,
					Code: d.Code, Message: d.Msg, Hint: d.Hint, Snippet: d.Snippet()}
				if d.Severity == flinksql.SeverityError {
					rep.Errors = append(rep.Errors, f)
				} else {
					rep.Warnings = append(rep.Warnings, f)
				}
			}
			if remote {
				switch {
				case len(rep.Errors) > 0:
					rep.ExplainError = "not asked: the script has errors"
				default:
					plan, err := explainRemote(cmd, g, in.Apply(src))
					if err != nil {
						rep.ExplainError = err.Error()
					}
					rep.Explain = plan
				}
			}
			out := cmd.OutOrStdout()
			if g.structured() {
				if err := writeData(out, g.output, rep); err != nil {
					return err
				}
			} else if err := printSQLReport(out, res, rep, remote); err != nil {
				return err
			}
			if len(rep.Errors) > 0 || rep.ExplainError != "" {
				return exitError{code: 1}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&parseOnly, "parse-only", false, "check the syntax only (tables may be defined elsewhere)")
	cmd.Flags().BoolVar(&remote, "remote", false, "also EXPLAIN the job on the cluster's SQL Gateway")
	cmd.Flags().StringVar(&flinkVersion, "flink-version", "", "Flink release to check for, like 1.18 (default: the --cluster's flink_version, else the newest)")
	return cmd
}

// flinkVersions are the configured clusters' Flink releases, for the
// editor to check SQL against.
func flinkVersions(cfg *config.Config) map[string]string {
	out := map[string]string{}
	for _, cl := range cfg.Clusters {
		if cl.FlinkVersion != "" {
			out[cl.Name] = cl.FlinkVersion
		}
	}
	return out
}

// sqlTarget decides the Flink release a script is checked for and how a
// message names it: the flag, else the flink_version of the --cluster in
// the config (a cluster is one Flink release: its statements must be that
// release's), else what the cluster's SQL Gateway says it runs, else the
// newest palink knows. Without --cluster no config is read, so checking a
// file needs none.
func sqlTarget(cmd *cobra.Command, g *globals, flag string) (builtin.Version, string, error) {
	if flag != "" {
		v, err := builtin.ParseVersion(flag)
		if err != nil {
			return builtin.Version{}, "", fmt.Errorf("--flink-version: %w", err)
		}
		if !v.Known() {
			return builtin.Version{}, "", fmt.Errorf("--flink-version %s: palink knows the SQL of Flink %s to %s", flag, builtin.Oldest, builtin.Latest)
		}
		return v, "", nil
	}
	if g.cluster == "" {
		return impliedTarget(g)
	}
	cfg, err := g.loadConfig()
	if err != nil {
		return builtin.Version{}, "", err
	}
	cl, ok := cfg.Cluster(g.cluster)
	if !ok {
		return builtin.Version{}, "", fmt.Errorf("cluster %q is not in %s", g.cluster, cfg.Path())
	}
	version := cl.FlinkVersion
	if version == "" && cl.SQLGateway != "" {
		asked, err := gatewayVersion(cmd, g, cl.Name)
		if err != nil {
			fmt.Fprintf(cmd.ErrOrStderr(), "%v; checking for Flink %s (set flink_version of cluster %s in the config)\n", err, builtin.Latest, cl.Name)
		}
		version = asked
	}
	if version == "" {
		return builtin.Version{}, "", nil
	}
	v, err := builtin.ParseVersion(version)
	if err != nil {
		return builtin.Version{}, "", fmt.Errorf("cluster %s: %w", cl.Name, err)
	}
	return v, "cluster " + cl.Name, nil
}

// gatewayVersion asks the cluster's SQL Gateway which Flink it runs, within
// a few seconds: a check must not hang on a gateway that is down.
func gatewayVersion(cmd *cobra.Command, g *globals, cluster string) (string, error) {
	ctx, cancel := signalContext(cmd.Context())
	defer cancel()
	ctx, stop := context.WithTimeout(ctx, 5*time.Second)
	defer stop()
	e, err := g.openEnv(ctx)
	if err != nil {
		return "", err
	}
	defer e.Close()
	return e.svc.FlinkVersion(ctx, cluster)
}

// clusterAssets are the table catalog and variables of cluster, as a
// check takes them (no secret is read), and the UDF registry's functions.
func clusterAssets(cmd *cobra.Command, g *globals, cluster string) (flinksql.Assets, map[string]flinksql.FunctionInfo, error) {
	a := flinksql.Assets{Vars: map[string]string{}}
	fns := map[string]flinksql.FunctionInfo{}
	err := g.withEnv(cmd, func(ctx context.Context, e *env) error {
		us, err := e.svc.UDFs(ctx)
		if err != nil {
			return err
		}
		for _, u := range us {
			fns[strings.ToUpper(u.Name)] = flinksql.FunctionInfo{Name: u.Name, Signature: u.Signature}
		}
		ts, err := e.svc.Tables(ctx, cluster)
		if err != nil {
			return err
		}
		vs, err := e.svc.Vars(ctx, cluster)
		if err != nil {
			return err
		}
		for _, t := range ts {
			a.Tables = append(a.Tables, flinksql.CatalogDef{Name: t.Name, Version: t.Version, SQL: t.SQL})
		}
		for _, v := range vs {
			if v.Secret() {
				a.Secrets = append(a.Secrets, v.Name)
			} else {
				a.Vars[v.Name] = v.Value
			}
		}
		return nil
	})
	return a, fns, err
}

// explainRemote asks the chosen cluster's gateway for the job's plan.
func explainRemote(cmd *cobra.Command, g *globals, src string) (string, error) {
	ctx, cancel := signalContext(cmd.Context())
	defer cancel()
	e, err := g.openEnv(ctx)
	if err != nil {
		return "", err
	}
	defer e.Close()
	cluster, err := pickCluster(e, g.cluster)
	if err != nil {
		return "", err
	}
	return e.svc.Explain(ctx, cluster, src)
}

func printSQLReport(w io.Writer, res flinksql.Result, rep sqlReport, remote bool) error {
	var b strings.Builder
	for _, sev := range []flinksql.Severity{flinksql.SeverityError, flinksql.SeverityWarning} {
		for _, d := range res.Diagnostics {
			if d.Severity != sev {
				continue
			}
			b.WriteString(d.Error() + "\n")
			for _, l := range strings.Split(strings.TrimRight(d.Snippet(), "\n"), "\n") {
				b.WriteString("  " + l + "\n")
			}
		}
	}
	stmts := 0
	if res.Script != nil {
		stmts = len(res.Script.Stmts)
	}
	switch {
	case len(rep.Errors) == 0 && len(rep.Warnings) == 0:
		fmt.Fprintf(&b, "%s: ok (%s)\n", rep.File, plural(stmts, "statement"))
	default:
		fmt.Fprintf(&b, "%s: %s, %s\n", rep.File, plural(len(rep.Errors), "error"), plural(len(rep.Warnings), "warning"))
	}
	if len(rep.Injected) > 0 {
		fmt.Fprintf(&b, "from the table catalog: %s\n", strings.Join(rep.Injected, ", "))
	}
	if remote {
		switch {
		case rep.ExplainError != "":
			fmt.Fprintf(&b, "explain: %s\n", rep.ExplainError)
		default:
			b.WriteString("\n" + strings.TrimRight(rep.Explain, "\n") + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func newSQLFmtCmd() *cobra.Command {
	var write bool
	cmd := &cobra.Command{
		Use:   "fmt FILE",
		Short: "Print a Flink SQL script in palink's canonical layout (-w rewrites the file)",
		Long: "Keywords upper-case, one clause per line, one column or option per line; comments are kept.\n" +
			"A script with syntax errors is not formatted: the errors are reported instead (exit 1).",
		Example: "  palink sql fmt orders.sql\n  palink sql fmt -w orders.sql",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if write && args[0] == "-" {
				return errors.New("sql fmt: -w needs a file, not stdin")
			}
			src, err := readSQL(cmd, args[0])
			if err != nil {
				return err
			}
			script, errs := flinksql.ParseFile(args[0], src)
			if len(errs) > 0 {
				var b strings.Builder
				for _, e := range errs {
					b.WriteString(e.Error() + "\n")
					for _, l := range strings.Split(strings.TrimRight(e.Snippet(), "\n"), "\n") {
						b.WriteString("  " + l + "\n")
					}
				}
				fmt.Fprint(cmd.ErrOrStderr(), b.String())
				return exitError{code: 1, msg: fmt.Sprintf("sql fmt %s: %s; not formatted", args[0], plural(len(errs), "syntax error"))}
			}
			out := flinksql.Format(script)
			if !write {
				_, err := io.WriteString(cmd.OutOrStdout(), out)
				return err
			}
			if out == src {
				return nil
			}
			return writeFileAtomic(args[0], []byte(out))
		},
	}
	cmd.Flags().BoolVarP(&write, "write", "w", false, "rewrite FILE in place")
	return cmd
}

// writeFileAtomic replaces path with data, keeping its mode: a crash
// leaves the old file or the new one, never half of one.
func writeFileAtomic(path string, data []byte) error {
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("rewrite %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("rewrite %s: %w", path, err)
	}
	defer os.Remove(tmp.Name()) // after a successful rename, nothing is there
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("rewrite %s: %w", path, err)
	}
	if err := tmp.Chmod(fi.Mode().Perm()); err != nil {
		tmp.Close()
		return fmt.Errorf("rewrite %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("rewrite %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("rewrite %s: %w", path, err)
	}
	return nil
}
