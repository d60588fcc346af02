package editor_test

import (
	"strings"
	"testing"

	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/tuitest"
)

// BenchmarkEditorKeystroke is one key typed into a 2,000-line script and
// the frame drawn after it: the buffer edit, the highlighting of the
// whole text and the visible lines.
func BenchmarkEditorKeystroke(b *testing.B) {
	text := strings.Repeat(enrichSQL+"\n", 2000/strings.Count(enrichSQL+"\n", "\n"))
	f := withVersions(tuitest.NewFixture())
	f.Versions["j001"][2].SQL = text
	h := apptest.New(b, f, 120, 40, tui.Options{Context: "test"})
	ed := openEditor(h, "orders-enrich")
	chord(h, "ctrl+end")
	b.ReportMetric(float64(ed.Lines()), "lines")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ed.Update(edKey("x"))
		_ = h.Render()
	}
}
