package yarn

import (
	"context"
	"encoding/pem"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// resetConn drops the connection with a TCP RST, as a crashing or
// overloaded server does.
func resetConn(w http.ResponseWriter, _ *http.Request) {
	conn, _, err := w.(http.Hijacker).Hijack()
	if err != nil {
		panic(err)
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		tc.SetLinger(0)
	}
	conn.Close()
}

func TestHTTPErrorsMapToSentinels(t *testing.T) {
	ctx := context.Background()
	jm := newFake(t)
	jm.json("GET", "/jobs/"+jobID, 404, `{"errors":["Job 0f8a6c3b2d1e4f5a6b7c8d9e0f1a2b3c not found"]}`)
	jm.json("GET", "/jobs/"+jobID+"/status", 500, `{"errors":["Internal server error.","<Exception on server side:\norg.apache.flink.runtime.rpc.exceptions.RecipientUnreachableException: Could not send message\n\tat org.apache.flink...\nCaused by: java.util.concurrent.TimeoutException: Invocation of ... timed out.\n\nEnd of exception on server side>"]}`)
	jm.json("GET", "/jobs/"+jobID+"/checkpoints", 403, `<html><body>Forbidden</body></html>`)
	c := newFlink(t, jm.URL(), "", fastOpts())

	_, err := c.Job(ctx, jobID)
	if !errors.Is(err, ErrNotFound) || errors.Is(err, ErrUnavailable) {
		t.Errorf("404: err = %v", err)
	}
	mustEqual(t, "404 message", err.Error(), "GET /jobs/"+jobID+" on "+jm.Host()+": not found: Job "+jobID+" not found")

	_, err = c.JobStatus(ctx, jobID)
	var he *HTTPError
	if !errors.As(err, &he) || he.Status != 500 || len(he.Errors) != 2 {
		t.Fatalf("500: err = %#v", err)
	}
	mustEqual(t, "root cause", he.RootCause(), "java.util.concurrent.TimeoutException: Invocation of ... timed out.")
	want := "GET /jobs/" + jobID + "/status on " + jm.Host() + ": 500 Internal Server Error: " +
		"java.util.concurrent.TimeoutException: Invocation of ... timed out."
	mustEqual(t, "500 message", err.Error(), want)
	mustEqual(t, "500 not retried", jm.hits("GET", "/jobs/"+jobID+"/status"), 1)

	_, err = c.Checkpoints(ctx, jobID)
	if !errors.Is(err, ErrUnauthorized) || !strings.Contains(err.Error(), "<html><body>Forbidden</body></html>") {
		t.Errorf("403: err = %v", err)
	}
}

func TestDecodeErrorsShowTheBody(t *testing.T) {
	ctx := context.Background()
	jm := newFake(t)
	jm.json("GET", "/overview", 200, `{"taskmanagers": 2, "slots-total": 4, "flink-vers`)
	jm.json("GET", "/config", 200, `<html><head><title>Apache Flink Web Dashboard</title></head></html>`)
	jm.json("GET", "/jobs/overview", 200, `{"jobs": {"jid": 1}}`)
	jm.json("GET", "/jobs/"+jobID+"/status", 200, ``)
	c := newFlink(t, jm.URL(), "", fastOpts())

	_, err := c.Overview(ctx)
	var de *DecodeError
	if !errors.As(err, &de) || de.Excerpt != `{"taskmanagers": 2, "slots-total": 4, "flink-vers` || de.What != "cluster overview" {
		t.Fatalf("truncated: %#v", err)
	}
	if !strings.Contains(err.Error(), "unexpected end of JSON input") {
		t.Errorf("message %q", err)
	}
	_, err = c.Config(ctx)
	if !errors.As(err, &de) || !strings.Contains(de.Excerpt, "Apache Flink Web Dashboard") {
		t.Errorf("html: %v", err)
	}
	_, err = c.Jobs(ctx)
	if !errors.As(err, &de) {
		t.Errorf("wrong shape: %v", err)
	}
	_, err = c.JobStatus(ctx, jobID)
	if !errors.As(err, &de) || !strings.Contains(err.Error(), "empty body") {
		t.Errorf("empty: %v", err)
	}
}

func TestTimeouts(t *testing.T) {
	jm := newFake(t)
	slow := func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}
	jm.on("GET", "/overview", slow).times(1)
	o := fastOpts()
	o.Timeout = 50 * time.Millisecond
	c := newFlink(t, jm.URL(), "", o)

	start := time.Now()
	_, err := c.Overview(context.Background())
	if !errors.Is(err, ErrTimeout) || errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("slow server: err = %v, want ErrTimeout (not the caller's deadline)", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
	mustEqual(t, "a timeout is not retried", jm.hits("GET", "/overview"), 1)

	t.Run("caller deadline", func(t *testing.T) {
		jm := newFake(t)
		jm.on("GET", "/overview", slow)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
		defer cancel()
		_, err := newFlink(t, jm.URL(), "", fastOpts()).Overview(ctx)
		if !errors.Is(err, ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("caller cancel", func(t *testing.T) {
		jm := newFake(t)
		jm.on("GET", "/overview", slow)
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(20*time.Millisecond, cancel)
		_, err := newFlink(t, jm.URL(), "", fastOpts()).Overview(ctx)
		if !errors.Is(err, context.Canceled) || errors.Is(err, ErrTimeout) {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestRetriesOnlyForGET(t *testing.T) {
	ctx := context.Background()
	t.Run("reset GET is retried", func(t *testing.T) {
		jm := newFake(t)
		var n atomic.Int32
		jm.on("GET", "/overview", func(w http.ResponseWriter, r *http.Request) {
			if n.Add(1) == 1 {
				resetConn(w, r)
				return
			}
			jsonHandler(200, fixture(t, "flink_overview.json"))(w, r)
		}).times(2)
		if _, err := newFlink(t, jm.URL(), "", fastOpts()).Overview(ctx); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("reset POST is not", func(t *testing.T) {
		jm := newFake(t)
		jm.on("POST", "/jobs/"+jobID+"/stop", resetConn)
		_, err := newFlink(t, "", jm.URL(), fastOpts()).StopWithSavepoint(ctx, jobID, StopRequest{})
		if !errors.Is(err, ErrUnavailable) {
			t.Fatalf("err = %v, want ErrUnavailable", err)
		}
		mustEqual(t, "POST attempts", jm.hits("POST", "/jobs/"+jobID+"/stop"), 1)
	})
	t.Run("503 GET retried up to the limit", func(t *testing.T) {
		jm := newFake(t)
		jm.json("GET", "/overview", 503, `{"errors":["Service temporarily unavailable due to an ongoing leader election. Please refresh."]}`).times(3)
		_, err := newFlink(t, jm.URL(), "", fastOpts()).Overview(ctx)
		if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "leader election") {
			t.Fatalf("err = %v", err)
		}
		mustEqual(t, "attempts (1 + DefaultRetries)", jm.hits("GET", "/overview"), 1+DefaultRetries)
	})
	t.Run("503 POST not retried", func(t *testing.T) {
		jm := newFake(t)
		jm.json("POST", "/jobs/"+jobID+"/savepoints", 503, `{"errors":["leader election"]}`)
		_, err := newFlink(t, "", jm.URL(), fastOpts()).TriggerSavepoint(ctx, jobID, SavepointRequest{})
		if !errors.Is(err, ErrUnavailable) {
			t.Fatalf("err = %v", err)
		}
		mustEqual(t, "attempts", jm.hits("POST", "/jobs/"+jobID+"/savepoints"), 1)
	})
	t.Run("refused", func(t *testing.T) {
		o := fastOpts()
		o.Retries = -1
		_, err := newFlink(t, deadAddr(t), "", o).Overview(ctx)
		if !errors.Is(err, ErrUnavailable) {
			t.Fatalf("err = %v", err)
		}
		var re *RequestError
		if !errors.As(err, &re) || !strings.Contains(err.Error(), "GET /overview on 127.0.0.1:") {
			t.Errorf("message %q", err)
		}
	})
}

func TestBodyCap(t *testing.T) {
	jm := newFake(t)
	jm.json("GET", "/jobs/overview", 200, `{"jobs":[`+strings.Repeat(`{"jid":"x"},`, 200)+`{}]}`)
	o := fastOpts()
	o.MaxBodyBytes = 1024
	_, err := newFlink(t, jm.URL(), "", o).Jobs(context.Background())
	if !errors.Is(err, ErrBodyTooLarge) {
		t.Fatalf("err = %v", err)
	}
}

func TestSecretsStayOutOfMessages(t *testing.T) {
	jm := newFake(t)
	jm.json("GET", "/jobs/overview", 500, `{"errors":["boom"]}`)
	base := strings.Replace(jm.URL(), "http://", "http://ops:hunter2@", 1)
	_, err := newFlink(t, base, "", fastOpts()).Jobs(context.Background())
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Fatalf("err = %v", err)
	}
	var he *HTTPError
	if errors.As(err, &he) && strings.Contains(he.URL, "hunter2") {
		t.Errorf("HTTPError.URL keeps the password: %s", he.URL)
	}
	if u := redactString("http://u:p@h:1/x?delegation=tok&user.name=ops"); strings.Contains(u, "tok") ||
		strings.Contains(u, "u:p") || !strings.Contains(u, "user.name=ops") {
		t.Errorf("redact = %s", u)
	}

	_, err = newFlink(t, "http://ops:hunter2@"+strings.TrimPrefix(deadAddr(t), "http://"), "", Options{Retries: -1}).Jobs(context.Background())
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Fatalf("transport error leaks the password: %v", err)
	}
}

func TestRequestHeadersAndAuth(t *testing.T) {
	jm := newFake(t)
	jm.json("GET", "/overview", 200, fixture(t, "flink_overview.json"))
	o := fastOpts()
	o.Username, o.Password, o.UserAgent, o.SimpleAuthUser = "ops", "s3cret", "palink/test", "flink"
	if _, err := newFlink(t, jm.URL(), "", o).Overview(context.Background()); err != nil {
		t.Fatal(err)
	}
	h := jm.lastHeader("GET", "/overview")
	mustEqual(t, "User-Agent", h.Get("User-Agent"), "palink/test")
	req := &http.Request{Header: h}
	user, pass, ok := req.BasicAuth()
	if !ok || user != "ops" || pass != "s3cret" {
		t.Errorf("basic auth = %q %q %v", user, pass, ok)
	}
	mustEqual(t, "user.name", jm.lastQuery("GET", "/overview"), "user.name=flink")
}

func TestTLSOptions(t *testing.T) {
	srv := httptest.NewUnstartedServer(jsonHandler(200, `{"status":"RUNNING"}`))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the failed handshake below is expected
	srv.StartTLS()
	defer srv.Close()
	ctx := context.Background()
	o := fastOpts()
	o.Retries = -1

	_, err := newFlink(t, srv.URL, "", o).JobStatus(ctx, jobID)
	if err == nil {
		t.Fatal("an unknown CA was trusted")
	}

	caFile := filepath.Join(t.TempDir(), "ca.pem")
	cert := srv.TLS.Certificates[0].Certificate[0]
	if err := os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert}), 0o600); err != nil {
		t.Fatal(err)
	}
	withCA := o
	withCA.CAFile = caFile
	if s, err := newFlink(t, srv.URL, "", withCA).JobStatus(ctx, jobID); err != nil || s != "RUNNING" {
		t.Fatalf("with CA file: %q %v", s, err)
	}
	insecure := o
	insecure.InsecureSkipVerify = true
	if _, err := newFlink(t, srv.URL, "", insecure).JobStatus(ctx, jobID); err != nil {
		t.Fatalf("insecure: %v", err)
	}
	bad := o
	bad.CAFile = filepath.Join(t.TempDir(), "missing.pem")
	if _, err := NewFlink(srv.URL, "", bad); err == nil {
		t.Error("a missing CA file was accepted")
	}
}

func TestBackoffBounds(t *testing.T) {
	tr, err := newTransport(Options{RetryWait: 100 * time.Millisecond, RetryMaxWait: time.Second}, true)
	if err != nil {
		t.Fatal(err)
	}
	for n, full := range []time.Duration{100, 200, 400, 800, 1000, 1000, 1000} {
		full *= time.Millisecond
		for range 50 {
			d := tr.backoff(n)
			if d < full/2 || d > full {
				t.Fatalf("backoff(%d) = %v, want within [%v, %v]", n, d, full/2, full)
			}
		}
	}
	for _, n := range []int{30, 63, 64, 200} { // shifts that would overflow without the cap
		if d := tr.backoff(n); d < time.Second/2 || d > time.Second {
			t.Errorf("backoff(%d) = %v, want within [0.5s, 1s]", n, d)
		}
	}
}

func TestHTTPErrorMessages(t *testing.T) {
	for _, tc := range []struct {
		name string
		e    HTTPError
		want string
	}{
		{"plain flink error", HTTPError{Method: "GET", URL: "http://jm:8081/jobs/x", Status: 409,
			Errors: []string{"Job has already been cancelled."}},
			"GET /jobs/x on jm:8081: 409 Conflict: Job has already been cancelled."},
		{"headline with a deeper cause", HTTPError{Method: "POST", URL: "http://jm:8081/jars/a.jar/run", Status: 400,
			Errors: []string{"org.apache.flink.runtime.rest.handler.RestHandlerException: Could not execute application.\n\tat x\nCaused by: org.apache.flink.client.program.ProgramInvocationException: The main method caused an error: boom"}},
			"POST /jars/a.jar/run on jm:8081: 400 Bad Request: org.apache.flink.runtime.rest.handler.RestHandlerException: Could not execute application. (caused by org.apache.flink.client.program.ProgramInvocationException: The main method caused an error: boom)"},
		{"excerpt when no error shape", HTTPError{Method: "GET", URL: "http://rm:8088/proxy/application_1_0001/overview", Status: 502,
			Excerpt: "<html> Bad Gateway </html>"},
			"GET /proxy/application_1_0001/overview on rm:8088: unavailable (502 Bad Gateway): <html> Bad Gateway </html>"},
		{"nothing said", HTTPError{Method: "DELETE", URL: "http://gw:8083/v2/sessions/s", Status: 500},
			"DELETE /v2/sessions/s on gw:8083: 500 Internal Server Error"},
		{"proxy refuses a POST", HTTPError{Method: "POST", URL: "http://rm:8088/proxy/a/jobs/x/stop", Status: 405},
			"POST /proxy/a/jobs/x/stop on rm:8088: 405 Method Not Allowed"},
	} {
		t.Run(tc.name, func(t *testing.T) { mustEqual(t, "Error()", tc.e.Error(), tc.want) })
	}
	if got := excerpt([]byte("a\n\tb  \x00c"+strings.Repeat("é", 200)), 20); got != "a b c"+strings.Repeat("é", 6)+"…" {
		t.Errorf("excerpt = %q", got)
	}
}

func TestBaseURLs(t *testing.T) {
	for in, want := range map[string]string{
		"rm1:8088":                      "http://rm1:8088",
		"https://rm1:8090/":             "https://rm1:8090/",
		" http://rm1:8088/gateway?x=1 ": "http://rm1:8088/gateway",
	} {
		u, err := parseBase(in)
		if err != nil || u.String() != want {
			t.Errorf("parseBase(%q) = %v, %v; want %s", in, u, err, want)
		}
	}
	for _, bad := range []string{"", "ftp://x", "http://"} {
		if _, err := parseBase(bad); err == nil {
			t.Errorf("parseBase(%q) accepted", bad)
		}
	}
	base, _ := parseBase("http://rm:8088/proxy/application_1_0001/")
	mustEqual(t, "join keeps the prefix", joinURL(base, "jobs/a%2Fb/status?x=1").String(),
		"http://rm:8088/proxy/application_1_0001/jobs/a%2Fb/status?x=1")

	rm, err := NewResourceManager([]string{"rm1:8088", "http://rm2:8088"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "proxy URL", rm.ProxyURL("application_1_0001"), "http://rm1:8088/proxy/application_1_0001/")
	if _, err := NewResourceManager(nil, Options{}); err == nil {
		t.Error("no RM address accepted")
	}
	fl, err := NewFlink("http://rm1:8088/proxy/application_1_0001/", "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	other, err := fl.WithBases("", "jm-host:40321")
	if err != nil || other.t != fl.t || other.DirectBase() != "http://jm-host:40321" || other.ReadBase() != "" {
		t.Errorf("WithBases = %+v, %v", other, err)
	}
	if _, err := fl.WithBases(" ", ""); err == nil {
		t.Error("no base accepted")
	}
}

func TestNoGoroutineLeft(t *testing.T) {
	jm := newFake(t)
	jm.json("GET", "/overview", 200, fixture(t, "flink_overview.json")).times(10)
	jm.on("GET", "/jobmanager/log", wholeLog(1<<20, false)).times(2)
	before := runtime.NumGoroutine()
	c := newFlink(t, jm.URL(), "", fastOpts())
	for range 10 {
		if _, err := c.Overview(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.ReadLog(context.Background(), LogFile{}, LogRange{Tail: true, Limit: 10}); err != nil {
		t.Fatal(err)
	}
	rc, err := c.OpenLog(context.Background(), LogFile{})
	if err != nil {
		t.Fatal(err)
	}
	io.CopyN(io.Discard, rc, 100) // a reader closed before its end
	rc.Close()
	c.CloseIdleConnections()
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines left over (%d before):\n%s", n-before, before, buf[:runtime.Stack(buf, true)])
	}
}

// FuzzMayHoldSecret: whenever redactURL masks a query, mayHoldSecret said
// it might, so skipping the mask on its word never shows a secret.
func FuzzMayHoldSecret(f *testing.F) {
	for _, q := range []string{"", "user.name=flink", "token=abc", "X-Auth=1", "p%61ss=2",
		"a+key=3", "Signature=4&x=1", "delegation=5", "my_SECRET_thing=6", "k%45y=7"} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, q string) {
		u := &url.URL{Scheme: "http", Host: "rm:8088", Path: "/ws/v1/cluster/apps", RawQuery: q}
		if redactURL(u) != u.String() && !mayHoldSecret(q) {
			t.Fatalf("query %q is masked, but mayHoldSecret said no", q)
		}
	})
}

// TestReadLimitedWhateverTheSizeSaid: the size a body is expected to take
// is a hint for the buffer, never a limit or a promise.
func TestReadLimitedWhateverTheSizeSaid(t *testing.T) {
	const max = 4096
	for _, n := range []int{0, 1, 511, 512, 513, 4095, 4096, 4097, 10000} {
		body := strings.Repeat("x", n)
		for _, size := range []int64{-1, 0, 1, int64(n) - 1, int64(n), int64(n) + 1, max + 1, 1 << 20} {
			got, err := readLimited(strings.NewReader(body), max, size)
			if n > max {
				if !errors.Is(err, ErrBodyTooLarge) {
					t.Errorf("%d bytes, size %d: err %v, want ErrBodyTooLarge", n, size, err)
				}
				continue
			}
			if err != nil || string(got) != body {
				t.Errorf("%d bytes, size %d: read %d bytes, %v", n, size, len(got), err)
			}
		}
	}
}
