package yarn

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Webhook POSTs JSON messages to one chat or alerting webhook (a generic
// receiver, Slack, DingTalk, Feishu). Unlike the cluster clients it retries
// POSTs: a notification sent twice is a nuisance, one lost is an outage
// nobody hears about. Receivers can drop repeats by the message's own key.
//
// Webhook URLs are secrets (Slack and Feishu carry the token in the path,
// DingTalk in the query), so no error of this client shows more than the
// scheme and host. Safe for concurrent use.
type Webhook struct {
	t      *transport
	url    *url.URL
	shown  string // for logs: https://host/…
	inErrs string // for errors, which print the path: https://host/REDACTED
}

// webhookMaxBody caps what is read of a receiver's answer: bots answer a
// few bytes of JSON, and the rest is not worth holding.
const webhookMaxBody = 64 << 10

// NewWebhook makes a client for one webhook URL. Of o, Timeout bounds one
// attempt; Retries (0: DefaultRetries, negative: none), RetryWait and
// RetryMaxWait shape the backoff; Transport, CAFile, InsecureSkipVerify and
// UserAgent apply as for every client. It does no I/O.
func NewWebhook(rawURL string, o Options) (*Webhook, error) {
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("new webhook client: %s is not an http(s) URL", RedactWebhookURL(rawURL))
	}
	t, err := newTransport(o, true)
	if err != nil {
		return nil, fmt.Errorf("new webhook client: %w", err)
	}
	return &Webhook{t: t, url: u, shown: RedactWebhookURL(rawURL), inErrs: errorURL(u)}, nil
}

// RedactWebhookURL shows a webhook URL without its secrets: scheme and host,
// and "/…" when there was more.
func RedactWebhookURL(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return "(webhook URL)"
	}
	out := u.Scheme + "://" + u.Host
	if (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
		out += "/…"
	}
	return out
}

// errorURL is what errors show of u: "POST /REDACTED on host".
func errorURL(u *url.URL) string {
	if (u.Path == "" || u.Path == "/") && u.RawQuery == "" {
		return u.Scheme + "://" + u.Host + "/"
	}
	return u.Scheme + "://" + u.Host + "/REDACTED"
}

// String is the redacted URL, safe for logs.
func (w *Webhook) String() string { return w.shown }

// WebhookAnswer is a receiver's 2xx answer.
type WebhookAnswer struct {
	Status int
	Body   []byte
}

// Post sends body (JSON), with query added to the URL's own query (a
// signature, for DingTalk), and returns the receiver's answer. Connection
// failures, timeouts, 429 and 5xx are retried with exponential backoff
// and jitter (honouring Retry-After up to RetryMaxWait); other statuses
// fail at once with an *HTTPError. check, when not nil, judges a 2xx
// answer (chat bots answer 200 with an error code inside): an error it
// returns that wraps ErrUnavailable is retried like a 503, any other fails
// the post. attempts counts the POSTs made.
func (w *Webhook) Post(ctx context.Context, body []byte, query url.Values, check func(WebhookAnswer) error) (attempts int, err error) {
	target := *w.url
	if len(query) > 0 {
		q := target.Query()
		for k, vs := range query {
			q[k] = append(q[k], vs...)
		}
		target.RawQuery = q.Encode()
	}
	for n := 0; ; n++ {
		ans, retryAfter, err := w.once(ctx, &target, body)
		attempts++
		if err == nil && check != nil {
			err = check(ans)
		}
		if err == nil {
			return attempts, nil
		}
		if n >= w.t.opts.Retries || !retryableWebhook(err) {
			return attempts, err
		}
		if ctx.Err() != nil {
			return attempts, err
		}
		pause := w.t.backoff(n)
		if retryAfter > pause {
			pause = min(retryAfter, w.t.opts.RetryMaxWait)
		}
		if serr := sleep(ctx, pause); serr != nil {
			return attempts, err
		}
	}
}

// retryableWebhook: the receiver was not reached, took too long, asked to
// slow down (429), or failed on its side (5xx).
func retryableWebhook(err error) bool {
	if errors.Is(err, ErrUnavailable) || errors.Is(err, ErrTimeout) {
		return true
	}
	var he *HTTPError
	return errors.As(err, &he) && (he.Status == http.StatusTooManyRequests || he.Status/100 == 5)
}

// once makes one POST. It returns the Retry-After of a 429 or 503.
func (w *Webhook) once(ctx context.Context, target *url.URL, body []byte) (WebhookAnswer, time.Duration, error) {
	const method = http.MethodPost
	actx, cancel := context.WithCancel(ctx)
	defer cancel()
	timedOut := make(chan struct{})
	timer := time.AfterFunc(w.t.opts.Timeout, func() { close(timedOut); cancel() })
	defer timer.Stop()
	res, err := w.t.rc.R().SetContext(actx).SetDoNotParseResponse(true).
		SetHeader("Content-Type", "application/json; charset=utf-8").
		SetBody(body).Execute(method, target.String())
	if err != nil {
		if res != nil && res.RawBody() != nil {
			res.RawBody().Close()
		}
		return WebhookAnswer{}, 0, w.redact(target, classify(ctx, timedOut, method, w.inErrs, err))
	}
	raw := res.RawResponse
	b, rerr := readLimited(raw.Body, webhookMaxBody, raw.ContentLength)
	raw.Body.Close()
	if rerr != nil && !errors.Is(rerr, ErrBodyTooLarge) {
		return WebhookAnswer{}, 0, w.redact(target, classify(ctx, timedOut, method, w.inErrs, rerr))
	}
	ans := WebhookAnswer{Status: raw.StatusCode, Body: b}
	if raw.StatusCode/100 == 2 {
		return ans, 0, nil
	}
	var after time.Duration
	if s := raw.Header.Get("Retry-After"); s != "" {
		if secs, err := time.ParseDuration(strings.TrimSpace(s) + "s"); err == nil && secs > 0 {
			after = secs
		}
	}
	return ans, after, httpError(method, w.inErrs, raw.StatusCode, b)
}

// redact removes any trace of the URL from a transport error's cause (the
// message of a failed dial or TLS handshake can quote it).
func (w *Webhook) redact(target *url.URL, err error) error {
	var re *RequestError
	if !errors.As(err, &re) || re.Err == nil {
		return err
	}
	full := target.String()
	if msg := re.Err.Error(); strings.Contains(msg, full) || strings.Contains(msg, target.RawQuery) && target.RawQuery != "" ||
		strings.Contains(msg, target.Path) && len(target.Path) > 1 {
		re.Err = errors.New(strings.NewReplacer(full, w.inErrs, target.Path, "/REDACTED", target.RawQuery, "REDACTED").Replace(msg))
	}
	return err
}

// CloseIdleConnections drops the client's idle keep-alive connections.
func (w *Webhook) CloseIdleConnections() { w.t.closeIdle() }
