package dag

import (
	"testing"

	"github.com/palink/palink/tui/kit"
)

// BenchmarkLayoutAndFrame is what a refresh of a 200-vertex job graph
// costs: the layout, then one frame at 120×40 around the cursor.
func BenchmarkLayoutAndFrame(b *testing.B) {
	g := big(200)
	st := NewStyles(kit.DarkStyles())
	for _, md := range []Mode{Auto, LeftRight, TopDown} {
		b.Run(md.String(), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				d := Layout(g, Options{Width: 120, Mode: md})
				r, _ := d.Box("v117")
				_ = d.Render(&st, Rect{X: r.X - 40, Y: r.Y - 15, W: 120, H: 39}, "v117", "v42")
			}
		})
	}
}

// BenchmarkFrame is one frame of a laid-out graph: what a key press costs.
func BenchmarkFrame(b *testing.B) {
	st := NewStyles(kit.DarkStyles())
	m := New(big(200), st)
	m.SetSize(120, 40)
	m.SetMode(LeftRight)
	m.Select("v117")
	b.ReportAllocs()
	for b.Loop() {
		_ = m.View()
	}
}
