package yarn

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/go-resty/resty/v2"
)

// Defaults for Options fields left zero.
const (
	DefaultTimeout      = 15 * time.Second
	DefaultRetries      = 2
	DefaultRetryWait    = 200 * time.Millisecond
	DefaultRetryMaxWait = 3 * time.Second
	DefaultMaxBodyBytes = 8 << 20
	// DefaultRMMaxBodyBytes is the ResourceManager client's cap: an
	// application listing of a busy cluster runs to about 1 KiB per app.
	DefaultRMMaxBodyBytes = 64 << 20
	DefaultPollInterval   = 500 * time.Millisecond
	DefaultUserAgent      = "palink"
)

// Options are the settings every client of this package shares. The zero
// value is usable: each zero field takes the default named after it.
type Options struct {
	// Timeout bounds one HTTP attempt, from sending to the last byte of a
	// JSON body (for log streams: until the headers arrive). The caller's ctx
	// bounds the whole call, retries and waits included.
	Timeout time.Duration
	// Retries is how many times a failed GET is tried again (connection
	// refused/reset, 429, 502, 503, 504), with exponential backoff and jitter
	// between RetryWait and RetryMaxWait. 0 means DefaultRetries; negative
	// disables retries. POST, PATCH, PUT and DELETE are never retried: they
	// are not idempotent, or not known to be on every server version.
	Retries      int
	RetryWait    time.Duration
	RetryMaxWait time.Duration
	// MaxBodyBytes caps a response body read into memory; a larger one fails
	// with ErrBodyTooLarge. 0 means DefaultMaxBodyBytes, or
	// DefaultRMMaxBodyBytes for the ResourceManager. Log files are read
	// through their own bounded readers instead (Flink.ReadLog, Flink.OpenLog).
	MaxBodyBytes int64
	// PollInterval is the first pause of waits (kill, savepoint, SQL
	// results); it doubles up to 8× between polls.
	PollInterval time.Duration

	// CAFile is a PEM file of CA certificates trusted in addition to none:
	// when set it replaces the system pool.
	CAFile string
	// CertFile and KeyFile are a client certificate (PEM) shown to servers
	// that ask for one (mutual TLS, e.g. Flink's
	// security.ssl.rest.authentication-enabled).
	CertFile string
	KeyFile  string
	// InsecureSkipVerify disables TLS certificate checks (test clusters only).
	InsecureSkipVerify bool
	// Kerberos authenticates with SPNEGO: every request to a host that asked
	// for it once (and, for the ResourceManager client, to the RMs from the
	// start) carries a ticket of this login context. Clients of one cluster
	// share it; clients of another never do.
	Kerberos *Kerberos
	// DoAs is sent as the doAs query parameter of ResourceManager requests:
	// the RM acts as that user when palink's user may proxy for it.
	DoAs string
	// Username and Password enable HTTP basic authentication.
	Username string
	Password string
	// SimpleAuthUser is sent as the `user.name` query parameter, the way
	// YARN's pseudo/simple authentication identifies a user.
	SimpleAuthUser string
	// UserAgent defaults to DefaultUserAgent.
	UserAgent string
	// Transport replaces the HTTP transport (tests, proxies). TLS options
	// are then ignored.
	Transport http.RoundTripper
}

