package kit

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// fruitTable is a Table of fruits with a filter, whose loads answer seq.
func fruitTable() (*Table[fruit], *[]int) {
	e := textEnv()
	var asked []int
	t := NewTable(e, TableOf[fruit]{
		Key:    "load:fruits",
		Load:   func(seq int) tea.Cmd { asked = append(asked, seq); return nil },
		ID:     func(f fruit) string { return f.name },
		Page:   func() int { return 10 },
		Filter: "name, origin",
		Match:  func(f fruit) []string { return []string{f.name, f.origin} },
		Noun:   "fruit",
	})
	return &t, &asked
}

// load answers the load in flight with items.
func load(t *Table[fruit], asked []int, items []fruit, err error) bool {
	keep, _ := t.Loaded(asked[len(asked)-1], items, err)
	return keep
}

func selected(t *Table[fruit]) string {
	f, ok := t.Selected()
	if !ok {
		return "(none)"
	}
	return f.name
}

// TestTableCursorFollowsItsItem: across a reload that brings a row above
// it and one that takes its item away, and through a filter, the cursor
// stays on what the user chose, or the nearest of its neighbours.
func TestTableCursorFollowsItsItem(t *testing.T) {
	tb, asked := fruitTable()
	tb.Refresh()
	load(tb, *asked, fruits, nil)
	tb.Update(tea.KeyPressMsg{Code: 'j', Text: "j"}, 80)
	if got := selected(tb); got != "persimmon" {
		t.Fatalf("j selects %s", got)
	}
	tb.Refresh()
	load(tb, *asked, append([]fruit{{name: "date"}}, fruits...), nil)
	if got := selected(tb); got != "persimmon" {
		t.Errorf("a row above moved the cursor to %s", got)
	}
	tb.Refresh()
	load(tb, *asked, []fruit{{name: "date"}, fruits[0], fruits[2]}, nil)
	if got := selected(tb); got != "fig" {
		t.Errorf("its item gone, the cursor went to %s, want the one below (fig)", got)
	}
	tb.Update(tea.KeyPressMsg{Code: '/', Text: "/"}, 80)
	if !tb.Capturing() {
		t.Fatal("/ did not open the filter")
	}
	for _, r := range "smyr" {
		tb.Update(tea.KeyPressMsg{Code: r, Text: string(r)}, 80)
	}
	if got := len(tb.Rows()); got != 1 || selected(tb) != "fig" {
		t.Errorf("filter smyr: %d rows, on %s", got, selected(tb))
	}
	tb.Update(tea.KeyPressMsg{Code: tea.KeyEnter}, 80)
	if _, handled := tb.Back(); !handled || len(tb.Rows()) != 3 || selected(tb) != "fig" {
		t.Errorf("esc: handled, %d rows, on %s; want the filter gone, the cursor kept", len(tb.Rows()), selected(tb))
	}
	if _, handled := tb.Back(); handled {
		t.Error("esc without a filter did not let the view close")
	}
}

// TestTableLoads: a late answer is dropped; a failed first load shows its
// error in place of the rows, a failed reload keeps them; a filter that
// lets nothing through says so.
func TestTableLoads(t *testing.T) {
	st := DarkStyles()
	tb, asked := fruitTable()
	tb.Refresh()
	first := (*asked)[0]
	if text, show := tb.Placeholder(st, "loading fruits…", "no fruit yet"); !show || ansi.Strip(text) != "loading fruits…" {
		t.Errorf("before the first answer: %q", ansi.Strip(text))
	}
	if keep, _ := tb.Loaded(first+1, fruits, nil); keep || tb.IsLoaded() {
		t.Error("an answer to another load was taken")
	}
	down := errors.New("agent: connection refused")
	load(tb, *asked, nil, down)
	if text, _ := tb.Placeholder(st, "loading…"); !strings.Contains(ansi.Strip(text), "connection refused") {
		t.Errorf("a failed first load shows %q", ansi.Strip(text))
	}
	tb.Refresh()
	load(tb, *asked, fruits, nil)
	tb.Refresh()
	if load(tb, *asked, nil, down) || len(tb.Rows()) != 3 || tb.Err() == nil {
		t.Errorf("a failed reload: %d rows, err %v; want the rows kept and the error known", len(tb.Rows()), tb.Err())
	}
	if _, show := tb.Placeholder(st, "loading…"); show {
		t.Error("a failed reload hid the rows")
	}
	tb.Update(tea.KeyPressMsg{Code: '/', Text: "/"}, 80)
	tb.Update(tea.PasteMsg{Content: "kiwi"}, 80)
	if text, show := tb.Placeholder(st, "loading…"); !show || ansi.Strip(text) != "no fruit matches — esc clears the filter" {
		t.Errorf("a filter that lets none through: %q", ansi.Strip(text))
	}
	tb.Refresh()
	n := len(*asked)
	tb.Reset()
	tb.Refresh()
	if len(tb.Items()) != 0 || tb.IsLoaded() || len(*asked) != n+1 {
		t.Error("Reset kept the old items, or the load in flight held the next one back")
	}
}

// TestGetSaysWhatFailed: a read's failure names the read and keeps its
// cause; its success answers the value.
func TestGetSaysWhatFailed(t *testing.T) {
	e := textEnv()
	c := CallOf(e, e.Svc)
	c.Timeout = time.Second
	down := errors.New("agent: connection refused")
	type answer struct {
		n   int
		err error
	}
	msg := Get(c, "list fruits", func(context.Context) (int, error) { return 0, down },
		func(n int, err error) tea.Msg { return answer{n, err} })()
	if a := msg.(answer); !errors.Is(a.err, down) || a.err.Error() != "list fruits: agent: connection refused" {
		t.Errorf("a failed read answers %v", a.err)
	}
	msg = Get(c, "list fruits", func(ctx context.Context) (int, error) {
		if _, ok := ctx.Deadline(); !ok {
			return 0, errors.New("no timeout")
		}
		return 3, nil
	}, func(n int, err error) tea.Msg { return answer{n, err} })()
	if a := msg.(answer); a.err != nil || a.n != 3 {
		t.Errorf("a read answers %d, %v", a.n, a.err)
	}
}
