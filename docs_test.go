package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// The README is what a newcomer reads first (issue 24): it fits in
// maxREADMELines, opens on the two commands, and every guide under docs/
// is one link away from it. The guides hold the rest; a link that leads
// nowhere is a fact a reader cannot reach.
const maxREADMELines = 300

// TestREADMEStartsWithTheTwoCommands: the house rule, a newcomer on a fresh
// machine gets palink running (`make demo`) and the tests passing
// (`make test`) from the README's first lines.
func TestREADMEStartsWithTheTwoCommands(t *testing.T) {
	lines := strings.Split(readText(t, "README.md"), "\n")
	open := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "```") {
			open = i
			break
		}
	}
	if open < 0 || open > 10 {
		t.Fatalf("README.md: the first code block is at line %d; the two commands belong in the first 10 lines", open+1)
	}
	var block []string
	for _, l := range lines[open+1:] {
		if strings.HasPrefix(l, "```") {
			break
		}
		block = append(block, l)
	}
	for _, cmd := range []string{"make demo", "make test"} {
		found := false
		for _, l := range block {
			found = found || strings.HasPrefix(l, cmd+" ") || l == cmd
		}
		if !found {
			t.Errorf("README.md's first code block has no %q line:\n%s", cmd, strings.Join(block, "\n"))
		}
	}
}

// TestREADMEFitsAndLinksEveryGuide: the README stays short, and every
// file in docs/ (each guide, the output schema) is linked from it.
func TestREADMEFitsAndLinksEveryGuide(t *testing.T) {
	text := readText(t, "README.md")
	if n := strings.Count(text, "\n"); n > maxREADMELines {
		t.Errorf("README.md has %d lines, over %d: move the detail into a guide under docs/", n, maxREADMELines)
	}
	linked := map[string]bool{}
	for _, l := range links(text) {
		linked[filepath.Clean(strings.SplitN(l.target, "#", 2)[0])] = true
	}
	entries, err := os.ReadDir("docs")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) == 0 {
		t.Fatal("docs/ is empty: the guides are gone")
	}
	for _, e := range entries {
		if p := filepath.Join("docs", e.Name()); !e.IsDir() && !linked[p] {
			t.Errorf("README.md does not link %s: a guide no one can find", p)
		}
	}
}

// TestGuidesHaveATitleAndAnIntro: each guide opens with its title and a
// paragraph saying what it holds, so a reader who follows a link knows
// at once whether they are in the right place.
func TestGuidesHaveATitleAndAnIntro(t *testing.T) {
	for _, p := range guides(t) {
		lines := strings.Split(readText(t, p), "\n")
		if len(lines) < 3 || !strings.HasPrefix(lines[0], "# ") || lines[1] != "" {
			t.Errorf("%s: starts with %q; a guide starts with \"# Title\" and a blank line", p, lines[0])
			continue
		}
		if first := lines[2]; first == "" || strings.HasPrefix(first, "```") || strings.ContainsAny(first[:1], "#|-<!") {
			t.Errorf("%s: line 3 is %q; the title is followed by a paragraph of introduction", p, first)
		}
	}
}

// TestDocLinksResolve: every relative link in the README, the guides and
// the other top-level documents names a file that exists and, when it
// names a section (#anchor) of a Markdown file, a heading that exists.
func TestDocLinksResolve(t *testing.T) {
	files := append([]string{"README.md", "TESTING.md", "BENCHMARKS.md", "join/debug/README.md"}, guides(t)...)
	for _, p := range files {
		for _, l := range links(readText(t, p)) {
			if strings.Contains(l.target, "://") || strings.HasPrefix(l.target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(l.target, "#")
			target := p
			if file != "" {
				target = filepath.Join(filepath.Dir(p), file)
				if _, err := os.Stat(target); err != nil {
					t.Errorf("%s:%d: link to %s: %v", p, l.line, l.target, err)
					continue
				}
			}
			if anchor != "" && strings.HasSuffix(target, ".md") && !anchors(readText(t, target))[anchor] {
				t.Errorf("%s:%d: link to %s: %s has no heading with the anchor #%s", p, l.line, l.target, target, anchor)
			}
		}
	}
}

func guides(t *testing.T) []string {
	t.Helper()
	ps, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

type link struct {
	line   int
	target string
}

var linkRE = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// links finds the Markdown links outside fenced code blocks.
func links(text string) []link {
	var ls []link
	fenced := false
	for i, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		for _, m := range linkRE.FindAllStringSubmatch(l, -1) {
			ls = append(ls, link{i + 1, m[1]})
		}
	}
	return ls
}

// anchors gives the anchors GitHub makes of a Markdown file's headings:
// lower case, punctuation dropped, spaces as hyphens, a repeated heading
// numbered -1, -2, ….
func anchors(text string) map[string]bool {
	as := map[string]bool{}
	seen := map[string]int{}
	fenced := false
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "```") {
			fenced = !fenced
		}
		if fenced || !strings.HasPrefix(l, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(l, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(h) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			as[a+"-"+strconv.Itoa(n)] = true
		} else {
			as[a] = true
		}
		seen[a]++
	}
	return as
}
