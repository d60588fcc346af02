package sim

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runningJM starts a cluster with one running per-job app and returns its
// JobManager URL and job id.
func runningJM(t *testing.T, o Options) (*Cluster, string, string, string) {
	t.Helper()
	c := startCluster(t, o)
	out, err := c.Submit(t.Context(), SubmitRequest{Name: "faulty"})
	if err != nil {
		t.Fatal(err)
	}
	var a App
	eventually(t, "job RUNNING", func() bool {
		a, _ = c.App(out.AppID)
		return len(a.Jobs) == 1 && a.Jobs[0].State == "RUNNING" && a.JMAddress != ""
	})
	return c, "http://" + a.JMAddress, out.JobID, out.AppID
}

func rawGet(url string) (*http.Response, []byte, error) {
	resp, err := client.Get(url)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, b, err
}

func TestWireFaultsDoWhatTheyClaim(t *testing.T) {
	c, jm, jid, appID := runningJM(t, fastOptions())
	rm := c.ActiveRMURL()
	urls := map[Kind]string{
		KindRM:      rm + "/ws/v1/cluster/apps/" + appID,
		KindProxy:   rm + "/proxy/" + appID + "/jobs/" + jid,
		KindJM:      jm + "/jobs/" + jid,
		KindGateway: c.GatewayURL() + "/v1/info",
	}
	set := func(k Kind, w WireFaults) {
		t.Helper()
		if err := c.SetFaults(Faults{Per: map[Kind]WireFaults{k: w}}); err != nil {
			t.Fatal(err)
		}
	}
	for k, url := range urls {
		t.Run(string(k), func(t *testing.T) {
			defer c.SetFaults(Faults{})
			// Faults on another kind leave this one alone.
			for _, other := range Kinds() {
				// (The proxy forwards to the JobManager: JM faults show through it, as they should.)
				if other != k && !(k == KindProxy && other == KindJM) {
					set(other, WireFaults{ErrorRate: 1})
					resp, body, err := rawGet(url)
					if err != nil || resp.StatusCode != 200 {
						t.Fatalf("faults on %s broke %s: %v %s", other, k, err, body)
					}
				}
			}

			set(k, WireFaults{ResetRate: 1})
			_, _, err := rawGet(url)
			if err == nil || !(errors.Is(err, syscall.ECONNRESET) || errors.Is(err, io.EOF) || strings.Contains(err.Error(), "reset")) {
				t.Errorf("reset: got %v, want a connection reset", err)
			}

			set(k, WireFaults{ErrorRate: 1})
			resp, body, err := rawGet(url)
			if err != nil || resp.StatusCode < 500 {
				t.Fatalf("5xx: %v %v", err, resp)
			}
			switch k {
			case KindRM:
				var rex remoteException
				if json.Unmarshal(body, &rex) != nil || rex.RemoteException.Exception == "" {
					t.Errorf("RM 5xx body %s is not a RemoteException", body)
				}
			case KindJM, KindGateway:
				var fe flinkErrors
				if json.Unmarshal(body, &fe) != nil || len(fe.Errors) == 0 {
					t.Errorf("%s 5xx body %s is not Flink's error shape", k, body)
				}
			}

			set(k, WireFaults{MalformedRate: 1})
			resp, body, err = rawGet(url)
			var v any
			if err != nil || resp.StatusCode != 200 || json.Unmarshal(body, &v) == nil {
				t.Errorf("malformed: %v %v body parses: %s", err, resp, body)
			}

			set(k, WireFaults{TruncateRate: 1})
			resp, body, err = rawGet(url)
			// A cut JSON text is a valid prefix: a decoder runs out of input.
			jerr := json.NewDecoder(bytes.NewReader(body)).Decode(&v)
			if err != nil || resp.StatusCode != 200 || !errors.Is(jerr, io.ErrUnexpectedEOF) {
				t.Errorf("truncated: %v, decode error %v, body %q", err, jerr, body[max(0, len(body)-60):])
			}
			if cl := resp.Header.Get("Content-Length"); cl != strconv.Itoa(len(body)) {
				t.Errorf("truncated: Content-Length %s for %d bytes", cl, len(body))
			}

			set(k, WireFaults{Latency: 120 * time.Millisecond, Jitter: 30 * time.Millisecond})
			start := time.Now()
			if resp, _, err := rawGet(url); err != nil || resp.StatusCode != 200 {
				t.Fatalf("latency: %v", err)
			}
			if d := time.Since(start); d < 120*time.Millisecond {
				t.Errorf("latency: answered in %v, want at least 120ms", d)
			}
		})
	}
}

