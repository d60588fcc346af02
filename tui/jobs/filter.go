package jobs

import (
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/kit"
)

// jobQuery is a parsed `/` filter. Words are substrings that must all occur
// in the job's name or application id; `state:`, `cluster:` and `kind:`
// terms take comma-separated values, any of which may match.
type jobQuery struct {
	words    []string
	states   map[model.JobState]bool
	clusters map[string]bool
	kinds    map[model.JobKind]bool
}

// parseQuery parses a filter. A bad term is reported and left out, so the
// rest of the filter still applies while the user fixes it.
func parseQuery(s string) (jobQuery, error) {
	var q jobQuery
	var errs []error
	for _, f := range strings.Fields(s) {
		name, val, ok := strings.Cut(f, ":")
		if !ok {
			q.words = append(q.words, strings.ToLower(f))
			continue
		}
		switch strings.ToLower(name) {
		case "state", "s":
			for _, v := range splitList(val) {
				st, err := model.ParseJobState(v)
				if err != nil {
					errs = append(errs, fmt.Errorf("%s: %w", f, err))
					continue
				}
				if q.states == nil {
					q.states = map[model.JobState]bool{}
				}
				q.states[st] = true
			}
		case "cluster", "c":
			for _, v := range splitList(val) {
				if q.clusters == nil {
					q.clusters = map[string]bool{}
				}
				q.clusters[strings.ToLower(v)] = true
			}
		case "kind", "k":
			for _, v := range splitList(val) {
				k, err := model.ParseJobKind(v)
				if err != nil {
					errs = append(errs, fmt.Errorf("%s: %w", f, err))
					continue
				}
				if q.kinds == nil {
					q.kinds = map[model.JobKind]bool{}
				}
				q.kinds[k] = true
			}
		default:
			errs = append(errs, fmt.Errorf("%s: unknown term %q (use state:, cluster:, kind:)", f, name))
		}
	}
	return q, errors.Join(errs...)
}

func splitList(s string) []string {
	var out []string
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// empty reports whether the query selects everything.
func (q jobQuery) empty() bool {
	return len(q.words) == 0 && q.states == nil && q.clusters == nil && q.kinds == nil
}

// match reports whether the job passes the query.
func (q jobQuery) match(j *api.JobView) bool {
	if q.states != nil && !q.states[j.State] {
		return false
	}
	if q.clusters != nil && !q.clusters[strings.ToLower(j.Cluster)] {
		return false
	}
	if q.kinds != nil && !q.kinds[j.Kind] {
		return false
	}
	if len(q.words) == 0 {
		return true
	}
	name := strings.ToLower(j.Name)
	app := strings.ToLower(j.AppID)
	for _, w := range q.words {
		if !strings.Contains(name, w) && !strings.Contains(app, w) && j.ID != w {
			return false
		}
	}
	return true
}

// filterField is the table's `/` prompt. It has the keyboard while open,
// and the table applies its text as the filter as it changes.
type filterField struct {
	input  textinput.Model
	active bool
}

func newFilterField(st *kit.Styles) filterField {
	in := textinput.New()
	in.Prompt = "/"
	in.Placeholder = "name, state:FAILED, cluster:prod"
	in.SetStyles(st.Input)
	in.SetVirtualCursor(true)
	return filterField{input: in}
}

// open edits text in a table width cells wide.
func (f *filterField) open(text string, width int) tea.Cmd {
	f.active = true
	f.input.SetValue(text)
	f.input.CursorEnd()
	f.fit(width)
	return f.input.Focus()
}

// close gives the keyboard back; empty clears the text too.
func (f *filterField) close(empty bool) {
	f.active = false
	f.input.Blur()
	if empty {
		f.input.SetValue("")
	}
}

// typed gives a key or a paste to the field.
func (f *filterField) typed(msg tea.Msg, width int) tea.Cmd {
	var cmd tea.Cmd
	f.input, cmd = f.input.Update(msg)
	f.fit(width)
	return cmd
}

// fit sizes the field to its text, so the title keeps room for the count
// and for a filter error.
func (f *filterField) fit(width int) {
	f.input.SetWidth(kit.Clamp(ansi.StringWidth(f.input.Value())+1, ansi.StringWidth(f.input.Placeholder)+1, max(width/2, 20)))
}
