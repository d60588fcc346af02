package editor

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/sergi/go-diff/diffmatchpatch"

	"github.com/palink/palink/tui/kit"
)

// diffKind is what a line of a diff is.
type diffKind int

const (
	diffSame diffKind = iota
	diffDel
	diffAdd
)

// diffLine is one line of a line diff, with its numbers in the old and the
// new text (0 where it has none).
type diffLine struct {
	kind     diffKind
	old, new int
	text     string
}

// lineDiff compares two texts line by line (go-diff's line mode: lines
// become runes, the runes are diffed, and back).
func lineDiff(a, b string) []diffLine {
	dmp := diffmatchpatch.New()
	ra, rb, lines := dmp.DiffLinesToRunes(a, b)
	diffs := dmp.DiffCharsToLines(dmp.DiffMainRunes(ra, rb, false), lines)
	var out []diffLine
	o, n := 1, 1
	for _, d := range diffs {
		text := strings.TrimSuffix(d.Text, "\n")
		if d.Text == "" {
			continue
		}
		for _, l := range strings.Split(text, "\n") {
			switch d.Type {
			case diffmatchpatch.DiffEqual:
				out = append(out, diffLine{kind: diffSame, old: o, new: n, text: l})
				o, n = o+1, n+1
			case diffmatchpatch.DiffDelete:
				out = append(out, diffLine{kind: diffDel, old: o, text: l})
				o++
			case diffmatchpatch.DiffInsert:
				out = append(out, diffLine{kind: diffAdd, new: n, text: l})
				n++
			}
		}
	}
	return out
}

// hunk is a run of changes with context around it.
type hunk struct {
	lines []diffLine
}

// header is the unified diff's "@@ -12,7 +12,8 @@".
func (h hunk) header() string {
	var oStart, oLen, nStart, nLen int
	for _, l := range h.lines {
		if l.kind != diffAdd {
			if oStart == 0 {
				oStart = l.old
			}
			oLen++
		}
		if l.kind != diffDel {
			if nStart == 0 {
				nStart = l.new
			}
			nLen++
		}
	}
	return fmt.Sprintf("@@ -%d,%d +%d,%d @@", oStart, oLen, nStart, nLen)
}

// hunks groups the changes with ctx lines of context around them; changes
// closer than twice that share a hunk.
func hunks(lines []diffLine, ctx int) []hunk {
	var out []hunk
	n := len(lines)
	for i := 0; i < n; {
		for i < n && lines[i].kind == diffSame {
			i++
		}
		if i == n {
			break
		}
		start := max(i-ctx, 0)
		end := i
		for {
			for end < n && lines[end].kind != diffSame {
				end++
			}
			j := end
			for j < n && lines[j].kind == diffSame {
				j++
			}
			if j < n && j-end <= 2*ctx {
				end = j
				continue
			}
			break
		}
		stop := min(end+ctx, n)
		out = append(out, hunk{lines: lines[start:stop]})
		i = stop
	}
	return out
}

// diffScreen shows the diff of two versions of a job's SQL, unified or
// side by side.
type diffScreen struct {
	env              *kit.Env
	title            string
	oldName, newName string
	lines            []diffLine
	sideBySide       bool
	pager            kit.Pager
	width, height    int
}

func newDiffScreen(e *kit.Env, title, oldName, newName, a, b string) *diffScreen {
	return &diffScreen{env: e, title: title, oldName: oldName, newName: newName, lines: lineDiff(a, b), pager: kit.NewPager()}
}

func (m *diffScreen) Title() string             { return m.title }
func (m *diffScreen) Capturing() bool           { return false }
func (m *diffScreen) ShortHelp() []key.Binding  { return diffShort(m.env.Keys) }
func (m *diffScreen) FullHelp() [][]key.Binding { return DiffHelp(m.env.Keys) }

func (m *diffScreen) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.pager.SetSize(m.width-2, max(m.height-2, 1))
	case tea.KeyPressMsg:
		if key.Matches(msg, m.env.Keys.Versions.DiffMode) {
			m.sideBySide = !m.sideBySide
			m.pager.ToTop()
			return m, nil
		}
		m.pager.SetLines(m.rendered())
		m.pager.Key(m.env.Keys.Nav, msg)
	}
	return m, nil
}

// rendered is every line of the diff as shown, in the current mode.
func (m *diffScreen) rendered() []string {
	ed := &m.env.Styles.Editor
	inner := max(m.width-2, 10)
	hs := hunks(m.lines, 3)
	if len(hs) == 0 {
		return []string{m.env.Styles.Dim.Render(" the two versions have the same text")}
	}
	var out []string
	if !m.sideBySide {
		for _, h := range hs {
			out = append(out, ed.DiffHunk.Render(h.header()))
			for _, l := range h.lines {
				switch l.kind {
				case diffDel:
					out = append(out, ed.DiffDel.Render(fmt.Sprintf("%4d      - %s", l.old, tabsOut(l.text))))
				case diffAdd:
					out = append(out, ed.DiffAdd.Render(fmt.Sprintf("     %4d + %s", l.new, tabsOut(l.text))))
				default:
					out = append(out, fmt.Sprintf("%4d %4d   %s", l.old, l.new, tabsOut(l.text)))
				}
			}
		}
		return out
	}
	half := (inner - 3) / 2
	cell := func(num int, text string, st func(string) string) string {
		if num == 0 {
			return strings.Repeat(" ", half)
		}
		return st(kit.Fit(fmt.Sprintf("%4d %s", num, tabsOut(text)), half))
	}
	plain := func(s string) string { return s }
	for _, h := range hs {
		out = append(out, ed.DiffHunk.Render(h.header()))
		for i := 0; i < len(h.lines); {
			l := h.lines[i]
			if l.kind == diffSame {
				out = append(out, cell(l.old, l.text, plain)+" │ "+cell(l.new, l.text, plain))
				i++
				continue
			}
			// Pair a block of deletions with the insertions after it.
			var dels, adds []diffLine
			for i < len(h.lines) && h.lines[i].kind == diffDel {
				dels = append(dels, h.lines[i])
				i++
			}
			for i < len(h.lines) && h.lines[i].kind == diffAdd {
				adds = append(adds, h.lines[i])
				i++
			}
			for k := 0; k < max(len(dels), len(adds)); k++ {
				left, right := strings.Repeat(" ", half), strings.Repeat(" ", half)
				if k < len(dels) {
					left = cell(dels[k].old, dels[k].text, func(s string) string { return ed.DiffDel.Render(s) })
				}
				if k < len(adds) {
					right = cell(adds[k].new, adds[k].text, func(s string) string { return ed.DiffAdd.Render(s) })
				}
				out = append(out, left+" │ "+right)
			}
		}
	}
	return out
}

func tabsOut(s string) string { return strings.ReplaceAll(s, "\t", "    ") }

func (m *diffScreen) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	st := m.env.Styles
	lines := m.rendered()
	m.pager.SetLines(lines)
	from, to := m.pager.Window(len(lines))
	mode := "unified"
	if m.sideBySide {
		mode = "side by side"
	}
	adds, dels := 0, 0
	for _, l := range m.lines {
		switch l.kind {
		case diffAdd:
			adds++
		case diffDel:
			dels++
		}
	}
	note := fmt.Sprintf("%s %s · %s", st.Editor.DiffAdd.Render(fmt.Sprintf("+%d", adds)), st.Editor.DiffDel.Render(fmt.Sprintf("-%d", dels)), mode)
	title := st.Title.Render(m.title) + st.Dim.Render(" · "+m.oldName+" → "+m.newName)
	return kit.Box(st, title, note, lines[from:to], m.width, m.height)
}
