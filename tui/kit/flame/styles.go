package flame

import (
	"image/color"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/palink/palink/tui/kit"
)

// Styles are the chart's looks. Frames carry a muted background by family
// so that the eye goes to the width, not the colour; the hottest path is
// bold and underlined, the cursor reversed, a search match in the match
// colour, so that nothing relies on colour alone.
type Styles struct {
	Frames  [nFamilies]lipgloss.Style // a frame's cells, by family
	Hot     [nFamilies]lipgloss.Style // a frame on the hottest path
	Narrow  [nFamilies]lipgloss.Style // a frame one cell wide: ▌ in its colour
	Cursor  lipgloss.Style
	Match   lipgloss.Style
	Dim     lipgloss.Style // tails, shades, the header and status
	Heading lipgloss.Style
}

// NewStyles takes the chart's looks from the TUI's theme: greys from the
// same 256-colour palette as kit's, tinted by family.
func NewStyles(k *kit.Styles) Styles {
	fg := lipgloss.Color("254")
	bg := [nFamilies]color.Color{
		FamilyUser: lipgloss.Color("101"), FamilyJVM: lipgloss.Color("60"), FamilyFlink: lipgloss.Color("66"),
		FamilyLibrary: lipgloss.Color("95"), FamilyRoot: lipgloss.Color("239"),
	}
	if !k.Dark {
		fg = lipgloss.Color("235")
		bg = [nFamilies]color.Color{
			FamilyUser: lipgloss.Color("187"), FamilyJVM: lipgloss.Color("146"), FamilyFlink: lipgloss.Color("152"),
			FamilyLibrary: lipgloss.Color("181"), FamilyRoot: lipgloss.Color("250"),
		}
	}
	st := Styles{Cursor: k.Cursor.Bold(true), Match: k.Match, Dim: k.Dim, Heading: k.Title}
	for f := range nFamilies {
		st.Frames[f] = lipgloss.NewStyle().Foreground(fg).Background(bg[f])
		st.Hot[f] = st.Frames[f].Bold(true).Underline(true)
		st.Narrow[f] = lipgloss.NewStyle().Foreground(bg[f])
	}
	return st
}

func (s *Styles) painter() *painter {
	p := &painter{cursor: split(s.Cursor), match: split(s.Match), dim: split(s.Dim)}
	for f := range nFamilies {
		p.frame[f], p.hot[f], p.narrow[f] = split(s.Frames[f]), split(s.Hot[f]), split(s.Narrow[f])
	}
	return p
}

// split renders a sentinel and keeps what comes before and after it, so
// that a frame costs a string build instead of a Render per span.
func split(st lipgloss.Style) paint {
	const mark = "\uE000" // private use: no style drops or splits it
	out := st.Render(mark)
	i := strings.Index(out, mark)
	if i < 0 {
		return paint{}
	}
	return paint{out[:i], out[i+len(mark):]}
}
