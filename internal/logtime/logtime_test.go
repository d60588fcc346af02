package logtime

import (
	"bytes"
	"fmt"
	"testing"
	"time"
)

func TestStampReadsLog4jAndItsVariants(t *testing.T) {
	want := time.Date(2026, 12, 5, 6, 2, 11, 123e6, time.UTC)
	for _, line := range []string{
		"2026-12-05 06:02:11,123 INFO  org.apache.flink.runtime.jobmaster.JobMaster [] - …",
		"2026-12-05 06:02:11.123 WARN x",
		"2026-12-05T06:02:11,123",
	} {
		if got, ok := Stamp([]byte(line)); !ok || !got.Equal(want) {
			t.Errorf("Stamp(%q) = %v, %v", line, got, ok)
		}
	}
	if got, ok := Stamp([]byte("2026-12-05 06:02:11 stdout: started")); !ok || !got.Equal(want.Truncate(time.Second)) {
		t.Errorf("no fraction: %v, %v", got, ok)
	}
	for _, line := range []string{"", "\tat java.lang.Thread.run(Thread.java:750)", "2026-13-05 06:02:11,123 x", "2026-12-05 06:02"} {
		if _, ok := Stamp([]byte(line)); ok {
			t.Errorf("Stamp(%q) read a time", line)
		}
	}
}

// stampedLog is n lines a second apart from t0, every seventh followed by
// a two-line stack trace without stamps.
func stampedLog(t0 time.Time, n int) []byte {
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, "%s INFO  Task [] - record %d\n", t0.Add(time.Duration(i)*time.Second).Format("2006-01-02 15:04:05,000"), i)
		if i%7 == 0 {
			b.WriteString("java.io.IOException: boom\n\tat Foo.bar(Foo.java:1)\n")
		}
	}
	return b.Bytes()
}

// TestSinceFindsTheFirstLineOfTheLastDuration checks Since against a
// line-by-line reading of the same log, and that it reads a few probes,
// not the log.
func TestSinceFindsTheFirstLineOfTheLastDuration(t *testing.T) {
	t0 := time.Date(2026, 12, 5, 6, 0, 0, 0, time.UTC)
	for _, n := range []int{1, 50, 120000} {
		log := stampedLog(t0, n)
		var read int64
		rd := func(off, k int64) ([]byte, error) {
			end := min(off+k, int64(len(log)))
			read += end - off
			return log[off:end], nil
		}
		for _, d := range []time.Duration{time.Second, time.Minute, 5 * time.Minute, 15 * time.Minute, 100 * time.Hour} {
			read = 0
			off, cutoff, err := Since(rd, int64(len(log)), d)
			if err != nil {
				t.Fatal(err)
			}
			if want := t0.Add(time.Duration(n-1)*time.Second - d); !cutoff.Equal(want) {
				t.Fatalf("n=%d d=%v: cutoff %v, want %v", n, d, cutoff, want)
			}
			// The reference: the first stamped line at or after the cutoff.
			want := int64(len(log))
			for pos := int64(0); pos < int64(len(log)); {
				if ts, ok := Stamp(log[pos:]); ok && !ts.Before(cutoff) {
					want = pos
					break
				}
				pos += int64(bytes.IndexByte(log[pos:], '\n')) + 1
			}
			if off != want {
				t.Fatalf("n=%d d=%v: Since = %d (%q), want %d (%q)", n, d, off, log[off:min(off+40, int64(len(log)))], want, log[want:min(want+40, int64(len(log)))])
			}
			if len(log) > 4<<20 && read > 3<<20 {
				t.Fatalf("n=%d d=%v: read %d bytes of %d", n, d, read, len(log))
			}
		}
	}
	if _, _, err := Since(func(off, k int64) ([]byte, error) { return []byte("no stamp here\n"), nil }, 14, time.Minute); err != ErrNoStamp {
		t.Fatalf("a log without stamps: %v", err)
	}
}
