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
func (d *runner) windowMillis(r *rel) func(any) (int64, bool) {
	if !r.zonedWindows || d.zone == time.UTC {
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
