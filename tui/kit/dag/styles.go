package dag

import (
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/palink/palink/tui/kit"
)

// Styles are the graph's looks by meaning. Nothing relies on colour alone:
// the cursor's box has a heavy border and a reversed title, the
// highlighted one a ⚠ on its border, back edges are dashed.
type Styles struct {
	Edge, BackEdge, Label     lipgloss.Style
	Border, Title             lipgloss.Style
	CursorBorder, CursorTitle lipgloss.Style
	HotBorder, HotTitle       lipgloss.Style
	Tones                     [5]lipgloss.Style // by Tone
	Status                    lipgloss.Style
}

// NewStyles takes the graph's looks from the TUI's theme.
func NewStyles(k *kit.Styles) Styles {
	return Styles{
		Edge:         k.Dim,
		BackEdge:     k.Info,
		Label:        k.Label,
		Border:       k.Border,
		Title:        k.Title,
		CursorBorder: k.Bold,
		CursorTitle:  k.Cursor,
		HotBorder:    k.Warn,
		HotTitle:     k.Warn.Bold(true),
		Tones:        [5]lipgloss.Style{ToneNormal: k.Text, ToneDim: k.Dim, ToneGood: k.StateRunning, ToneWarn: k.Warn, ToneBad: k.StateFailed},
		Status:       k.Dim,
	}
}

// role is what a cell shows, which picks its style.
type role uint8

const (
	roleNone role = iota
	roleEdge
	roleBack
	roleLabel
	roleBorder
	roleBorderCursor
	roleBorderHot
	roleTitle
	roleTitleCursor
	roleTitleHot
	roleNormal // the tones, in Tone order
	nRoles     = roleNormal + 5
)

func toneRole(t Tone) role {
	if t > ToneBad {
		t = ToneNormal
	}
	return roleNormal + role(t)
}

// codes is each role's opening and closing escape sequences, taken once per
// frame so that a frame costs one string build instead of a Render per run.
type codes [nRoles][2]string

func (s *Styles) codes() *codes {
	var c codes
	set := func(r role, st lipgloss.Style) { c[r] = split(st) }
	set(roleEdge, s.Edge)
	set(roleBack, s.BackEdge)
	set(roleLabel, s.Label)
	set(roleBorder, s.Border)
	set(roleBorderCursor, s.CursorBorder)
	set(roleBorderHot, s.HotBorder)
	set(roleTitle, s.Title)
	set(roleTitleCursor, s.CursorTitle)
	set(roleTitleHot, s.HotTitle)
	for t, st := range s.Tones {
		set(toneRole(Tone(t)), st)
	}
	return &c
}

// split renders a sentinel and keeps what comes before and after it.
func split(st lipgloss.Style) [2]string {
	const mark = "\uE000" // private use: no style drops or splits it
	out := st.Render(mark)
	i := strings.Index(out, mark)
	if i < 0 {
		return [2]string{}
	}
	return [2]string{out[:i], out[i+len(mark):]}
}