func (o Options) withDefaults() Options {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	switch {
	case o.Retries == 0:
		o.Retries = DefaultRetries
	case o.Retries < 0:
		o.Retries = 0
	}
	if o.RetryWait <= 0 {
		o.RetryWait = DefaultRetryWait
	}
	if o.RetryMaxWait <= 0 {
		o.RetryMaxWait = DefaultRetryMaxWait
	}
	if o.RetryMaxWait < o.RetryWait {
		o.RetryMaxWait = o.RetryWait
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if o.PollInterval <= 0 {
		o.PollInterval = DefaultPollInterval
	}
	if o.UserAgent == "" {
		o.UserAgent = DefaultUserAgent
	}
	return o
}

// transport is the HTTP machinery shared by the clients: one resty client
// (connection pool, TLS, auth, user agent) and the retry policy.
type transport struct {
	rc   *resty.Client
	opts Options
	// lastSize remembers, by URL, how long the last body was that came
	// without a Content-Length (the RM streams its lists): the fleet's
	// application list, megabytes read every sync cycle, is then read into
	// one buffer instead of one grown and copied a dozen times.
	lastSize sync.Map // string → int64
}

type quietLogger struct{}

func (quietLogger) Errorf(string, ...any) {}
func (quietLogger) Warnf(string, ...any)  {}
func (quietLogger) Debugf(string, ...any) {}

// idleConnsPerHost is how many idle connections a client keeps to one
// host: above the requests palink has in flight to one host (state sync's
// 16 and the metrics' 8).
const idleConnsPerHost = 64

// newTransport builds the resty client. followRedirects is false for the
// ResourceManager, whose standby answers with a redirect that the client
// must see to fail over itself.
func newTransport(o Options, followRedirects bool) (*transport, error) {
	o = o.withDefaults()
	rc := resty.New()
	// The TUI owns the terminal: resty must never print.
	rc.SetLogger(quietLogger{})
	rc.SetDisableWarn(true)
	rc.SetHeader("User-Agent", o.UserAgent)
	rc.SetHeader("Accept", "application/json")
	if o.Transport != nil {
		rc.SetTransport(o.Transport)
	} else {
		tc := &tls.Config{InsecureSkipVerify: o.InsecureSkipVerify} //nolint:gosec // opt-in for test clusters
		if o.CAFile != "" {
			pem, err := os.ReadFile(o.CAFile)
			if err != nil {
				return nil, fmt.Errorf("read CA file: %w", err)
			}
			pool := x509.NewCertPool()
			if !pool.AppendCertsFromPEM(pem) {
				return nil, fmt.Errorf("read CA file %s: no PEM certificate in it", o.CAFile)
			}
			tc.RootCAs = pool
		}
		if o.CertFile != "" || o.KeyFile != "" {
			cert, err := tls.LoadX509KeyPair(o.CertFile, o.KeyFile)
			if err != nil {
				return nil, fmt.Errorf("read client certificate %s and key %s: %w", o.CertFile, o.KeyFile, err)
			}
			tc.Certificates = []tls.Certificate{cert}
		}
		rc.SetTLSClientConfig(tc)
		// A fleet's JobManagers are read through the one RM web proxy, many
		// at once (sync, metrics, alerts): resty keeps GOMAXPROCS+1 idle
		// connections a host, so every request beyond that opened and
		// closed a connection of its own (a dial and a TCP handshake on
		// both sides, 5 % of an agent's CPU at 7,000 jobs).
		if ht, ok := rc.GetClient().Transport.(*http.Transport); ok {
			ht.MaxIdleConnsPerHost = idleConnsPerHost
			ht.MaxIdleConns = max(ht.MaxIdleConns, 4*idleConnsPerHost)
		}
	}
	if o.Kerberos != nil {
		rc.SetTransport(&negotiateTransport{base: rc.GetClient().Transport, krb: o.Kerberos})
	}
	if o.Username != "" || o.Password != "" {
		rc.SetBasicAuth(o.Username, o.Password)
	}
	if followRedirects {
		rc.SetRedirectPolicy(resty.FlexibleRedirectPolicy(5))
	} else {
		rc.SetRedirectPolicy(resty.RedirectPolicyFunc(func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		}))
	}
	return &transport{rc: rc, opts: o}, nil
}

// closeIdle drops the pool's idle keep-alive connections (and their
// goroutines).
func (t *transport) closeIdle() { t.rc.GetClient().CloseIdleConnections() }

// request is one HTTP exchange, independent of the base it is sent to.
type request struct {
	method string
	path   string // relative to the base, already escaped, e.g. "jobs/abc/status"
	query  url.Values
	body   []byte // JSON; nil for none
	// prepare adds what the generic fields cannot say (multipart parts).
	prepare func(*resty.Request)
	// stream leaves the body open for the caller (log files).
	stream bool
	// noTimeout drops Options.Timeout for long uploads; ctx still applies.
	noTimeout bool
}

// response is a completed exchange with its body read (unless streamed).
type response struct {
	status int
	header http.Header
	body   []byte
	stream io.ReadCloser // for stream requests; the caller closes it
	url    string        // redacted
	// negotiate: the server asked for SPNEGO (401 with WWW-Authenticate:
	// Negotiate); ticket: the request carried a Kerberos ticket of this
	// principal.
	negotiate bool
	ticket    string
}

