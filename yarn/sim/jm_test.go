package sim

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestJobManagerErrors(t *testing.T) {
	_, jm, jid, _ := runningJM(t, fastOptions())
	cases := []struct {
		method, path string
		status       int
		says         string
	}{
		{"GET", "/jobs/00000000000000000000000000000000", 404, "NotFoundException: Job 00000000000000000000000000000000 not found"},
		{"GET", "/v1/jobs/00000000000000000000000000000000/checkpoints", 404, "not found"},
		{"GET", "/jobs/not-a-job-id", 400, "Cannot convert hex string"},
		{"GET", "/jobs/" + jid + "/savepoints/0123456789abcdef0123456789abcdef", 404, "Operation not found"},
		{"GET", "/jobs/" + jid + "/vertices/0123456789abcdef0123456789abcdef", 404, "JobVertexID not found"},
		{"GET", "/no/such/route", 404, "Not found: /no/such/route"},
		{"POST", "/jobs/" + jid, 404, "Not found"},
		{"PATCH", "/jobs/" + jid + "?mode=STOP", 308, `mode \"stop\" has been removed`},
		{"PATCH", "/jobs/" + jid + "?mode=bogus", 400, "mode"},
		{"GET", "/jobs/" + jid + "/yarn-stop", 308, "has been removed"},
		{"GET", "/jars", 404, "Not found"}, // a per-job cluster has no web submission
		{"GET", "/jobs/" + jid + "/exceptions?maxExceptions=x", 400, "maxExceptions"},
	}
	for _, tc := range cases {
		r := do(t, tc.method, jm+tc.path, nil)
		var fe flinkErrors
		r.decode(t, &fe)
		if r.status != tc.status || len(fe.Errors) == 0 || !strings.Contains(string(r.body), tc.says) {
			t.Errorf("%s %s: %s, want %d saying %q", tc.method, tc.path, r, tc.status, tc.says)
		}
	}
	// A cancel is accepted once; a terminal job then answers 409.
	mustJSON(t, "PATCH", jm+"/jobs/"+jid+"?mode=cancel", nil, 202, nil)
	eventually(t, "CANCELED", func() bool { return jobStatus(t, jm, jid) == "CANCELED" })
	mustJSON(t, "PATCH", jm+"/jobs/"+jid, nil, 409, nil)
	// A savepoint of a job that is not running completes with a failure cause.
	var trig struct {
		RequestID string `json:"request-id"`
	}
	mustJSON(t, "POST", jm+"/jobs/"+jid+"/savepoints", `{"cancel-job":false}`, 202, &trig)
	var op struct {
		Status    struct{ ID string } `json:"status"`
		Operation struct {
			Location     string            `json:"location"`
			FailureCause map[string]string `json:"failure-cause"`
		} `json:"operation"`
	}
	eventually(t, "the failed savepoint COMPLETED", func() bool {
		mustJSON(t, "GET", jm+"/jobs/"+jid+"/savepoints/"+trig.RequestID, nil, 200, &op)
		return op.Status.ID == "COMPLETED"
	})
	if op.Operation.Location != "" || !strings.Contains(op.Operation.FailureCause["stack-trace"], "CheckpointException") {
		t.Errorf("savepoint of a canceled job: %+v", op.Operation)
	}
}

func TestSessionJarsAndTriggerIDs(t *testing.T) {
	c := startCluster(t, fastOptions())
	sess, _ := c.Submit(t.Context(), SubmitRequest{Mode: ModeSession})
	var a App
	eventually(t, "session RUNNING", func() bool { a, _ = c.App(sess.AppID); return a.JMAddress != "" })
	jm := "http://" + a.JMAddress

	// Only .jar files, exactly one.
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("jarfile", "notes.txt")
	fw.Write([]byte("hello"))
	mw.Close()
	req, _ := http.NewRequestWithContext(t.Context(), "POST", jm+"/jars/upload", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 400 {
		t.Errorf("uploading a .txt: %d", resp.StatusCode)
	}

	noMain := uploadJar(t, jm, "lib.jar", "")
	mustJSON(t, "POST", jm+"/jars/"+noMain+"/run", nil, 400, nil)
	mustJSON(t, "POST", jm+"/jars/nope_x.jar/run", map[string]any{"entryClass": "a.B"}, 400, nil)
	var run struct {
		JobID string `json:"jobid"`
	}
	mustJSON(t, "POST", jm+"/jars/"+noMain+"/run", map[string]any{"entryClass": "org.example.Etl",
		"jobId": "0123456789abcdef0123456789abcdef", "flinkConfiguration": map[string]string{"pipeline.name": "etl"}}, 200, &run)
	if run.JobID != "0123456789abcdef0123456789abcdef" {
		t.Errorf("jobId not honoured: %s", run.JobID)
	}
	mustJSON(t, "POST", jm+"/jars/"+noMain+"/run", map[string]any{"entryClass": "org.example.Etl",
		"jobId": "0123456789abcdef0123456789abcdef"}, 409, nil)
	var files struct {
		Files []struct {
			ID    string `json:"id"`
			Name  string `json:"name"`
			Entry []struct {
				Name string `json:"name"`
			} `json:"entry"`
		} `json:"files"`
	}
	withMain := uploadJar(t, jm, "app.jar", "org.example.App")
	mustJSON(t, "GET", jm+"/jars", nil, 200, &files)
	if len(files.Files) != 2 || files.Files[1].ID != withMain || files.Files[1].Entry[0].Name != "org.example.App" || files.Files[1].Name != "app.jar" {
		t.Errorf("jars: %+v", files)
	}
	eventually(t, "job RUNNING", func() bool { return jobStatus(t, jm, run.JobID) == "RUNNING" })
	if a, _ := c.App(sess.AppID); len(a.Jobs) != 1 || a.Jobs[0].Name != "etl" {
		t.Errorf("session jobs %+v", a.Jobs)
	}
	// A client-chosen triggerId is used, and repeating it does not trigger twice.
	const tid = "fedcba9876543210fedcba9876543210"
	var trig struct {
		RequestID string `json:"request-id"`
	}
	mustJSON(t, "POST", jm+"/jobs/"+run.JobID+"/savepoints", map[string]any{"triggerId": tid}, 202, &trig)
	mustJSON(t, "POST", jm+"/jobs/"+run.JobID+"/savepoints", map[string]any{"triggerId": tid}, 202, &trig)
	if trig.RequestID != tid {
		t.Errorf("request-id %s, want the triggerId", trig.RequestID)
	}
	eventually(t, "one savepoint", func() bool {
		a, _ := c.App(sess.AppID)
		return len(a.Jobs[0].Savepoints) == 1
	})
	time.Sleep(3 * dSavepoint / 50) // three savepoint durations at this clock speed
	if a, _ := c.App(sess.AppID); len(a.Jobs[0].Savepoints) != 1 {
		t.Errorf("a repeated triggerId took %d savepoints", len(a.Jobs[0].Savepoints))
	}
	mustJSON(t, "DELETE", jm+"/jars/"+withMain, nil, 200, nil)
	mustJSON(t, "DELETE", jm+"/jars/"+withMain, nil, 400, nil)
}
