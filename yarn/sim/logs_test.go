package sim

import (
	"bytes"
	"io"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

func getRange(t *testing.T, url, rng string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), "GET", url, nil)
	if rng != "" {
		req.Header.Set("Range", rng)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

func TestHugeLogsAreGeneratedAndServedByRange(t *testing.T) {
	const size = 200 << 20
	o := fastOptions()
	o.LogSize = size
	_, jm, _, _ := runningJM(t, o)
	var list struct {
		Logs []struct {
			Name string `json:"name"`
			Size int64  `json:"size"`
		} `json:"logs"`
	}
	mustJSON(t, "GET", jm+"/jobmanager/logs", nil, 200, &list)
	var logSize int64
	for _, l := range list.Logs {
		if l.Name == "jobmanager.log" {
			logSize = l.Size
		}
	}
	if logSize < size-logLine || logSize > size {
		t.Fatalf("jobmanager.log size %d, want about %d (list %+v)", logSize, size, list.Logs)
	}

	resp, tail := getRange(t, jm+"/jobmanager/log", "bytes=-1000")
	if resp.StatusCode != http.StatusPartialContent || len(tail) != 1000 || tail[len(tail)-1] != '\n' {
		t.Fatalf("last 1000 bytes: %d, %d bytes", resp.StatusCode, len(tail))
	}
	if cr := resp.Header.Get("Content-Range"); cr != "bytes "+strconv.FormatInt(logSize-1000, 10)+"-"+strconv.FormatInt(logSize-1, 10)+"/"+strconv.FormatInt(logSize, 10) {
		t.Errorf("Content-Range %q", cr)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/plain" {
		t.Errorf("Content-Type %q", ct)
	}
	_, first := getRange(t, jm+"/v1/jobmanager/logs/jobmanager.log", "bytes=0-159")
	if len(first) != logLine || !strings.Contains(string(first), " INFO  org.apache.flink.") || first[logLine-1] != '\n' {
		t.Errorf("first line %q", first)
	}
	_, again := getRange(t, jm+"/jobmanager/log", "bytes=-1000")
	if !bytes.Equal(tail, again) {
		t.Error("the same range read twice differs: the log is not a function of the offset")
	}

	// Serving a large range does not hold it in memory.
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	resp, err := client.Get(jm + "/jobmanager/log")
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.CopyN(io.Discard, resp.Body, 8<<20)
	resp.Body.Close()
	if err != nil || n != 8<<20 {
		t.Fatalf("read 8 MiB of the log: %d, %v", n, err)
	}
	runtime.ReadMemStats(&after)
	if grown := int64(after.HeapInuse) - int64(before.HeapInuse); grown > 4<<20 {
		t.Errorf("heap grew by %d bytes while streaming 8 MiB of log", grown)
	}

	var tms struct {
		TaskManagers []struct {
			ID string `json:"id"`
		} `json:"taskmanagers"`
	}
	mustJSON(t, "GET", jm+"/taskmanagers", nil, 200, &tms)
	_, tmLine := getRange(t, jm+"/taskmanagers/"+tms.TaskManagers[0].ID+"/log", "bytes=0-159")
	if !strings.Contains(string(tmLine), "INFO") || bytes.Equal(tmLine, first) {
		t.Errorf("TaskManager log line %q", tmLine)
	}
	if r := do(t, "GET", jm+"/jobmanager/logs/secrets.txt", nil); r.status != 404 {
		t.Errorf("unknown log file: %s", r)
	}
	if r := do(t, "GET", jm+"/taskmanagers/container_nope/log", nil); r.status != 404 {
		t.Errorf("unknown TaskManager: %s", r)
	}
}

func TestLogFileReadAtMatchesLines(t *testing.T) {
	f := &logFile{seed: 3, size: 10*logLine + 17, kind: "jobmanager"}
	all := make([]byte, f.size+5)
	n, err := f.ReadAt(all, 0)
	if int64(n) != f.size || err != io.EOF {
		t.Fatalf("ReadAt whole: %d %v", n, err)
	}
	for _, off := range []int64{0, 1, 159, 160, 161, 1000, f.size - 1} {
		p := make([]byte, 50)
		n, _ := f.ReadAt(p, off)
		if !bytes.Equal(p[:n], all[off:off+int64(n)]) {
			t.Errorf("ReadAt at %d differs from the whole read", off)
		}
	}
}

func TestLongLogLinesAreCutNotLost(t *testing.T) {
	f := &logFile{seed: 1, size: 400 * logLine, kind: "jobmanager", start: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	var line [logLine]byte
	for i := int64(0); i < 400; i++ {
		f.lineInto(line[:], i)
		s := string(line[:])
		if !strings.HasPrefix(s, "20") || !strings.Contains(s, " INFO  org.apache.flink.") || line[logLine-1] != '\n' {
			t.Fatalf("line %d: %q", i, s)
		}
	}
}