// joinURL resolves a relative, escaped path against a base URL whose path
// is a prefix (e.g. "/proxy/application_1_0001/"), keeping that prefix.
func joinURL(base *url.URL, rel string) *url.URL {
	u := *base
	p, q, _ := strings.Cut(rel, "?")
	bp := strings.TrimSuffix(base.EscapedPath(), "/")
	full := bp + "/" + strings.TrimPrefix(p, "/")
	if unescaped, err := url.PathUnescape(full); err == nil {
		u.Path = unescaped
		u.RawPath = full
		if u.EscapedPath() != full {
			u.RawPath = ""
		}
	}
	u.RawQuery = q
	u.Fragment = ""
	return &u
}

// parseBase validates a base URL given by configuration or by the RM.
func parseBase(raw string) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, errors.New("empty URL")
	}
	if !strings.Contains(raw, "://") {
		raw = "http://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("parse URL %q: %w", redactString(raw), err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("URL %s: scheme must be http or https", redactURL(u))
	}
	if u.Host == "" {
		return nil, fmt.Errorf("URL %s: no host", redactURL(u))
	}
	u.RawQuery, u.Fragment = "", ""
	return u, nil
}

// once performs one attempt against base. Transport failures come back as
// *RequestError; any HTTP status comes back as a response for the caller
// to judge.
func (t *transport) once(ctx context.Context, base *url.URL, r request) (*response, error) {
	u := joinURL(base, r.path)
	if len(r.query) > 0 || t.opts.SimpleAuthUser != "" {
		q := u.Query()
		for k, vs := range r.query {
			q[k] = append(q[k], vs...)
		}
		if t.opts.SimpleAuthUser != "" && q.Get("user.name") == "" {
			q.Set("user.name", t.opts.SimpleAuthUser)
		}
		u.RawQuery = q.Encode()
	}
	full := u.String()
	shown := full
	if u.User != nil || mayHoldSecret(u.RawQuery) {
		shown = redactURL(u)
	}

	actx, cancel := context.WithCancel(ctx)
	var timer *time.Timer
	timedOut := make(chan struct{})
	if !r.noTimeout {
		timer = time.AfterFunc(t.opts.Timeout, func() { close(timedOut); cancel() })
	}
	stop := func() {
		if timer != nil {
			timer.Stop()
		}
		cancel()
	}
	fail := func(err error) (*response, error) {
		stop()
		return nil, classify(ctx, timedOut, r.method, shown, err)
	}

	raw, err := t.send(actx, r, full)
	if err != nil {
		return fail(err)
	}
	out := &response{status: raw.StatusCode, header: raw.Header, url: shown,
		negotiate: raw.StatusCode == http.StatusUnauthorized && negotiateChallenge(raw.Header)}
	if t.opts.Kerberos != nil && raw.Request != nil && strings.HasPrefix(raw.Request.Header.Get("Authorization"), "Negotiate ") {
		out.ticket = t.opts.Kerberos.Principal()
	}
	if r.stream && raw.StatusCode/100 == 2 {
		// Headers are in: from here on only the caller's ctx bounds the read.
		if timer != nil {
			timer.Stop()
		}
		out.stream = &cancelOnClose{ReadCloser: raw.Body, cancel: cancel}
		return out, nil
	}
	size := raw.ContentLength
	if size < 0 {
		if n, ok := t.lastSize.Load(full); ok {
			size = n.(int64) + n.(int64)/8
		}
	}
	body, err := readLimited(raw.Body, t.opts.MaxBodyBytes, size)
	if err == nil && raw.ContentLength < 0 && len(body) > 64<<10 {
		t.lastSize.Store(full, int64(len(body)))
	}
	raw.Body.Close()
	if err != nil {
		if errors.Is(err, ErrBodyTooLarge) {
			stop()
			return nil, &RequestError{Method: r.method, URL: shown, Kind: ErrBodyTooLarge,
				Err: fmt.Errorf("more than %d bytes", t.opts.MaxBodyBytes)}
		}
		return fail(err)
	}
	stop()
	out.body = body
	return out, nil
}

