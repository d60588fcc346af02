package sim

import (
	"encoding/json"
	"net/http"
	"testing"
)

func startCluster(t *testing.T, o Options) *Cluster {
	t.Helper()
	c, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(t.Context(), "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func getJSON(t *testing.T, url string, into any) int {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	if into != nil {
		if err := json.NewDecoder(resp.Body).Decode(into); err != nil {
			t.Fatalf("GET %s: decode: %v", url, err)
		}
	}
	return resp.StatusCode
}

func TestStartServesClusterInfoOnEveryRM(t *testing.T) {
	c := startCluster(t, Options{Seed: 1, RMs: 2})
	urls := c.RMURLs()
	if len(urls) != 2 || urls[0] == urls[1] {
		t.Fatalf("RMURLs = %v, want two distinct URLs", urls)
	}
	for i, want := range []string{"ACTIVE", "STANDBY"} {
		var got struct {
			ClusterInfo struct {
				HAState string `json:"haState"`
				State   string `json:"state"`
			} `json:"clusterInfo"`
		}
		if code := getJSON(t, urls[i]+"/ws/v1/cluster/info", &got); code != http.StatusOK {
			t.Fatalf("rm%d cluster/info: status %d", i+1, code)
		}
		if got.ClusterInfo.HAState != want || got.ClusterInfo.State != "STARTED" {
			t.Errorf("rm%d: haState %q state %q, want %q STARTED", i+1, got.ClusterInfo.HAState, got.ClusterInfo.State, want)
		}
	}
	if c.FailoverRM() != 1 {
		t.Fatal("FailoverRM did not make rm2 active")
	}
	if c.ActiveRMURL() != urls[1] {
		t.Errorf("ActiveRMURL = %s, want %s", c.ActiveRMURL(), urls[1])
	}
}
