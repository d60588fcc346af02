package debug

import (
	"fmt"
	"testing"
)

// SESSION windows over a TIMESTAMP_LTZ outside UTC merge and fire by
// instants, as Flink's, and show their bounds in table.local-time-zone.
// Rows at 1, 4, 12 and 30 minutes past the hour with a 5-minute gap make
// [1, 9), [12, 17) and [30, 35); the first fires on the third row's
// watermark, the second on the fourth's, the last at the end.
func TestLocalTimeZoneSessionWindows(t *testing.T) {
	for _, tc := range []struct {
		zone string
		utc  int // the UTC hour of the zone's local hour h
		h    string
	}{
		{"Asia/Shanghai", 0, "08"},
		{"America/New_York", 12, "08"}, // EDT, UTC-4, in June
	} {
		t.Run(tc.zone, func(t *testing.T) {
			job := "SET 'table.local-time-zone' = '" + tc.zone + `';
CREATE TABLE ev (id INT, usr STRING, ts TIMESTAMP_LTZ(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'kafka', 'format' = 'json');
SELECT window_start, window_end, COUNT(*) AS n
FROM TABLE(SESSION(TABLE ev PARTITION BY usr, DESCRIPTOR(ts), INTERVAL '5' MINUTES))
GROUP BY usr, window_start, window_end`
			data := ""
			for i, m := range []int{1, 4, 12, 30} {
				data += fmt.Sprintf(`{"id": %d, "usr": "u", "ts": "2024-06-01 %s:%s:00Z"}`+"\n", i+1, two(tc.utc), two(m))
			}
			var fired []int64
			res := run(t, job, map[string]string{"ev.jsonl": data}, func(o *Options) {
				o.OnRead = func(_ string, row int64) { fired = append(fired, -row) }
				o.OnRow = func(SinkRow) { fired = append(fired, 0) }
			})
			d := "2024-06-01 " + tc.h
			want := []string{
				"+I[" + d + ":01:00.000, " + d + ":09:00.000, 2]",
				"+I[" + d + ":12:00.000, " + d + ":17:00.000, 1]",
				"+I[" + d + ":30:00.000, " + d + ":35:00.000, 1]",
			}
			expect(t, "changelog", changelog(res.Sinks[0]), want)
			expect(t, "final", final(res.Sinks[0]), want)
			if got := fmt.Sprint(fired); got != "[-1 -2 -3 0 -4 0 0]" {
				t.Errorf("reads (-row) and firings (0): %s", got)
			}
		})
	}
}
