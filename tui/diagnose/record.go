package diagnose

import (
	"fmt"
	"strings"
	"time"

	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/kit"
)

// recordView is the checkpoint without the JobManager's figures: why
// there are none, then what palink recorded of it.
func (m *Checkpoint) recordView(title string, w int) []string {
	st := m.env.Styles
	var why string
	switch {
	case m.c != nil && m.c.Gone != nil:
		why = st.Error.Render("✖ " + m.c.Gone.Why())
	case m.rec != nil && m.rec.CheckID == 0:
		why = st.Dim.Render("the JobManager cannot be asked of it: its checkpoint id is not known")
	case m.rec != nil && m.rec.FlinkJobID != "" && m.rec.FlinkJobID != m.job.FlinkJobID:
		why = st.Dim.Render(fmt.Sprintf("the JobManager has figures of the job's current run only; this is of an earlier one (Flink job %s)", kit.ShortID(m.rec.FlinkJobID, 4)))
	}
	lines := []string{kit.Fit(title, w)}
	if why != "" {
		if kit.Width(title)+2+kit.Width(why) <= w {
			lines[0] = kit.Fit(title+"  "+why, w)
		} else {
			for _, l := range kit.Wrap(why, max(w-2, 10)) {
				lines = append(lines, " "+l)
			}
		}
	}
	if m.c != nil {
		for _, n := range m.c.Notes {
			lines = append(lines, " "+st.Warn.Render("⚠ "+n))
		}
	}
	lines = append(lines, "")
	rec := m.recorded()
	if rec == nil {
		return append(lines, " "+st.Dim.Render("palink has no record of it either: it forgets the checkpoints Flink subsumed"))
	}
	return append(lines, RecordLines(st, m.env.Now, *rec, w)...)
}

// recordIndent is where a record's values start, after their labels; a
// long path wraps under itself.
const recordIndent = 14

// RecordLines are what palink recorded of a restore point, at most w
// cells wide and never cut: a path too long for a line wraps. Pure, for
// the tests.
func RecordLines(st *kit.Styles, now time.Time, rp model.RestorePoint, w int) []string {
	out := []string{" " + st.Section.Render("palink's record of it")}
	room := max(w-recordIndent, 10)
	pad := strings.Repeat(" ", recordIndent)
	kv := func(label, value string) {
		lines := kit.Wrap(value, room)
		if label == "path" {
			lines = kit.WrapPath(value, room)
		}
		for i, l := range lines {
			if i == 0 {
				out = append(out, "   "+st.Label.Render(fmt.Sprintf("%-10s", label))+" "+l)
			} else {
				out = append(out, pad+l)
			}
		}
	}
	what := rp.Kind.String()
	if rp.Kind == model.Savepoint || rp.Status != model.SavepointCompleted {
		what += " · " + rp.Status.String()
	}
	kv("kind", what)
	kv("path", rp.Path)
	kv("completed", fmt.Sprintf("%s (%s)", kit.Ago(now, rp.Time), kit.ClockTime(now, rp.Time)))
	if rp.Size > 0 {
		kv("size", kit.Bytes(rp.Size))
	}
	kv("taken by", kit.OrDash(rp.Origin))
	if rp.FlinkJobID != "" || rp.CheckID > 0 {
		id := "id unknown"
		if rp.CheckID > 0 {
			id = fmt.Sprintf("checkpoint %d", rp.CheckID)
		}
		kv("Flink job", kit.OrDash(kit.ShortID(rp.FlinkJobID, 4))+" · "+id)
	}
	if rp.Error != "" {
		for i, l := range kit.Wrap(rp.Error, room) {
			if i == 0 {
				out = append(out, "   "+st.Label.Render(fmt.Sprintf("%-10s", "error"))+" "+st.Error.Render(l))
			} else {
				out = append(out, pad+st.Error.Render(l))
			}
		}
	}
	return out
}
