package projects

// Git, as palink runs it: in the cache's repository, with a clean
// environment, killed with its process group when the build ends.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/palink/palink/core/internal/sandbox"
	"github.com/palink/palink/model"
)

// checkout copies the repository into work (objects copied, never
// hard-linked: the build user gets the copy) and checks commit out
// there, detached. The commit is fetched by a ref of palink's own, as a
// branch of the remote's may name it only in the cache's repository.
func (b *Builder) checkout(ctx context.Context, src, work, commit string, log io.Writer) error {
	if _, err := b.runGit(ctx, src, log, "update-ref", "refs/palink/build", commit); err != nil {
		return err
	}
	if _, err := b.runGit(ctx, "", io.Discard, "clone", "--quiet", "--no-hardlinks", "--no-checkout", "--", src, work); err != nil {
		return err
	}
	if _, err := b.runGit(ctx, work, log, "fetch", "--quiet", "--", "origin", "refs/palink/build"); err != nil {
		return err
	}
	_, err := b.runGit(ctx, work, log, "checkout", "--quiet", "--force", "--detach", commit)
	return err
}

// resolve turns a ref into a commit: a branch of the remote, a tag, or a
// commit.
func (b *Builder) resolve(ctx context.Context, src, ref string) (string, error) {
	cands := []string{"origin/HEAD"}
	if ref != "" {
		cands = []string{"origin/" + ref, ref}
	}
	for _, c := range cands {
		out, err := b.runGit(ctx, src, io.Discard, "rev-parse", "--verify", "--quiet", "--end-of-options", c+"^{commit}")
		if err == nil {
			return strings.TrimSpace(out), nil
		}
		if ctx.Err() != nil {
			return "", err
		}
	}
	return "", fmt.Errorf("ref %q is no branch, tag or commit of the repository", orHead(ref))
}

// runGit runs git with prompts off, so that a repository that wants
// credentials fails instead of waiting for a terminal.
func (b *Builder) runGit(ctx context.Context, dir string, log io.Writer, args ...string) (string, error) {
	return b.runGitEnv(ctx, dir, log, nil, args...)
}

// runGitEnv is runGit with more environment (a token's askpass helper,
// the project's proxies). Git is palink's own tool, so it runs as palink,
// but with an environment as clean as a build's: palink's (GIT_*
// variables, proxies, cluster passwords) never reaches it. It keeps
// palink's HOME, where its ssh keys, known hosts and git config are, and
// the ssh agent. It runs in a process group of its own, killed whole when
// ctx ends: git-remote-http outlives a killed git and holds its pipes.
func (b *Builder) runGitEnv(ctx context.Context, dir string, log io.Writer, env []string, args ...string) (string, error) {
	sub := args[0]
	if dir != "" {
		args = append([]string{"-C", dir}, args...)
	}
	cmd := exec.CommandContext(ctx, b.git, args...)
	cmd.Env = b.gitEnv(env)
	sandbox.Group(cmd)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, io.MultiWriter(&errOut, log)
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return out.String(), fmt.Errorf("git %s was stopped with its process group: %w", sub, ctx.Err())
		}
		msg := strings.TrimSpace(errOut.String())
		if msg == "" {
			msg = err.Error()
		}
		return out.String(), fmt.Errorf("git %s: %s", sub, msg)
	}
	return out.String(), nil
}

// gitEnv is git's environment: built from nothing but what it needs.
func (b *Builder) gitEnv(extra []string) []string {
	env := []string{"PATH=" + b.run.SearchPath(), "LANG=C.UTF-8",
		"GIT_TERMINAL_PROMPT=0", "GIT_ASKPASS=/bin/false", "SSH_ASKPASS=/bin/false", "GIT_SSH_COMMAND=ssh -o BatchMode=yes"}
	if home, err := os.UserHomeDir(); err == nil {
		env = append(env, "HOME="+home)
	}
	if sock := os.Getenv("SSH_AUTH_SOCK"); sock != "" {
		env = append(env, "SSH_AUTH_SOCK="+sock)
	}
	return append(env, extra...)
}

// proxyVars are the variables of a project's that reach git too.
var proxyVars = []string{"http_proxy", "https_proxy", "no_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY"}

// proxies are the proxy variables the project declares, for git.
func proxies(p model.Project) []string {
	var out []string
	for _, k := range proxyVars {
		if v, ok := p.Env[k]; ok {
			out = append(out, k+"="+v)
		}
	}
	return out
}
