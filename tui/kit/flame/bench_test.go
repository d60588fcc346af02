package flame

import (
	"testing"

	"github.com/palink/palink/tui/kit"
)

// BenchmarkView50k is one frame of a 50k-frame flame graph at 120×40, with
// the cursor a few levels down the hottest path: what a key press costs.
func BenchmarkView50k(b *testing.B) {
	root := random(50000)
	m := New(Build(root), NewStyles(kit.DarkStyles()))
	m.SetSize(120, 40)
	for range 6 {
		m.key(keyOf("down"))
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = m.View()
	}
}

// BenchmarkBuild50k is taking a new sample of 50k frames: flattening and
// sorting the tree, once, in a Cmd.
func BenchmarkBuild50k(b *testing.B) {
	root := random(50000)
	b.ReportAllocs()
	for b.Loop() {
		_ = Build(root)
	}
}
