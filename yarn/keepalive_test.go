package yarn

import (
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
)

// TestManyJobManagersThroughOneProxyReuseConnections: a fleet's JobManagers
// are read through the RM web proxy, one host, with many requests in
// flight; the connections of one round serve the next, rather than each
// request beyond a few idle ones dialling (and the proxy accepting) a
// connection of its own.
func TestManyJobManagersThroughOneProxyReuseConnections(t *testing.T) {
	var opened atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"jobs":[{"jid":"a1","state":"RUNNING"}]}`))
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			opened.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	f, err := NewFlink(srv.URL+"/proxy/application_1_0001/", "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	const inFlight, rounds = 24, 5
	for range rounds {
		var wg sync.WaitGroup
		for i := range inFlight {
			wg.Add(1)
			go func() {
				defer wg.Done()
				app, _ := f.WithBases(srv.URL+"/proxy/application_1_"+string(rune('a'+i))+"/", "")
				if _, err := app.Jobs(t.Context()); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
	}
	// A connection goes back to the pool just after its answer was read:
	// a round may start before the last few are back.
	if n := opened.Load(); n > 2*inFlight {
		t.Errorf("%d rounds of %d requests in flight opened %d connections; want at most %d (about one per request in flight)", rounds, inFlight, n, 2*inFlight)
	}
}
