package sim

import (
	"bytes"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// injector injects the wire faults into every listener's exchanges and
// tells the other parts the faults in force. Its lock is its own: a request
// rolls its faults before it takes the cluster lock, and a part that holds
// the cluster lock may ask for the faults (mu is always taken after the
// cluster lock, never before it).
type injector struct {
	mu     sync.Mutex
	rng    *rand.Rand // fault draws only, so they do not shift the simulation's ids
	faults Faults
}

// newInjector starts with faults f, drawing from a generator seeded by seed.
func newInjector(seed int64, f Faults) *injector {
	return &injector{rng: rand.New(rand.NewPCG(uint64(seed), 0x5eed)), faults: f.clone()}
}

// set replaces the faults in force.
func (in *injector) set(f Faults) {
	in.mu.Lock()
	in.faults = f.clone()
	in.mu.Unlock()
}

// get returns a copy of the faults in force.
func (in *injector) get() Faults {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.faults.clone()
}

// quiet reports whether requests of kind k get no fault at all.
func (in *injector) quiet(k Kind) bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.faults.Wire(k) == WireFaults{}
}

// fault is what one request gets.
type fault int

const (
	faultNone fault = iota
	faultReset
	faultError
	faultMalformed
	faultTruncate
)

// roll draws the delay and the fault for one request of kind k.
func (in *injector) roll(k Kind) (time.Duration, fault) {
	in.mu.Lock()
	defer in.mu.Unlock()
	w := in.faults.Wire(k)
	delay := w.Latency
	if w.Jitter > 0 {
		delay += time.Duration(in.rng.Int64N(int64(w.Jitter)))
	}
	p := in.rng.Float64()
	for _, r := range []struct {
		rate float64
		f    fault
	}{{w.ResetRate, faultReset}, {w.ErrorRate, faultError}, {w.MalformedRate, faultMalformed}, {w.TruncateRate, faultTruncate}} {
		if p < r.rate {
			return delay, r.f
		}
		p -= r.rate
	}
	return delay, faultNone
}

// wrap wraps a listener's handler with its wire faults. kindOf tells
// the kind of each request (the RM listener also serves the proxy).
func (in *injector) wrap(kindOf func(*http.Request) Kind, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		k := kindOf(r)
		if strings.HasPrefix(r.URL.Path, "/sim/") {
			// The admin endpoints must stay reachable to turn faults off.
			h.ServeHTTP(w, r)
			return
		}
		delay, f := in.roll(k)
		if delay > 0 {
			t := time.NewTimer(delay)
			select {
			case <-t.C:
			case <-r.Context().Done():
				t.Stop()
				return
			}
		}
		switch f {
		case faultReset:
			resetConn(w)
			return
		case faultError:
			writeInjectedError(w, k)
			return
		case faultMalformed, faultTruncate:
			bw := &bufferedWriter{rw: w, header: http.Header{}}
			h.ServeHTTP(bw, r)
			bw.finish(f)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// resetConn closes the client's connection with a TCP RST and no answer.
func resetConn(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic(http.ErrAbortHandler)
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		return
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = conn.Close()
}

// writeInjectedError answers in the error shape of the listener kind.
func writeInjectedError(w http.ResponseWriter, k Kind) {
	switch k {
	case KindRM:
		writeRemoteException(w, http.StatusServiceUnavailable, "WebApplicationException",
			"javax.ws.rs.WebApplicationException", "sim: injected fault: ResourceManager unavailable")
	case KindProxy:
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusBadGateway)
		_, _ = w.Write([]byte("sim: injected fault: the web proxy could not reach the ApplicationMaster\n"))
	default:
		writeFlinkError(w, http.StatusInternalServerError, "Internal server error.",
			"<Exception on server side:\njava.lang.RuntimeException: sim: injected fault\nEnd of exception on server side>")
	}
}

// maxBuffered bounds what a body fault buffers; larger bodies (logs) pass
// through untouched.
const maxBuffered = 1 << 20

// bufferedWriter holds a response so that its JSON body can be damaged.
type bufferedWriter struct {
	rw          http.ResponseWriter
	header      http.Header
	status      int
	buf         bytes.Buffer
	passthrough bool
}

func (b *bufferedWriter) Header() http.Header {
	if b.passthrough {
		return b.rw.Header()
	}
	return b.header
}

func (b *bufferedWriter) WriteHeader(code int) {
	if b.status == 0 {
		b.status = code
	}
}

func (b *bufferedWriter) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	if b.passthrough {
		return b.rw.Write(p)
	}
	if b.buf.Len()+len(p) > maxBuffered {
		b.flushHeader()
		b.passthrough = true
		if _, err := b.rw.Write(b.buf.Bytes()); err != nil {
			return 0, err
		}
		b.buf.Reset()
		return b.rw.Write(p)
	}
	return b.buf.Write(p)
}

func (b *bufferedWriter) flushHeader() {
	for k, v := range b.header {
		b.rw.Header()[k] = v
	}
	if b.status == 0 {
		b.status = http.StatusOK
	}
	b.rw.WriteHeader(b.status)
}

func (b *bufferedWriter) finish(f fault) {
	if b.passthrough {
		return
	}
	body := b.buf.Bytes()
	if strings.Contains(b.header.Get("Content-Type"), "json") && len(body) > 1 {
		if f == faultMalformed {
			body = malform(body)
		} else {
			body = body[:len(body)/2]
		}
		b.header.Set("Content-Length", strconv.Itoa(len(body)))
	}
	b.flushHeader()
	_, _ = b.rw.Write(body)
}

// malform turns valid JSON into text no JSON parser accepts, keeping its look.
func malform(body []byte) []byte {
	out := bytes.Clone(body)
	if i := bytes.IndexByte(out, '"'); i >= 0 {
		out[i] = '\'' // single-quoted keys are not JSON
		return out
	}
	return append([]byte("}"), out...)
}

// staleStatus is the StaleStatus fault in force; callers may hold the
// cluster lock (in.mu is always taken after it).
func (in *injector) staleStatus() time.Duration {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.faults.StaleStatus
}
