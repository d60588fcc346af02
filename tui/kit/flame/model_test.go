package flame

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

const (
	invoke      = "org.apache.flink.streaming.runtime.tasks.StreamTask.invoke:745"
	taskLoop    = "org.apache.flink.streaming.runtime.tasks.StreamTask.runMailboxLoop:806"
	mailboxLoop = "org.apache.flink.streaming.runtime.tasks.mailbox.MailboxProcessor.runMailboxLoop:203"
	foreach     = "scala.collection.Iterator.foreach:943"
	joinRunner  = "org.apache.flink.table.runtime.operators.join.lookup.LookupJoinRunner.processElement:93"
	executeQ    = "com.mysql.cj.jdbc.ClientPreparedStatement.executeQuery:1003"
)

func short(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = label(n, 24)
	}
	return strings.Join(out, " ")
}

// ↓ follows the hottest callee; ←/→ move along the row; ↑ and ↓ return
// to the callee left rather than the hottest.
func TestKeysMoveOverFrames(t *testing.T) {
	m := newModel(t, lookupJoin(t), 120, 40)
	got := press(&m, "down", "down", "down", "down", "j", "j")
	if got[4] != taskLoop || got[5] != mailboxLoop {
		t.Fatalf("down went %s, want the hottest path to %s", short(got), label(mailboxLoop, 24))
	}
	got = press(&m, "right", "l", "up", "down", "left", "h")
	want := []string{foreach, foreach, taskLoop, foreach, mailboxLoop, mailboxLoop}
	if short(got) != short(want) {
		t.Errorf("cursor went %s, want %s", short(got), short(want))
	}
}

// A frame narrower than a cell is not a stop for ←/→: Task.restoreAndInvoke
// has 8 samples of 1,000, under a cell at 120 columns, 0.96 of one.
func TestKeysSkipFramesTooNarrow(t *testing.T) {
	m := newModel(t, lookupJoin(t), 120, 40)
	press(&m, "down", "down", "down", "down")
	if got := press(&m, "right"); got[0] != invoke {
		t.Errorf("right from %s went to %s", label(invoke, 24), got[0])
	}
}

func TestZoomInAndOut(t *testing.T) {
	m := newModel(t, lookupJoin(t), 80, 24)
	for m.Cursor().Name != joinRunner {
		if before := m.Cursor().Name; press(&m, "down")[0] == before {
			t.Fatal("the hottest path does not reach the lookup join")
		}
	}
	press(&m, "enter")
	if !m.Zoomed() {
		t.Fatal("enter did not zoom")
	}
	lines := strings.Split(ansi.Strip(m.View()), "\n")
	if !strings.HasPrefix(lines[0], "zoomed on LookupJoinRunner") || !strings.HasPrefix(lines[1], "LookupJoinRunner.processElement:93  ") {
		t.Errorf("zoomed view starts:\n%s\n%s", lines[0], lines[1])
	}
	if got := press(&m, "up"); got[0] != joinRunner {
		t.Errorf("up from the zoom root went to %s", got[0])
	}
	press(&m, "down", "down", "down", "down")
	press(&m, "esc")
	if m.Zoomed() || m.Cursor().Name != "com.mysql.cj.jdbc.ClientPreparedStatement.executeQuery:1003" {
		t.Errorf("esc left zoomed %v on %s", m.Zoomed(), m.Cursor().Name)
	}
	press(&m, "backspace")
	if m.Zoomed() {
		t.Error("backspace with no zoom zoomed")
	}
}

func TestSearch(t *testing.T) {
	m := newModel(t, lookupJoin(t), 120, 40)
	m.SetSearch("MySQL")
	frames, share := m.Search()
	if frames != 7 || fmt.Sprintf("%.2f", share) != "0.43" {
		t.Errorf("mysql matches %d frames, %.2f of samples; want 7 and the outermost's 0.43", frames, share)
	}
	got := press(&m, "n", "n", "N", "N")
	if got[0] != executeQ || got[1] == executeQ || got[2] != executeQ {
		t.Errorf("n, n, N, N went %s", short(got))
	}
	m.SetSearch("")
	if frames, _ := m.Search(); frames != 0 || strings.Contains(ansi.Strip(m.View()), "/mysql") {
		t.Error("clearing the search left matches")
	}
}

