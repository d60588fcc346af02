package kit

import (
	"errors"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestLoadingKeepsRowsThroughAFailedReload: a first load that fails shows
// its error in place of the rows; once rows came, a failed reload keeps
// them (only the flash says so), and the next good load clears the error.
func TestLoadingKeepsRowsThroughAFailedReload(t *testing.T) {
	st := DarkStyles()
	var l Loading
	if text, show := l.Placeholder(st, 0, "loading functions…", "none yet"); !show || ansi.Strip(text) != "loading functions…" {
		t.Errorf("before any load: %q %v", text, show)
	}
	down := errors.New("agent: connection refused")
	if keep, flash := l.Take("load:x", down); keep || flash == nil {
		t.Errorf("a failed first load: keep %v, flash %v", keep, flash != nil)
	}
	if text, show := l.Placeholder(st, 0, "loading…", "none yet"); !show || !strings.Contains(ansi.Strip(text), "connection refused") {
		t.Errorf("after a failed first load: %q %v", text, show)
	}
	if keep, flash := l.Take("load:x", nil); !keep || flash == nil {
		t.Errorf("a good load after a failure: keep %v, clears the flash %v", keep, flash != nil)
	}
	if text, show := l.Placeholder(st, 0, "loading…", "no functions yet", "palink udf add …"); !show || ansi.Strip(text) != "no functions yet\npalink udf add …" {
		t.Errorf("an empty list: %q %v", text, show)
	}
	if _, show := l.Placeholder(st, 3, "loading…", "none"); show {
		t.Error("three rows are hidden behind a placeholder")
	}
	if keep, _ := l.Take("load:x", down); keep || !l.Loaded {
		t.Errorf("a failed reload: keep %v, still loaded %v", keep, l.Loaded)
	}
	if _, show := l.Placeholder(st, 3, "loading…", "none"); show {
		t.Error("a failed reload hid the rows it had")
	}
}
