package cli

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/palink/palink/core"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

func newProjectCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{Use: "project", Short: "Projects: git repositories palink builds JAR jobs' artifacts from"}
	cmd.AddCommand(newProjectAddCmd(g), newProjectListCmd(g), newProjectBuildCmd(g), newProjectArtifactsCmd(g))
	return cmd
}

func newProjectAddCmd(g *globals) *cobra.Command {
	var p model.Project
	var vars []string
	cmd := &cobra.Command{
		Use:   "add NAME --repo URL [--ref REF] --build CMD --artifact GLOB [--env NAME=VALUE]…",
		Short: "Add (or change) a project: its repository, ref, build command and artifact pattern",
		Example: "  palink project add dedup --repo git@git.acme:stream/dedup.git --ref main \\\n" +
			"      --build 'mvn -B -q package -DskipTests' --artifact 'target/dedup-*.jar' --timeout 20m\n" +
			"  palink project add fraud --repo https://git.acme/ml/fraud.git --token-env FRAUD_GIT_TOKEN \\\n" +
			"      --build 'gradle shadowJar' --artifact 'build/libs/*-all.jar'",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			p.Name = args[0]
			for _, kv := range vars {
				k, v, ok := strings.Cut(kv, "=")
				if !ok || k == "" {
					return fmt.Errorf("--env %s: give NAME=VALUE", kv)
				}
				if p.Env == nil {
					p.Env = map[string]string{}
				}
				p.Env[k] = v
			}
			if p.TokenFile != "" {
				// The palink that builds (an agent) may run elsewhere in the tree.
				abs, err := filepath.Abs(p.TokenFile)
				if err != nil {
					return fmt.Errorf("--token-file: %w", err)
				}
				p.TokenFile = abs
			}
			return g.withEnv(cmd, func(ctx context.Context, e *env) error {
				saved, err := e.svc.AddProject(ctx, p)
				if err != nil {
					return err
				}
				if g.structured() {
					return writeData(cmd.OutOrStdout(), g.output, saved)
				}
				fmt.Fprintf(cmd.OutOrStdout(), "project %s: %s at %s; build it with: palink project build %s\n", saved.Name, saved.Repo, orHEAD(saved.Ref), saved.Name)
				return nil
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&p.Repo, "repo", "", "git repository URL or path (credentials: your ssh agent, git credential helper, or --token-env/--token-file)")
	f.StringVar(&p.Ref, "ref", "", "branch, tag or commit built by default (default: the remote's HEAD)")
	f.StringVar(&p.Build, "build", "", "build command, run by sh in a fresh checkout, with an environment built from nothing (as build.user where palink is root)")
	f.StringVar(&p.Artifact, "artifact", "", "glob, relative to the checkout, matching the one jar the build produces")
	f.DurationVar(&p.Timeout, "timeout", 0, "kill a build, fetch included (git and the build command with their process groups), that runs longer (default 30m)")
	f.StringVar(&p.TokenEnv, "token-env", "", "for an https repository: the environment variable holding its token, read by the palink that builds at fetch time (never stored)")
	f.StringVar(&p.TokenFile, "token-file", "", "for an https repository: the file holding its token, read at fetch time (never stored)")
	f.BoolVar(&p.InsecureHTTP, "insecure-http", false, "allow --token-env/--token-file for a plain http:// repository (the token crosses the network in clear)")
	f.StringArrayVar(&vars, "env", nil, "NAME=VALUE the build command gets (repeatable); it gets nothing else of palink's environment. Stored and shown in clear: no secrets")
	cmd.MarkFlagsMutuallyExclusive("token-env", "token-file")
	for _, n := range []string{"repo", "build", "artifact"} {
		_ = cmd.MarkFlagRequired(n)
	}
	return cmd
}

func orHEAD(ref string) string {
	if ref == "" {
		return "HEAD"
	}
	return ref
}

func newProjectListCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the projects",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return g.withEnv(cmd, func(ctx context.Context, e *env) error {
				ps, err := e.svc.Projects(ctx)
				if err != nil {
					return err
				}
				if ps == nil {
					ps = []model.Project{}
				}
				if g.structured() {
					return writeData(cmd.OutOrStdout(), g.output, ps)
				}
				tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "NAME\tREPO\tREF\tBUILD\tARTIFACT")
				for _, p := range ps {
					fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", p.Name, p.Repo, orHEAD(p.Ref), p.Build, p.Artifact)
				}
				return tw.Flush()
			})
		},
	}
}

func newProjectBuildCmd(g *globals) *cobra.Command {
	var ref string
	var quiet bool
	cmd := &cobra.Command{
		Use:   "build NAME [--ref REF]",
		Short: "Build a project and record its artifact (waits; the log streams to stderr, from the agent when one runs the build)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return g.withEnv(cmd, func(ctx context.Context, e *env) error {
				r := api.BuildRequest{Project: args[0], Ref: ref}
				stop := func(string) {}
				switch {
				case quiet:
				case e.local != nil:
					r.Log = cmd.ErrOrStderr()
				default:
					// The agent builds: its log comes by asking.
					stop = followRemoteBuild(ctx, e.svc, args[0], cmd.ErrOrStderr(), time.Second)
				}
				var a model.Artifact
				var err error
				if e.local != nil {
					// Without an agent this palink opened the store, and
					// bbolt locks it while it is open: closed while git
					// and the build run, other palinks may use it.
					o, path := e.opts, e.path
					e.Close()
					a, err = core.BuildProjectAt(ctx, path, o, r)
				} else {
					a, err = e.svc.BuildProject(ctx, r)
				}
				stop(a.Log)
				if err != nil {
					return err
				}
				if g.structured() {
					return writeData(cmd.OutOrStdout(), g.output, a)
				}
				if a.Unchanged {
					fmt.Fprintf(cmd.OutOrStdout(), "%s unchanged: same commit %.12s and sha256 as v%d, which is kept (built in %s)\n",
						a.Project, a.Commit, a.Version, a.Took.Round(time.Second))
					return nil
				}
				fmt.Fprintf(cmd.OutOrStdout(), "%s v%d: %s at %.12s (%s), %d bytes, sha256 %s, built in %s\n",
					a.Project, a.Version, a.File, a.Commit, a.Subject, a.Size, a.SHA256, a.Took.Round(time.Second))
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&ref, "ref", "", "branch, tag or commit to build (default: the project's)")
	cmd.Flags().BoolVarP(&quiet, "quiet", "q", false, "do not stream the build's log")
	return cmd
}

func newProjectArtifactsCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "artifacts NAME",
		Short: "List a project's artifacts: version, commit, sha256, size, when and by whom built",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return g.withEnv(cmd, func(ctx context.Context, e *env) error {
				as, err := e.svc.Artifacts(ctx, args[0])
				if err != nil {
					return err
				}
				if g.structured() {
					return writeData(cmd.OutOrStdout(), g.output, as)
				}
				printArtifacts(cmd.OutOrStdout(), as)
				return nil
			})
		},
	}
}

func printArtifacts(w io.Writer, as []model.Artifact) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "VERSION\tCOMMIT\tSUBJECT\tSHA256\tSIZE\tBUILT\tBY")
	for _, a := range as {
		fmt.Fprintf(tw, "v%d\t%.12s\t%s\t%.16s\t%d\t%s\t%s\n", a.Version, a.Commit, a.Subject, a.SHA256, a.Size, a.BuiltAt.Local().Format(time.DateTime), a.BuiltBy)
	}
	tw.Flush()
}