// A new sample keeps the zoom and the cursor on the frames of the same
// names.
func TestSetRootKeepsPlace(t *testing.T) {
	m := newModel(t, lookupJoin(t), 120, 40)
	for m.Cursor().Name != joinRunner {
		press(&m, "down")
	}
	press(&m, "enter", "down", "down")
	at := m.Cursor().Path
	next := lookupJoin(t)
	next.Value = 2000 // another sample, as large again
	m.SetTree(Build(next))
	if !m.Zoomed() || strings.Join(m.Cursor().Path, "/") != strings.Join(at, "/") {
		t.Errorf("after a refresh: zoomed %v, cursor on %v", m.Zoomed(), m.Cursor().Path)
	}
	m.SetTree(Build(Node{Name: "root", Value: 3, Children: []Node{{Name: "other", Value: 3}}}))
	if m.Zoomed() || m.Cursor().Depth != 0 {
		t.Errorf("a graph without those frames kept zoomed %v, cursor at depth %d", m.Zoomed(), m.Cursor().Depth)
	}
}

// Every size gives exactly that size, whatever the keys.
func TestEverySizeFits(t *testing.T) {
	for w := 1; w <= 130; w += 9 {
		for _, h := range []int{1, 2, 3, 7, 24} {
			t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
				m := newModel(t, lookupJoin(t), w, h)
				m.SetSearch("flink")
				for _, k := range []string{"", "down", "down", "right", "enter", "down", "n", "esc", "left"} {
					if k != "" {
						press(&m, k)
					}
					checkFrame(t, m.View(), w, h)
				}
			})
		}
	}
}

// A stack deeper than the screen scrolls with the cursor, and one far
// deeper than any goroutine's stack would allow to recurse is fine.
func TestDeepStack(t *testing.T) {
	const depth = 20000
	root := Node{Name: "leaf", Value: 1}
	for i := depth - 1; i >= 0; i-- {
		root = Node{Name: fmt.Sprintf("java.lang.F%d.call:1", i), Value: 1, Children: []Node{root}}
	}
	m := newModel(t, root, 40, 10)
	for range 30 {
		press(&m, "down")
	}
	out := ansi.Strip(m.View())
	checkFrame(t, m.View(), 40, 10)
	if m.Cursor().Depth != 30 || !strings.Contains(out, "F30.call") {
		t.Errorf("cursor at depth %d, view:\n%s", m.Cursor().Depth, out)
	}
}

func TestOddInput(t *testing.T) {
	// No samples at all.
	m := newModel(t, Node{Name: "root"}, 30, 5)
	if out := m.View(); !strings.Contains(out, "no samples") {
		t.Errorf("an empty graph shows:\n%s", out)
	}
	// Callees claiming more than their caller: the caller widens to them,
	// nothing spills past the width.
	m = newModel(t, Node{Name: "root", Value: 1, Children: []Node{{Name: "a", Value: 5}, {Name: "b", Value: 5}}}, 30, 5)
	checkFrame(t, m.View(), 30, 5)
	if got := press(&m, "down", "right"); got[1] != "b" {
		t.Errorf("cursor went %v", got)
	}
}

// The chart holds a span per frame drawn, never one per frame of the tree.
func TestChartIsBoundedByTheScreen(t *testing.T) {
	root := random(50000)
	tr := Build(root)
	if len(tr.f) < 49000 {
		t.Fatalf("the random tree has %d frames", len(tr.f))
	}
	c := tr.layout(0, 0, 38, 120)
	spans := 0
	for _, row := range c {
		spans += len(row)
	}
	if spans > 38*120 {
		t.Errorf("%d spans for 38×120 cells", spans)
	}
}

func TestFamilyAndLabel(t *testing.T) {
	for name, want := range map[string]Family{
		"java.lang.Thread.run:829": FamilyJVM, "jdk.internal.misc.Unsafe.park:-2": FamilyJVM,
		"org.apache.flink.runtime.taskmanager.Task.run:568": FamilyFlink,
		"com.mysql.cj.NativeSession.execSQL:665":            FamilyLibrary,
		"com.example.dim.UserLookupFunction.eval:42":        FamilyUser, "root": FamilyRoot,
	} {
		if got := FamilyOf(name); got != want {
			t.Errorf("FamilyOf(%q) = %v, want %v", name, got, want)
		}
	}
	for _, c := range []struct {
		in   string
		w    int
		want string
	}{
		{"java.lang.Thread.run:829", 30, "java.lang.Thread.run:829"},
		{"java.lang.Thread.run:829", 15, "Thread.run:829"},
		{"java.lang.Thread.run:829", 12, "Thread.run"},
		{"java.lang.Thread.run:829", 6, "Threa…"},
		{"root", 1, "…"},
	} {
		if got := label(c.in, c.w); got != c.want {
			t.Errorf("label(%q, %d) = %q, want %q", c.in, c.w, got, c.want)
		}
	}
}
