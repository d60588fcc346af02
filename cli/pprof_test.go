package cli

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestPprofLoopbackOnly: --pprof serves the profiles on a loopback
// address and refuses any other.
func TestPprofLoopbackOnly(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, addr := range []string{"0.0.0.0:0", ":0", "192.0.2.1:6060", "[::]:0", "nohostport"} {
		if _, err := servePprof(ctx, addr); err == nil || !strings.Contains(err.Error(), "--pprof "+addr) {
			t.Errorf("--pprof %s: %v, want refused", addr, err)
		}
	}
	at, err := servePprof(ctx, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get("http://" + at + "/debug/pprof/goroutine?debug=1")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !strings.Contains(string(body), "goroutine profile") {
		t.Errorf("goroutine profile: %d %.80s", resp.StatusCode, body)
	}
}