// send hands r to the HTTP client. A plain exchange, one without a body
// or multipart parts (state sync's reads of every job every cycle), goes
// to resty's own http.Client with the headers and credentials resty sets
// from the client's settings: resty's pipeline around it (the URL parsed
// again, headers merged, its middlewares) cost as much per request as
// decoding the answer. The rest go through resty.
func (t *transport) send(ctx context.Context, r request, full string) (*http.Response, error) {
	if r.body == nil && r.prepare == nil {
		req, err := http.NewRequestWithContext(ctx, r.method, full, nil)
		if err != nil {
			return nil, err
		}
		req.Header = t.rc.Header.Clone()
		if ui := t.rc.UserInfo; ui != nil {
			req.SetBasicAuth(ui.Username, ui.Password)
		}
		return t.rc.GetClient().Do(req)
	}
	req := t.rc.R().SetContext(ctx).SetDoNotParseResponse(true)
	if r.body != nil {
		req.SetHeader("Content-Type", "application/json").SetBody(r.body)
	}
	if r.prepare != nil {
		r.prepare(req)
	}
	res, err := req.Execute(r.method, full)
	if err != nil {
		if res != nil && res.RawBody() != nil {
			res.RawBody().Close()
		}
		return nil, err
	}
	return res.RawResponse, nil
}

type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (c *cancelOnClose) Close() error {
	err := c.ReadCloser.Close()
	c.cancel()
	return err
}

// readLimited reads at most max bytes of r. size is what the body is
// expected to take (-1 when unknown): a body read into a buffer of its
// size is not copied as the buffer grows.
func readLimited(r io.Reader, max, size int64) ([]byte, error) {
	lr := io.LimitReader(r, max+1)
	if size < 0 || size > max {
		b, err := io.ReadAll(lr)
		if err != nil {
			return nil, err
		}
		if int64(len(b)) > max {
			return nil, ErrBodyTooLarge
		}
		return b, nil
	}
	// io.ReadAll's loop, from a buffer of the declared size (+1: the read
	// that finds the end needs room).
	b := make([]byte, 0, size+1)
	for {
		n, err := lr.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
	if int64(len(b)) > max {
		return nil, ErrBodyTooLarge
	}
	return b, nil
}

// classify turns a transport failure into a *RequestError with the right
// sentinel: the caller's ctx first (its own cancel or deadline), then the
// per-attempt timeout, then connection failures.
func classify(ctx context.Context, timedOut <-chan struct{}, method, shown string, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		if errors.Is(cerr, context.DeadlineExceeded) {
			return &RequestError{Method: method, URL: shown, Kind: ErrTimeout, Err: cerr}
		}
		return &RequestError{Method: method, URL: shown, Err: cerr}
	}
	select {
	case <-timedOut:
		return &RequestError{Method: method, URL: shown, Kind: ErrTimeout, Err: errors.New("no answer in time")}
	default:
	}
	cause := unwrapURLError(err)
	if hint := tlsHint(err, shown); hint != "" {
		return &RequestError{Method: method, URL: shown, Kind: ErrTLS, Err: fmt.Errorf("%w; %s", cause, hint)}
	}
	var ne net.Error
	switch {
	case errors.As(err, &ne) && ne.Timeout():
		return &RequestError{Method: method, URL: shown, Kind: ErrTimeout, Err: cause}
	case connectionFailure(err):
		return &RequestError{Method: method, URL: shown, Kind: ErrUnavailable, Err: cause}
	}
	return &RequestError{Method: method, URL: shown, Err: cause}
}

// tlsHint says what to do about a certificate palink did not accept, or ""
// when err is not one.
func tlsHint(err error, shown string) string {
	host := shown
	if u, perr := url.Parse(shown); perr == nil && u.Host != "" {
		host = u.Host
	}
	var (
		ua x509.UnknownAuthorityError
		he x509.HostnameError
		ci x509.CertificateInvalidError
		rh tls.RecordHeaderError
	)
	switch {
	case errors.As(err, &ua):
		return "the certificate of " + host + " is not signed by a CA palink trusts: set tls.ca_file to the CA bundle that signed it"
	case errors.As(err, &he):
		return "the certificate of " + host + " is for another name (" + he.Error() + "): use the host name the certificate names"
	case errors.As(err, &ci):
		return "the certificate of " + host + " is not valid (expired, not yet valid or not for a server): renew it on the server"
	case errors.As(err, &rh):
		return host + " does not speak TLS: use http:// for it, or check the port"
	case strings.Contains(err.Error(), "certificate required") || strings.Contains(err.Error(), "bad certificate"):
		return host + " wants a client certificate palink did not show or it did not accept: set tls.cert_file and tls.key_file"
	}
	return ""
}

