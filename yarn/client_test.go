package yarn

import (
	"context"
	"net/http"
	"net/url"
	"sync"
	"testing"

	"github.com/go-resty/resty/v2"
)

// TestPlainRequestsCarryWhatRestySends: a plain read skips resty's
// pipeline (transport.send), so it must carry the same headers and
// credentials as a request resty builds, or a secured cluster would
// answer the hot path differently from the rest.
func TestPlainRequestsCarryWhatRestySends(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]http.Header{}
	f := newFake(t)
	f.on("GET", "/v1/plain", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen[r.URL.Query().Get("via")] = r.Header.Clone()
		mu.Unlock()
		w.WriteHeader(http.StatusOK)
	}).times(2)
	o := fastOpts()
	o.Username, o.Password, o.UserAgent = "ops", "s3cret", "palink-test"
	tr, err := newTransport(o, true)
	if err != nil {
		t.Fatal(err)
	}
	base, err := parseBase(f.URL())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []request{
		{method: http.MethodGet, path: "v1/plain", query: url.Values{"via": {"plain"}}},
		{method: http.MethodGet, path: "v1/plain", query: url.Values{"via": {"resty"}}, prepare: func(*resty.Request) {}},
	} {
		resp, err := tr.do(context.Background(), base, r)
		if err != nil || resp.status != http.StatusOK {
			t.Fatalf("%s: %v %v", r.query.Get("via"), resp, err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	plain, rest := seen["plain"], seen["resty"]
	if plain == nil || rest == nil {
		t.Fatalf("seen %v", seen)
	}
	for _, h := range []string{"User-Agent", "Accept", "Authorization", "Content-Type", "Accept-Encoding"} {
		if plain.Get(h) != rest.Get(h) {
			t.Errorf("%s: plain %q, through resty %q", h, plain.Get(h), rest.Get(h))
		}
	}
	if user, pass, ok := (&http.Request{Header: plain}).BasicAuth(); !ok || user != "ops" || pass != "s3cret" {
		t.Errorf("plain request's basic auth: %q %q %v", user, pass, ok)
	}
	if plain.Get("User-Agent") != "palink-test" || plain.Get("Accept") != "application/json" {
		t.Errorf("plain request's headers: %v", plain)
	}
}
