package logview

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/palink/palink/core/api"
)

// filterFile is a log of n lines, every fifth with "match" in it, one line
// longer than two chunks with its match at the end, and one with it in
// its middle.
func filterFile(n int) []byte {
	var b bytes.Buffer
	for i := range n {
		switch {
		case i == n/3:
			fmt.Fprintf(&b, "line %d %s MATCH at the end\n", i, strings.Repeat("x", 5<<19))
		case i == n/2:
			fmt.Fprintf(&b, "line %d %s match %s\n", i, strings.Repeat("y", 3<<19), strings.Repeat("y", 3<<19))
		case i%5 == 0:
			fmt.Fprintf(&b, "line %d has a match %s\n", i, strings.Repeat("z", i%300))
		default:
			fmt.Fprintf(&b, "line %d %s\n", i, strings.Repeat("w", i%200))
		}
	}
	return b.Bytes()
}

// wantFiltered is what the filter must find in file from floor on: each
// matching line once, at its offset, cut as the filter keeps it.
func wantFiltered(file []byte, q api.LogQuery, floor int64) []filterLine {
	var out []filterLine
	for off := int64(0); off < int64(len(file)); {
		e := bytes.IndexByte(file[off:], '\n')
		end := int64(len(file))
		if e >= 0 {
			end = off + int64(e)
		}
		if _, _, ok := q.Match(file[off:end]); ok && off >= floor {
			out = append(out, filterLine{off: off, text: file[off:min(end, off+filterLineMax)]})
		}
		off = end + 1
	}
	return out
}

func sameLines(t *testing.T, what string, got, want []filterLine) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d lines, want %d", what, len(got), len(want))
	}
	for i := range got {
		if got[i].off != want[i].off || !bytes.Equal(got[i].text, want[i].text) {
			t.Fatalf("%s: line %d at %d %.40q, want at %d %.40q", what, i, got[i].off, got[i].text, want[i].off, want[i].text)
		}
	}
}

// scanAll runs backward steps to the end and returns the lines, in the
// file's order, and the last step.
func scanAll(t *testing.T, read logReader, s filterStep) ([]filterLine, filterResult) {
	t.Helper()
	var all []filterLine
	for range 1000 {
		res, err := filterScan(context.Background(), read, s)
		if err != nil {
			t.Fatal(err)
		}
		if res.rotated {
			t.Fatal("rotated")
		}
		if res.scanned > filterStepBytes+api.MaxLogChunk {
			t.Fatalf("a step read %d bytes", res.scanned)
		}
		all = append(res.lines, all...)
		if res.done || res.full {
			return all, res
		}
		s = res.next
	}
	t.Fatal("the scan never ends")
	return nil, filterResult{}
}

func TestFilterScanFindsEachMatchingLineOnce(t *testing.T) {
	file := filterFile(60000) // ≈ 12 MB: two steps and more
	text := &textLog{data: file}
	read := textService{text: text}.ReadLog
	q := api.LogQuery{Text: "match"}
	start := filterStep{query: q, hi: -1, room: 1 << 30}

	got, last := scanAll(t, read, start)
	sameLines(t, "the whole log", got, wantFiltered(file, q, 0))
	if last.next.hi != int64(len(file)) {
		t.Fatalf("the scan began at %d, the file ends at %d", last.next.hi, len(file))
	}

	// From a floor (since): the lines before it are not the filter's.
	floor := int64(bytes.Index(file, []byte("\nline 40000 ")) + 1)
	s := start
	s.floor = floor
	got, _ = scanAll(t, read, s)
	sameLines(t, "from a floor", got, wantFiltered(file, q, floor))

	// With little room, the newest that fit.
	s = start
	s.room = 2000
	got, last = scanAll(t, read, s)
	all := wantFiltered(file, q, 0)
	if !last.full || len(got) == 0 || len(got) > 100 {
		t.Fatalf("full %v with %d lines", last.full, len(got))
	}
	sameLines(t, "the newest", got, all[len(all)-len(got):])
}

func TestFilterScanFollowsTheFileAndSeesItRotate(t *testing.T) {
	text := &textLog{data: []byte("a match\nno\nhalf a mat")} // the last line is being written
	read := textService{text: text}.ReadLog
	q := api.LogQuery{Text: "match"}
	got, last := scanAll(t, read, filterStep{query: q, hi: -1, room: 1 << 30})
	sameLines(t, "at first", got, []filterLine{{off: 0, text: []byte("a match")}})
	if last.next.hi != int64(len("a match\nno\n")) {
		t.Fatalf("follow steps go on from %d", last.next.hi)
	}

	// The line is finished and more come: the line is found whole, at its
	// start.
	text.data = append(text.data, "ch\nmatch 2\nno\n"...)
	res, err := filterScan(context.Background(), read, filterStep{query: q, forward: true, hi: last.next.hi, tail: last.next.tail})
	if err != nil || res.rotated {
		t.Fatal(err, res.rotated)
	}
	sameLines(t, "followed", res.lines, []filterLine{{off: 11, text: []byte("half a match")}, {off: 24, text: []byte("match 2")}})
	if res.next.hi != int64(len(text.data)) {
		t.Fatalf("hi %d of %d", res.next.hi, len(text.data))
	}

	// Replaced by another file, longer: seen.
	text.data = bytes.Repeat([]byte("other\n"), 20)
	res, err = filterScan(context.Background(), read, res.next)
	if err != nil || !res.rotated {
		t.Fatalf("a replaced file: rotated %v, %v", res.rotated, err)
	}
}