// unwrapURLError drops net/http's *url.Error wrapper, whose message repeats
// the full URL (with any user info) that the RequestError already shows redacted.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

func connectionFailure(err error) bool {
	if errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.ECONNABORTED) || errors.Is(err, syscall.EPIPE) ||
		errors.Is(err, syscall.EHOSTUNREACH) || errors.Is(err, syscall.ENETUNREACH) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return true
	}
	var oe *net.OpError
	if errors.As(err, &oe) {
		return true
	}
	var de *net.DNSError
	return errors.As(err, &de)
}

// notSent reports whether a failure happened before the request reached a
// server (dial failed), so that even a non-idempotent request may go to
// another address.
func notSent(err error) bool {
	var oe *net.OpError
	return errors.As(err, &oe) && oe.Op == "dial"
}

// retryable says whether another attempt of r may help after err or resp.
// Only GETs are retried.
func retryable(method string, resp *response, err error) bool {
	if method != http.MethodGet {
		return false
	}
	if err != nil {
		var re *RequestError
		return errors.As(err, &re) && re.Kind == ErrUnavailable
	}
	switch resp.status {
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable,
		http.StatusGatewayTimeout:
		return true
	}
	return false
}

// backoff is the pause before retry n (0-based): exponential from
// RetryWait, capped at RetryMaxWait, with "equal jitter" (half fixed, half
// random) so that many clients retrying together spread out.
func (t *transport) backoff(n int) time.Duration {
	d := t.opts.RetryWait << min(n, 20)
	if d <= 0 || d > t.opts.RetryMaxWait {
		d = t.opts.RetryMaxWait
	}
	half := d / 2
	return half + rand.N(half+1)
}

// sleep waits d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-tm.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// do runs r against base with the retry policy and returns the last
// response or error.
func (t *transport) do(ctx context.Context, base *url.URL, r request) (*response, error) {
	for n := 0; ; n++ {
		resp, err := t.once(ctx, base, r)
		if n >= t.opts.Retries || !retryable(r.method, resp, err) {
			return resp, err
		}
		if serr := sleep(ctx, t.backoff(n)); serr != nil {
			if err != nil {
				return nil, err
			}
			return resp, nil
		}
	}
}

// expect turns a response with a status outside want into an *HTTPError.
func expect(method string, resp *response, want ...int) error {
	for _, w := range want {
		if resp.status == w {
			return nil
		}
	}
	if len(want) == 0 && resp.status/100 == 2 {
		return nil
	}
	return respError(method, resp)
}

// decode unmarshals a response body into v, or explains with a
// *DecodeError what was wrong with it.
func decode(method string, resp *response, what string, v any) error {
	body := bytes.TrimSpace(resp.body)
	if len(body) == 0 {
		return &DecodeError{Method: method, URL: resp.url, Status: resp.status, What: what,
			Err: errors.New("empty body")}
	}
	var err error
	if d, ok := v.(bodyDecoder); ok {
		err = d.decodeBody(body)
	} else {
		err = json.Unmarshal(body, v)
	}
	if err != nil {
		return &DecodeError{Method: method, URL: resp.url, Status: resp.status, What: what,
			Err: err, Excerpt: excerptAround(body, err)}
	}
	return nil
}

// bodyDecoder is a response that decodes its body itself: one that tries
// the common shape first and the rare one only when that fails, where an
// UnmarshalJSON method would have encoding/json scan the body once more.
type bodyDecoder interface {
	decodeBody(body []byte) error
}

// jsonBody marshals a request body. The request types are plain structs,
// so an error here is a programming error worth reporting, not hiding.
func jsonBody(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode request body: %w", err)
	}
	return b, nil
}

// pathEscape escapes one path segment (ids, file names).
func pathEscape(s string) string { return url.PathEscape(s) }

// poller yields the pauses of a wait: PollInterval doubling up to 8×.
type poller struct {
	next, max time.Duration
}

func (t *transport) poller() *poller {
	return &poller{next: t.opts.PollInterval, max: 8 * t.opts.PollInterval}
}

func (p *poller) wait(ctx context.Context) error {
	d := p.next
	p.next = min(2*p.next, p.max)
	return sleep(ctx, d)
}

// waitErr explains a wait that the ctx ended: a deadline is ErrTimeout.
func waitErr(what string, err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%s: %w: %w", what, ErrTimeout, err)
	}
	return fmt.Errorf("%s: %w", what, err)
}
