package yarn

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

const containerID = "container_1732860000000_0042_01_000002"

// nmLogText answers like NMWebServices.getLogs: the header of
// LogToolUtils.formatContainerLogHeader, the bytes size asks for, and the
// trailer, for a file whose content is content.
func nmLogText(content string, running bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		size := int64(len(content))
		if s := r.URL.Query().Get("size"); s != "" {
			size, _ = strconv.ParseInt(s, 10, 64)
		}
		part := content
		switch {
		case size < 0 && -size < int64(len(content)):
			part = content[int64(len(content))+size:]
		case size >= 0 && size < int64(len(content)):
			part = content[:size]
		}
		file := r.URL.Path[strings.LastIndexByte(r.URL.Path, '/')+1:]
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		head := fmt.Sprintf("Container: %s on host-7.example.com:45454\nLogAggregationType: LOCAL\n%s\nLogType:%s\nLogLastModifiedTime:Thu Nov 28 09:01:02 +0000 2024\nLogLength:%d\nLogContents:\n",
			containerID, strings.Repeat("=", 60), file, len(content))
		end := "End of LogType:" + file + "."
		if running {
			end += "This log file belongs to a running container (" + containerID + ") and so may not be complete.\n"
		} else {
			end += "\n"
		}
		fmt.Fprint(w, head+part+end+strings.Repeat("*", 80)+"\n\n")
	}
}

func TestContainerLogFilesReadEveryShapeHadoopSends(t *testing.T) {
	files := `{"containerLogInfo":[{"fileName":"taskmanager.log","fileSize":"1048576","lastModifiedTime":"Thu Nov 28 09:01:02 +0000 2024"},` +
		`{"fileName":"taskmanager.out","fileSize":"0","lastModifiedTime":"Thu Nov 28 09:01:02 +0000 2024"}],` +
		`"logAggregationType":"LOCAL","containerId":"` + containerID + `","nodeId":"host-7.example.com:45454"}`
	one := `{"containerLogInfo":{"fileName":"taskmanager.log","fileSize":12,"lastModifiedTime":"x"},"logAggregationType":"AGGREGATED","containerId":"` + containerID + `","nodeId":"n"}`
	for name, body := range map[string]string{
		"bare array (Jackson)":          "[" + files + "," + one + "]",
		"Jersey 1 array (Hadoop 3.3)":   `{"containerLogsInfo":[` + files + "," + one + "]}",
		"Jersey 2 wrapper (Hadoop 3.4)": `{"containerLogsInfoes":{"containerLogsInfo":[` + files + "," + one + "]}}",
	} {
		t.Run(name, func(t *testing.T) {
			f := newFake(t)
			f.json("GET", "/ws/v1/node/containers/"+containerID+"/logs", 200, body)
			c, err := NewContainerLogs(NodeManagerBase(f.Host()), fastOpts())
			if err != nil {
				t.Fatal(err)
			}
			got, err := c.Files(context.Background(), containerID, "")
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 2 || got[0].Aggregation != LogLocal || len(got[0].Files) != 2 ||
				got[0].Files[0].Name != "taskmanager.log" || got[0].Files[0].Size != 1048576 ||
				got[0].Files[0].ModifiedTime().Year() != 2024 || got[1].Aggregation != LogAggregated || got[1].Files[0].Size != 12 {
				t.Fatalf("%+v", got)
			}
		})
	}
	t.Run("lone object", func(t *testing.T) {
		got, err := parseContainerLogsInfo([]byte(`{"containerLogsInfo":` + one + `}`))
		if err != nil || len(got) != 1 || got[0].Files[0].Name != "taskmanager.log" {
			t.Fatalf("%+v %v", got, err)
		}
	})
}