func TestFaultsAllAndAdminStaysReachable(t *testing.T) {
	c := startCluster(t, Options{Seed: 1, Faults: Faults{All: WireFaults{ErrorRate: 1}}})
	rm := c.ActiveRMURL()
	if r := do(t, "GET", rm+"/ws/v1/cluster/metrics", nil); r.status != http.StatusServiceUnavailable {
		t.Fatalf("with a 5xx rate of 1: %s", r)
	}
	var f Faults
	mustJSON(t, "GET", rm+"/sim/faults", nil, 200, &f)
	if f.All.ErrorRate != 1 {
		t.Errorf("GET /sim/faults: %+v", f)
	}
	mustJSON(t, "PUT", rm+"/sim/faults", `{"all":{"latency":"5ms"},"per":{"jm":{"resetRate":0.5}}}`, 200, &f)
	if f.All.ErrorRate != 0 || f.All.Latency != 5*time.Millisecond || f.Per[KindJM].ResetRate != 0.5 {
		t.Errorf("PUT /sim/faults: %+v", f)
	}
	mustJSON(t, "GET", rm+"/ws/v1/cluster/metrics", nil, 200, nil)
	r := do(t, "PUT", rm+"/sim/faults", `{"all":{"errorRate":2}}`)
	if r.status != 400 {
		t.Errorf("invalid faults: %s", r)
	}
}

func TestPeriodicFaults(t *testing.T) {
	o := fastOptions()
	o.RMs = 2
	c, _, _, appID := runningJM(t, o)
	first := c.ActiveRMURL()
	if err := c.SetFaults(Faults{RMFailoverEvery: 2 * time.Second, JMFailoverEvery: 3 * time.Second}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "an RM failover", func() bool { return c.ActiveRMURL() != first })
	eventually(t, "a JobManager failover", func() bool {
		a, _ := c.App(appID)
		return a.Attempt >= 2
	})
	if err := c.SetFaults(Faults{JobFailEvery: time.Second, FatalShare: 1}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the job to fail for good", func() bool {
		a, _ := c.App(appID)
		return a.Jobs[0].State == "FAILED"
	})
	if err := (Faults{RMFailoverEvery: time.Second}); err.Validate() != nil {
		t.Fatal(err)
	}
	single := startCluster(t, Options{Seed: 1})
	if err := single.SetFaults(Faults{RMFailoverEvery: time.Second}); err == nil {
		t.Error("RM failover accepted with a single RM")
	}
}

func TestParseFaultsAndJSON(t *testing.T) {
	f, err := ParseFaults("latency=20ms,jitter=5ms,5xx=0.02;jm:reset=0.05,truncated=0.1;job-fail=2m,fatal=0.3,rm-failover=10m,jm-failover=5m")
	if err != nil {
		t.Fatal(err)
	}
	want := Faults{All: WireFaults{Latency: 20 * time.Millisecond, Jitter: 5 * time.Millisecond, ErrorRate: 0.02},
		Per:          map[Kind]WireFaults{KindJM: {Latency: 20 * time.Millisecond, Jitter: 5 * time.Millisecond, ErrorRate: 0.02, ResetRate: 0.05, TruncateRate: 0.1}},
		JobFailEvery: 2 * time.Minute, FatalShare: 0.3, RMFailoverEvery: 10 * time.Minute, JMFailoverEvery: 5 * time.Minute}
	if !reflect.DeepEqual(f, want) {
		t.Errorf("ParseFaults:\n got %+v\nwant %+v", f, want)
	}
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	var back Faults
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, f) {
		t.Errorf("JSON round trip: %s → %+v (%v)", b, back, err)
	}
	for _, bad := range []string{"latency=fast", "5xx=2", "db:reset=0.1", "jm:job-fail=1m", "nonsense=1", "novalue"} {
		if _, err := ParseFaults(bad); err == nil {
			t.Errorf("ParseFaults(%q) accepted", bad)
		}
	}
}

func TestJobManagerOfAFailedOverAppResetsOldConnections(t *testing.T) {
	c, jm, jid, appID := runningJM(t, fastOptions())
	if err := c.FailoverJM(appID); err != nil {
		t.Fatal(err)
	}
	_, _, err := rawGet(jm + "/jobs/" + jid)
	if err == nil {
		t.Error("the old JobManager still answers after a failover")
	}
}
