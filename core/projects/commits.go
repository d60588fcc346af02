package projects

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// maxCommits bounds the commits Commits lists: a diff of years is a
// summary, not a review.
const maxCommits = 200

// Commits lists the commits of a project between two (`git log --oneline
// from..to` in its checkout, newest first). back is true when to is an
// ancestor of from: the list is then what going to to takes away.
func (b *Builder) Commits(ctx context.Context, project, from, to string) (commits []string, back bool, err error) {
	src := filepath.Join(b.cache, project, "src")
	if _, err := os.Stat(filepath.Join(src, ".git")); err != nil {
		return nil, false, fmt.Errorf("project %s has no checkout in %s: build it once", project, b.cache)
	}
	for _, c := range []string{from, to} {
		if _, err := b.runGit(ctx, src, io.Discard, "cat-file", "-e", c+"^{commit}"); err != nil {
			return nil, false, fmt.Errorf("project %s: commit %.12s is not in its checkout", project, c)
		}
	}
	fwd, err := b.oneline(ctx, src, from, to)
	if err != nil {
		return nil, false, err
	}
	if len(fwd) > 0 {
		return fwd, false, nil
	}
	rev, err := b.oneline(ctx, src, to, from)
	return rev, len(rev) > 0, err
}

func (b *Builder) oneline(ctx context.Context, src, from, to string) ([]string, error) {
	out, err := b.runGit(ctx, src, io.Discard, "log", "--oneline", "--no-decorate", "--no-color",
		fmt.Sprintf("--max-count=%d", maxCommits), from+".."+to)
	if err != nil {
		return nil, err
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l != "" {
			lines = append(lines, l)
		}
	}
	return lines, nil
}