func TestContainerLogReadTakesTheContentBetweenHeaderAndTrailer(t *testing.T) {
	ctx := context.Background()
	var sb strings.Builder
	for i := 0; sb.Len() < 300_000; i++ {
		fmt.Fprintf(&sb, "2024-11-28 09:01:02,%03d INFO  line %d\n", i%1000, i)
	}
	content := sb.String()
	f := newFake(t)
	path := "/ws/v1/node/containers/" + containerID + "/logs/taskmanager.log"
	f.on("GET", path, nmLogText(content, true)).times(5)
	f.on("GET", "/ws/v1/node/containers/"+containerID+"/logs/empty.err", nmLogText("", false))
	c, err := NewContainerLogs("http://"+f.Host()+"/ws/v1/node/", fastOpts())
	if err != nil {
		t.Fatal(err)
	}
	read := func(r ContainerLogRead) LogChunk {
		t.Helper()
		r.ContainerID, r.File = containerID, "taskmanager.log"
		ch, err := c.Read(ctx, r)
		if err != nil {
			t.Fatal(err)
		}
		if ch.Size != int64(len(content)) {
			t.Fatalf("size %d, want %d", ch.Size, len(content))
		}
		if want := content[ch.Offset : ch.Offset+int64(len(ch.Data))]; string(ch.Data) != want {
			t.Fatalf("chunk at %d is not the file's bytes there", ch.Offset)
		}
		return ch
	}
	head := read(ContainerLogRead{Limit: 1000})
	if head.Offset != 0 || len(head.Data) != 1000 || !head.More || f.lastQuery("GET", path) != "size=1000" {
		t.Errorf("head: offset %d, %d bytes, more %v, query %s", head.Offset, len(head.Data), head.More, f.lastQuery("GET", path))
	}
	tail := read(ContainerLogRead{Tail: true, Limit: 500})
	if tail.Offset != int64(len(content))-500 || tail.More || f.lastQuery("GET", path) != "size=-500" {
		t.Errorf("tail: offset %d, more %v, query %s", tail.Offset, tail.More, f.lastQuery("GET", path))
	}
	mid := read(ContainerLogRead{Offset: 1000, Limit: 2000})
	if mid.Offset != 1000 || len(mid.Data) != 2000 {
		t.Errorf("middle: offset %d, %d bytes", mid.Offset, len(mid.Data))
	}
	// Near the end of a known size, the read asks for a tail, not the
	// whole file before the offset.
	late := read(ContainerLogRead{Offset: int64(len(content)) - 100_000, Limit: 1000, SizeHint: int64(len(content))})
	if late.Offset != int64(len(content))-100_000 || !strings.HasPrefix(f.lastQuery("GET", path), "size=-") {
		t.Errorf("late: offset %d, query %s", late.Offset, f.lastQuery("GET", path))
	}
	// A stream from an offset to the end is one request for the rest.
	st, err := c.Open(ctx, ContainerLogRead{ContainerID: containerID, File: "taskmanager.log", Offset: 5000})
	if err != nil {
		t.Fatal(err)
	}
	rest, err := io.ReadAll(st)
	st.Close()
	if err != nil || st.Offset != 5000 || string(rest) != content[5000:] || f.lastQuery("GET", path) != "" {
		t.Errorf("stream from 5000: offset %d, %d bytes, query %q, %v", st.Offset, len(rest), f.lastQuery("GET", path), err)
	}
	empty, err := c.Read(ctx, ContainerLogRead{ContainerID: containerID, File: "empty.err"})
	if err != nil || len(empty.Data) != 0 || empty.Size != 0 || empty.More {
		t.Errorf("empty file: %+v %v", empty, err)
	}
}

func TestContainerLogErrorsAreTheErrorModel(t *testing.T) {
	f := newFake(t)
	f.on("GET", "/ws/v1/node/containers/"+containerID+"/logs/gone.log", func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "Cannot find this log on the local disk.", http.StatusNotFound)
	})
	f.json("GET", "/ws/v1/node/containers/"+containerID+"/logs", 200, `{"nothing":1}`)
	c, _ := NewContainerLogs(NodeManagerBase(f.Host()), fastOpts())
	_, err := c.Read(context.Background(), ContainerLogRead{ContainerID: containerID, File: "gone.log"})
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "Cannot find this log") {
		t.Errorf("missing file: %v", err)
	}
	var de *DecodeError
	if _, err := c.Files(context.Background(), containerID, ""); !errors.As(err, &de) {
		t.Errorf("a list of no known shape: %v", err)
	}
}

func TestRMAttemptContainersAndConf(t *testing.T) {
	f := newFake(t)
	// The doc's example, numbers as strings.
	f.json("GET", "/ws/v1/cluster/apps/"+appID+"/appattempts/appattempt_1732860000000_0042_000001/containers", 200, `{
  "containers" : {"container": [{
      "containerId": "container_1732860000000_0042_01_000001", "allocatedMB": "1536", "allocatedVCores": "1",
      "assignedNodeId": "host.domain.com:37814", "priority": "0", "startedTime": "1531405909444", "finishedTime": "0",
      "elapsedTime": "4112", "logUrl": "http://host.domain.com:8042/node/containerlogs/container_1732860000000_0042_01_000001/systest",
      "containerExitStatus": "0", "containerState": "RUNNING", "nodeHttpAddress": "http://host.domain.com:8042",
      "nodeId": "host.domain.com:37814", "allocatedResources": [{"key": "memory-mb", "value": "1536"}]}]}}`)
	f.json("GET", "/conf", 200, `{"property":{"key":"yarn.log.server.web-service.url","value":"http://ahs:8188/ws/v1/applicationhistory","isFinal":false,"resource":"yarn-site.xml"}}`)
	rm, err := NewResourceManager([]string{f.URL()}, fastOpts())
	if err != nil {
		t.Fatal(err)
	}
	cs, err := rm.AttemptContainers(context.Background(), appID, "1")
	if err != nil || len(cs) != 1 || cs[0].AllocatedMB != 1536 || cs[0].StartedTime != 1531405909444 ||
		NodeManagerBase(cs[0].NodeHTTPAddress) != "http://host.domain.com:8042/ws/v1/node" {
		t.Fatalf("%+v %v", cs, err)
	}
	v, err := rm.ConfValue(context.Background(), ConfLogServerWebService)
	if err != nil || v != "http://ahs:8188/ws/v1/applicationhistory" || f.lastQuery("GET", "/conf") != "name=yarn.log.server.web-service.url" {
		t.Fatalf("%q %v", v, err)
	}
}
