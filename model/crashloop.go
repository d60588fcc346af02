package model

import (
	"fmt"
	"regexp"
	"strings"
	"time"
)

// CrashLoop is a job failing the same way run after run: its last Count
// runs all restored from RestorePoint and died of the same innermost
// Cause, so that restoring RestorePoint once more replays the failure.
// Core sets it on the job when a run fails so (core/decide.CrashLoop) and
// clears it when a run fails otherwise or the job checkpoints past it.
type CrashLoop struct {
	// Count is how many runs in a row restored from RestorePoint and
	// failed with Cause.
	Count int
	// Cause is the innermost cause the runs failed with, "class: message".
	Cause string
	// Record is the record the runs failed on, as Flink printed it
	// ("+I(1042,42.50,…)"), when every trace that names one names it.
	Record string
	// RestorePoint is the path the runs restored from; RestoreTime is when
	// the cluster completed it (zero when palink has no record of it).
	RestorePoint string
	RestoreTime  time.Time
	// SpecVersion is the spec version the newest of the runs ran.
	SpecVersion int
	// Since is the first failure of the loop, Last its newest (the
	// cluster's clock).
	Since, Last time.Time
}

// Sentence says the loop as a person reads it: "3 restarts from chk-51
// failed with the same NumberFormatException on +I(1042,…) — restoring
// chk-51 again will replay it".
func (c CrashLoop) Sentence() string {
	point := PointName(c.RestorePoint)
	s := fmt.Sprintf("%d restarts from %s failed with the same %s", c.Count, point, CauseClass(c.Cause))
	if c.Record != "" {
		s += " on " + ShortRecord(c.Record)
	}
	return s + " — restoring " + point + " again will replay it"
}

// PointName is a restore point's last path element, which names it among
// its job's ("chk-51", "savepoint-7f3a21-0c1d"); the path when it has
// none.
func PointName(path string) string {
	p := strings.TrimRight(path, "/")
	if i := strings.LastIndexByte(p, '/'); i >= 0 && i < len(p)-1 {
		return p[i+1:]
	}
	return path
}

// CauseClass is the simple name of a cause's exception class
// ("java.lang.NumberFormatException: For input string" →
// "NumberFormatException").
func CauseClass(cause string) string {
	class, _, _ := strings.Cut(FirstLine(cause), ":")
	class = strings.TrimSpace(class)
	if i := strings.LastIndexByte(class, '.'); i >= 0 && i < len(class)-1 {
		class = class[i+1:]
	}
	if class == "" {
		return "failure"
	}
	return class
}

// ShortRecord is a record cut after its first field, "+I(1042,…)", so a
// sentence can name it; a record without fields is kept whole up to 40
// characters.
func ShortRecord(r string) string {
	if open := strings.IndexByte(r, '('); open >= 0 {
		if comma := strings.IndexByte(r[open:], ','); comma >= 0 {
			return r[:open+comma] + ",…)"
		}
	}
	if n := []rune(r); len(n) > 40 {
		return string(n[:39]) + "…"
	}
	return r
}

// maxRecord bounds the record kept from a trace.
const maxRecord = 200

var (
	// streamRecord is how Flink prints the element an operator failed on
	// (AsyncWaitOperator: "Could not complete the stream element: Record @
	// (undef) : +I(1042,…)."): "Record @ TIMESTAMP : VALUE".
	streamRecord = regexp.MustCompile(`Record @ \S+ : (.+?)\.?$`)
	// rowData is a table row as Flink prints it: its RowKind's short
	// string and its fields, "+I(1042,42.50)", "-U(…)".
	rowData = regexp.MustCompile(`(?:^|[\s:,(\[])([+-][IUD]\(.*\))`)
)

// FailingRecord is the record a Java stack trace says its task failed on,
// "" when it names none: the element of "Record @ … : …", else the first
// table row printed in it.
func FailingRecord(trace string) string {
	lines := strings.Split(trace, "\n")
	pick := func(re *regexp.Regexp) string {
		for _, line := range lines {
			if m := re.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
				r := m[1]
				if n := []rune(r); len(n) > maxRecord {
					r = string(n[:maxRecord-1]) + "…"
				}
				return r
			}
		}
		return ""
	}
	if r := pick(streamRecord); r != "" {
		return r
	}
	return pick(rowData)
}
