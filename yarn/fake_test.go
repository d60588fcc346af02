package yarn

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// fake is an HTTP server that answers only the routes a test declares,
// fails the test on any other request, and checks at cleanup that every
// declared route was hit at least as often as required (lazygit's fake
// command runner, over HTTP).
type fake struct {
	t   testing.TB
	srv *httptest.Server

	mu         sync.Mutex
	routes     []*route
	unexpected []string
	log        []string // "METHOD /path?query" in arrival order
}

type route struct {
	method, path string
	handler      http.HandlerFunc
	min          int // required hits (0: optional)
	hits         int
	bodies       []string
	headers      []http.Header
	queries      []string
}

func newFake(t testing.TB) *fake {
	t.Helper()
	f := &fake{t: t}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(func() {
		f.srv.Close()
		f.mu.Lock()
		defer f.mu.Unlock()
		for _, u := range f.unexpected {
			t.Errorf("unexpected request %s", u)
		}
		for _, r := range f.routes {
			if r.hits < r.min {
				t.Errorf("route %s %s: %d request(s), want at least %d", r.method, r.path, r.hits, r.min)
			}
		}
	})
	return f
}

func (f *fake) serve(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	f.mu.Lock()
	f.log = append(f.log, req.Method+" "+req.URL.RequestURI())
	var match *route
	for _, r := range f.routes {
		if r.method == req.Method && r.path == req.URL.EscapedPath() {
			match = r
			break
		}
	}
	if match == nil {
		f.unexpected = append(f.unexpected, req.Method+" "+req.URL.RequestURI())
		f.mu.Unlock()
		http.Error(w, `{"errors":["unexpected request in test"]}`, http.StatusTeapot)
		return
	}
	match.hits++
	match.bodies = append(match.bodies, string(body))
	match.headers = append(match.headers, req.Header.Clone())
	match.queries = append(match.queries, req.URL.RawQuery)
	h := match.handler
	f.mu.Unlock()
	req.Body = io.NopCloser(strings.NewReader(string(body)))
	h(w, req)
}

// URL is the server's base URL.
func (f *fake) URL() string { return f.srv.URL }

// Host is the server's host:port.
func (f *fake) Host() string { return strings.TrimPrefix(f.srv.URL, "http://") }

// on declares a route that must be hit at least once.
func (f *fake) on(method, path string, h http.HandlerFunc) *route {
	f.mu.Lock()
	defer f.mu.Unlock()
	r := &route{method: method, path: path, handler: h, min: 1}
	f.routes = append(f.routes, r)
	return r
}

// json declares a route answering status with a JSON body.
func (f *fake) json(method, path string, status int, body string) *route {
	return f.on(method, path, jsonHandler(status, body))
}

func jsonHandler(status int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

// optional lets a route go unhit.
func (r *route) optional() *route { r.min = 0; return r }

// times requires n hits.
func (r *route) times(n int) *route { r.min = n; return r }

func (f *fake) hits(method, path string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range f.routes {
		if r.method == method && r.path == path {
			return r.hits
		}
	}
	return 0
}

func (f *fake) lastBody(method, path string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range f.routes {
		if r.method == method && r.path == path && len(r.bodies) > 0 {
			return r.bodies[len(r.bodies)-1]
		}
	}
	return ""
}

func (f *fake) lastQuery(method, path string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range f.routes {
		if r.method == method && r.path == path && len(r.queries) > 0 {
			return r.queries[len(r.queries)-1]
		}
	}
	return ""
}

func (f *fake) lastHeader(method, path string) http.Header {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range f.routes {
		if r.method == method && r.path == path && len(r.headers) > 0 {
			return r.headers[len(r.headers)-1]
		}
	}
	return nil
}

func fixture(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// fastOpts keeps waits short so that tests run in milliseconds.
func fastOpts() Options {
	return Options{
		Timeout:      2 * time.Second,
		RetryWait:    time.Millisecond,
		RetryMaxWait: 5 * time.Millisecond,
		PollInterval: time.Millisecond,
	}
}

// deadAddr returns an address where nothing listens.
func deadAddr(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.NotFoundHandler())
	addr := srv.URL
	srv.Close()
	return addr
}

func mustEqual[T comparable](t *testing.T, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}
