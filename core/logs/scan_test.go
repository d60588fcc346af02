package logs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/palink/palink/core/api"
)

// memReader serves data by range, at most step bytes per read, like a
// server that answers less than asked.
func memReader(data []byte, step int64, reads *int) ReadFunc {
	return func(ctx context.Context, off int64, tail bool, limit int64) (api.LogChunk, error) {
		if reads != nil {
			*reads++
		}
		size := int64(len(data))
		limit = min(chunkLimit(limit), step)
		if tail {
			off = max(size-limit, 0)
		}
		off = min(off, size)
		end := min(off+limit, size)
		return api.LogChunk{Data: bytes.Clone(data[off:end]), Offset: off, Size: size, More: end < size}, nil
	}
}

// wholeFind is the obvious whole-file search the chunked scan must agree
// with: every line start, in order, checked with the query.
func wholeFind(data []byte, q api.LogQuery, from int64, backward bool) (int64, bool) {
	var starts []int64
	for off := int64(0); off < int64(len(data)); {
		starts = append(starts, off)
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			break
		}
		off += int64(i) + 1
	}
	line := func(st int64) []byte {
		if i := bytes.IndexByte(data[st:], '\n'); i >= 0 {
			return data[st : st+int64(i)]
		}
		return data[st:]
	}
	if backward {
		for i := len(starts) - 1; i >= 0; i-- {
			if starts[i] < from {
				if _, _, ok := q.Match(line(starts[i])); ok {
					return starts[i], true
				}
			}
		}
		return 0, false
	}
	for _, st := range starts {
		if st >= from {
			if _, _, ok := q.Match(line(st)); ok {
				return st, true
			}
		}
	}
	return 0, false
}

// TestScanLogAgreesWithAWholeFileSearch checks the chunked scan, continued
// call after call through Next with a small budget, against the whole-file
// search, for random logs, chunk sizes, starting points and directions.
func TestScanLogAgreesWithAWholeFileSearch(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		words := []string{"INFO", "ERROR", "ok", "needle", "Needle", "x", "java.io.IOException:", "\tat a.b(C.java:1)", ""}
		var b strings.Builder
		for range rapid.IntRange(0, 60).Draw(rt, "lines") {
			for k := range rapid.IntRange(0, 4).Draw(rt, "words") {
				if k > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(rapid.SampledFrom(words).Draw(rt, "word"))
			}
			b.WriteByte('\n')
		}
		if rapid.Bool().Draw(rt, "unterminated") {
			b.WriteString("needle at the end")
		}
		data := []byte(b.String())
		q := rapid.SampledFrom([]api.LogQuery{{Text: "needle"}, {Text: "Needle"}, {Errors: true}, {Text: "ok x"}}).Draw(rt, "query")
		backward := rapid.Bool().Draw(rt, "backward")
		step := int64(rapid.IntRange(1, 40).Draw(rt, "step"))
		budget := int64(rapid.IntRange(1, 80).Draw(rt, "budget"))
		from := int64(0)
		if backward {
			from = int64(len(data))
		}
		if n := len(data); n > 0 && rapid.Bool().Draw(rt, "from a line start") {
			// Searches continue from a match, which is a line start.
			starts := []int64{0}
			for i, c := range data {
				if c == '\n' && i+1 < n {
					starts = append(starts, int64(i+1))
				}
			}
			from = rapid.SampledFrom(starts).Draw(rt, "from")
		} else if n > 0 && !backward && rapid.Bool().Draw(rt, "from anywhere") {
			// A From inside a line skips the rest of it.
			from = int64(rapid.IntRange(0, n).Draw(rt, "any from"))
		}
		want, wantOK := wholeFind(data, q, from, backward)

		read := memReader(data, step, nil)
		s := api.LogSearch{Query: q, From: from, Backward: backward, MaxScan: budget}
		for calls := 0; ; calls++ {
			if calls > len(data)+2 {
				rt.Fatalf("the scan does not progress: %+v", s)
			}
			m, err := scanLog(context.Background(), read, s)
			if err != nil {
				rt.Fatal(err)
			}
			if m.Found {
				if !wantOK || m.Offset != want {
					rt.Fatalf("found at %d, the whole-file search says %d (%v)", m.Offset, want, wantOK)
				}
				if got := m.Line[m.Start:m.End]; m.Start >= m.End || !strings.Contains(strings.ToLower(m.Line), strings.ToLower(got)) {
					rt.Fatalf("match span [%d,%d) of %q", m.Start, m.End, m.Line)
				}
				return
			}
			if m.Exhausted {
				if wantOK {
					rt.Fatalf("nothing found, the whole-file search found %d", want)
				}
				return
			}
			s.From = m.Next
		}
	})
}

