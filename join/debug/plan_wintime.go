package debug

import (
	"time"

	"github.com/palink/palink/join/debug/stream"
)

// Windows over a TIMESTAMP_LTZ (a rowtime declared on one, or PROCTIME())
// are cut in the session time zone (table.local-time-zone): their
// window_start and window_end are that zone's wall-clock TIMESTAMPs. They
// fire when the watermark (or the processing-time clock), an instant,
// passes the instant their end stands for in that zone, as Flink's window
// operators do with their shift time zone (daylight saving included).

// windowMillis reads a window_end of a relation's windows as the epoch
// milliseconds of the instant it stands for.
func (d *runner) windowMillis(cols scope) func(any) (int64, bool) {
	if !ltzWindows(cols) || d.zone == time.UTC {
		return stream.Millis
	}
	zone := d.zone
	return func(v any) (int64, bool) {
		t, ok := v.(time.Time)
		if !ok {
			return 0, false
		}
		return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), zone).UnixMilli(), true
	}
}

// ltzWindows says whether a relation's windows are over a TIMESTAMP_LTZ.
func ltzWindows(cols scope) bool {
	for _, c := range cols {
		if c.win == winTime && c.typ.Kind == tLTZ3.Kind {
			return true
		}
	}
	return false
}

// procWindows says whether a relation's windows are by processing time.
func procWindows(cols scope) bool {
	for _, c := range cols {
		if c.win == winTime && c.time == proctime {
			return true
		}
	}
	return false
}