// TestScanLogNumbersEachMatchingLineOnce continues a forward scan as
// `palink logs --grep` does (from a match's Offset+1, or Next) and checks
// the lines it finds, numbered from Lines, against a whole-file grep -n:
// each matching line once, with its number and offset.
func TestScanLogNumbersEachMatchingLineOnce(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		words := []string{"INFO", "needle", "needle needle", "x", strings.Repeat("n", 30), ""}
		var b strings.Builder
		for range rapid.IntRange(0, 50).Draw(rt, "lines") {
			for k := range rapid.IntRange(0, 3).Draw(rt, "words") {
				if k > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(rapid.SampledFrom(words).Draw(rt, "word"))
			}
			b.WriteByte('\n')
		}
		if rapid.Bool().Draw(rt, "unterminated") {
			b.WriteString("needle at the end")
		}
		data := []byte(b.String())
		q := rapid.SampledFrom([]api.LogQuery{{Text: "needle"}, {Text: "e"}, {Text: "n"}}).Draw(rt, "query")
		read := memReader(data, int64(rapid.IntRange(1, 40).Draw(rt, "step")), nil)
		budget := int64(rapid.IntRange(1, 80).Draw(rt, "budget"))

		var want []string
		off := 0
		for i, l := range strings.SplitAfter(string(data), "\n") {
			if l == "" {
				break
			}
			if _, _, ok := q.Match([]byte(strings.TrimSuffix(l, "\n"))); ok {
				want = append(want, fmt.Sprintf("%d@%d:%s", i+1, off, strings.TrimSuffix(l, "\n")))
			}
			off += len(l)
		}

		var got []string
		s := api.LogSearch{Query: q, MaxScan: budget}
		line := int64(1) // the number of the first line at or after s.From
		for calls := 0; ; calls++ {
			if calls > 2*len(data)+2 {
				rt.Fatalf("the scan does not progress: %+v", s)
			}
			m, err := scanLog(context.Background(), read, s)
			if err != nil {
				rt.Fatal(err)
			}
			line += m.Lines
			if m.Exhausted {
				break
			}
			if !m.Found {
				s.From = m.Next
				continue
			}
			got = append(got, fmt.Sprintf("%d@%d:%s", line, m.Offset, m.Line))
			line++
			s.From = m.Offset + 1
		}
		if !slices.Equal(got, want) {
			rt.Fatalf("the scan found\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	})
}

func TestLogQueryMatches(t *testing.T) {
	for _, c := range []struct {
		q    api.LogQuery
		line string
		want string // the matched text, "" for no match
	}{
		{api.LogQuery{Text: "timeout"}, "Read TIMEOUT on x", "TIMEOUT"},
		{api.LogQuery{Text: "Timeout"}, "Read TIMEOUT on x", ""},
		{api.LogQuery{Text: "Timeout"}, "SocketTimeout", "Timeout"},
		{api.LogQuery{Text: "straße"}, "STRASSE Straße", "Straße"},
		{api.LogQuery{Errors: true}, "2026-01-01 10:00:00,000 ERROR org.a.B [] - boom", "ERROR"},
		{api.LogQuery{Errors: true}, "2026-01-01 10:00:00,000 INFO  org.a.ErrorHandler [] - fine", ""},
		{api.LogQuery{Errors: true}, "java.net.SocketTimeoutException: Read timed out", "java.net.SocketTimeoutException"},
		{api.LogQuery{Errors: true}, "Caused by: java.lang.OutOfMemoryError: Java heap space", "java.lang.OutOfMemoryError"},
		{api.LogQuery{Errors: true}, "Exception in thread \"main\"", "Exception"},
		{api.LogQuery{Errors: true}, "INFO no errors, 0 exceptions, Error count 0", ""},
		{api.LogQuery{Errors: true}, "ERROR_CODE=0 FATALISM", ""},
		{api.LogQuery{}, "anything", ""},
	} {
		start, end, ok := c.q.Match([]byte(c.line))
		got := ""
		if ok {
			got = c.line[start:end]
		}
		if got != c.want {
			t.Errorf("%+v on %q matched %q, want %q", c.q, c.line, got, c.want)
		}
	}
}

func TestSaveLogCopiesInChunksAndNeverOverwrites(t *testing.T) {
	data := []byte(strings.Repeat("0123456789abcdef\n", 200_000)) // 3.4 MB: four chunks
	dir := t.TempDir()
	path := filepath.Join(dir, "jm.log")
	reads := 0
	s, err := Save(context.Background(), memReader(data, api.MaxLogChunk, &reads), path)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, data) || s.Bytes != int64(len(data)) || s.Path != path {
		t.Fatalf("saved %d bytes to %s (%d in the file), want %d", s.Bytes, s.Path, len(got), len(data))
	}
	if want := (len(data) + api.MaxLogChunk - 1) / api.MaxLogChunk; reads != want {
		t.Errorf("%d reads, want %d chunks", reads, want)
	}

	if _, err := Save(context.Background(), memReader([]byte("other"), 10, nil), path); !errors.Is(err, os.ErrExist) {
		t.Fatalf("saving over an existing file: %v", err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, data) {
		t.Fatal("the existing file was changed")
	}

	failing := func(ctx context.Context, off int64, tail bool, limit int64) (api.LogChunk, error) {
		if off > 0 {
			return api.LogChunk{}, errors.New("jobmanager unavailable")
		}
		return memReader(data, 1000, nil)(ctx, off, tail, limit)
	}
	part := filepath.Join(dir, "part.log")
	if _, err := Save(context.Background(), failing, part); err == nil || !strings.Contains(err.Error(), "jobmanager unavailable") {
		t.Fatalf("a failing read: %v", err)
	}
	if _, err := os.Stat(part); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed save left %s behind: %v", part, err)
	}
}

// TestSaveLogStopsAtTheSizeItStartedWith: a log that grows while it is
// saved is copied as it was when the copy began.
func TestSaveLogStopsAtTheSizeItStartedWith(t *testing.T) {
	data := []byte(strings.Repeat("line\n", 100))
	grow := func(ctx context.Context, off int64, tail bool, limit int64) (api.LogChunk, error) {
		ch, err := memReader(data, 100, nil)(ctx, off, tail, limit)
		data = append(data, "more\n"...) // the process keeps logging
		return ch, err
	}
	path := filepath.Join(t.TempDir(), "grow.log")
	s, err := Save(context.Background(), grow, path)
	if err != nil {
		t.Fatal(err)
	}
	if s.Bytes != 500 {
		t.Errorf("saved %d bytes, want the 500 there were at the start", s.Bytes)
	}
}
