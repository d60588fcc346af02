package yarn

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/palink/palink/model"
)

// Sentinels that callers test with errors.Is. Every error this package
// returns wraps one of them when it applies, whatever its concrete type.
var (
	// ErrNotFound: the entity does not exist (HTTP 404, or an application
	// the RM no longer knows).
	ErrNotFound = model.ErrNotFound
	// ErrUnavailable: the server could not be reached or cannot serve now —
	// connection refused or reset, 502/503/504, or no active ResourceManager.
	ErrUnavailable = model.ErrUnavailable
	// ErrTimeout: a request, or a wait for an operation to finish, ran out of
	// time. Errors caused by the caller's own ctx deadline wrap both this and
	// context.DeadlineExceeded.
	ErrTimeout = model.ErrTimeout
	// ErrUnauthorized: HTTP 401 or 403. The RM answers 401 to a kill when no
	// HTTP authentication filter is set up.
	ErrUnauthorized = errors.New("unauthorized")
	// ErrBodyTooLarge: a response body exceeded Options.MaxBodyBytes.
	ErrBodyTooLarge = errors.New("response body too large")
	// ErrNoDirectAddress: an action needs the JobManager's direct address
	// (amRPCAddress) because the YARN web proxy forwards only GET and PUT.
	ErrNoDirectAddress = errors.New("no direct JobManager address (the YARN proxy forwards only GET and PUT)")
	// ErrTLS: the TLS handshake failed on a certificate: the server's is not
	// trusted or not for its name, or the server refused palink's.
	ErrTLS = errors.New("TLS certificate not accepted")
	// ErrUnsupported: the server's API version lacks the operation
	// (e.g. configure-session on a v1 SQL Gateway).
	ErrUnsupported = errors.New("not supported by the server's API version")
)

var (
	_ error = (*HTTPError)(nil)
	_ error = (*DecodeError)(nil)
	_ error = (*RequestError)(nil)
	_ error = (*OperationFailedError)(nil)
)

// HTTPError is a response with a status other than the one expected.
// errors.Is maps it onto the sentinels: 404 → ErrNotFound, 401/403 →
// ErrUnauthorized, 502/503/504 → ErrUnavailable, 408 → ErrTimeout.
type HTTPError struct {
	Method string
	URL    string // with credentials and secret query values removed
	Status int
	// Errors is Flink's (JobManager, SQL Gateway) `{"errors":[…]}` list, or
	// the YARN RemoteException's "exception: message".
	Errors []string
	// Excerpt is the start of a body that had no recognised error shape,
	// trimmed to one line.
	Excerpt string
	// Negotiate: the server asked for Kerberos (401 with WWW-Authenticate:
	// Negotiate).
	Negotiate bool
	// Ticket is the principal whose Kerberos ticket the request carried
	// ("" when it carried none).
	Ticket string
}

// Error reads "METHOD /path on host: status: server's message", and says
// what to do when Kerberos is the cause.
func (e *HTTPError) Error() string {
	var b strings.Builder
	b.WriteString(where(e.Method, e.URL))
	b.WriteString(": ")
	b.WriteString(statusPhrase(e.Status))
	switch {
	case e.kerberosRequired():
		b.WriteString(": this cluster requires Kerberos; add auth.kerberos (principal, and keytab or ccache) to its configuration")
		return b.String()
	case e.ticketRefused():
		b.WriteString(": the server refused the Kerberos ticket of ")
		b.WriteString(e.Ticket)
	}
	if msg := e.Message(); msg != "" {
		b.WriteString(": ")
		b.WriteString(msg)
	}
	return b.String()
}

// Message is the server's own explanation in one line: the first error
// (without Flink's "<Exception on server side:" wrapper) and, when a Java
// stack trace carries one, its deepest "Caused by". Empty when the server
// said nothing useful.
func (e *HTTPError) Message() string {
	if len(e.Errors) == 0 {
		return e.Excerpt
	}
	var first string
	for _, s := range e.Errors {
		if l := headline(s); l != "" {
			first = l
			break
		}
	}
	if root := e.RootCause(); root != "" && !strings.Contains(first, root) {
		if first == "" || first == "Internal server error." {
			return clip(root, 400)
		}
		return clip(first+" (caused by "+root+")", 400)
	}
	return clip(first, 400)
}

// RootCause is the last "Caused by: …" line of the Java stack traces in
// Errors (SQL validation errors hide there), or "".
func (e *HTTPError) RootCause() string {
	var root string
	for _, s := range e.Errors {
		for _, line := range strings.Split(s, "\n") {
			line = strings.TrimSpace(line)
			if c, ok := strings.CutPrefix(line, "Caused by: "); ok {
				root = c
			}
		}
	}
	return root
}

// kerberosRequired: a 401 Negotiate to a request without a ticket.
func (e *HTTPError) kerberosRequired() bool {
	return e.Status == http.StatusUnauthorized && e.Negotiate && e.Ticket == ""
}

// ticketRefused: the request carried a ticket and the server's
// authentication filter refused it (Hadoop's AuthenticationFilter answers
// 403 with the GSS failure, or 401 Negotiate again).
func (e *HTTPError) ticketRefused() bool {
	if e.Ticket == "" {
		return false
	}
	if e.Status == http.StatusUnauthorized {
		return true
	}
	if e.Status != http.StatusForbidden {
		return false
	}
	m := e.Message()
	return strings.Contains(m, "GSSException") || strings.Contains(m, "Kerberos") || strings.Contains(m, "AuthenticationException")
}

// Is maps the status onto the package's sentinels.
func (e *HTTPError) Is(target error) bool {
	switch target {
	case ErrKerberosRequired:
		return e.kerberosRequired()
	case ErrKerberos:
		return e.kerberosRequired() || e.ticketRefused()
	case ErrClockSkew:
		return e.ticketRefused() && strings.Contains(strings.ToLower(e.Message()), "clock skew")
	case ErrTicketExpired:
		return e.ticketRefused() && strings.Contains(strings.ToLower(e.Message()), "expired")
	case ErrNotFound:
		return e.Status == http.StatusNotFound
	case ErrUnauthorized:
		return e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden
	case ErrUnavailable:
		return e.Status == http.StatusBadGateway || e.Status == http.StatusServiceUnavailable ||
			e.Status == http.StatusGatewayTimeout
	case ErrTimeout:
		return e.Status == http.StatusRequestTimeout
	}
	return false
}

// DecodeError is a response whose body is not what the API promises:
// malformed or truncated JSON, HTML from a proxy's login page, and so on.
type DecodeError struct {
	Method string
	URL    string // with credentials and secret query values removed
	Status int
	What   string // what was being decoded, e.g. "job details"
	Err    error
	// Excerpt shows the body near the error, trimmed to one line.
	Excerpt string
}

// Error reads "METHOD /path on host: decode what: cause; body: excerpt".
func (e *DecodeError) Error() string {
	msg := fmt.Sprintf("%s: decode %s: %v", where(e.Method, e.URL), e.What, e.Err)
	if e.Excerpt != "" {
		msg += "; body: " + e.Excerpt
	}
	return msg
}

// Unwrap returns the JSON error.
func (e *DecodeError) Unwrap() error { return e.Err }

// RequestError is a request that got no usable HTTP answer: the connection
// failed, the time ran out, or (for the ResourceManager) no address had an
// active RM. Kind is one of the sentinels, or nil when none applies (a TLS
// certificate problem, say); Err is the cause.
type RequestError struct {
	Method string
	URL    string // with credentials and secret query values removed
	Kind   error
	Err    error
}

// Error reads "METHOD /path on host: kind: cause".
func (e *RequestError) Error() string {
	switch {
	case e.Kind == nil:
		return fmt.Sprintf("%s: %v", where(e.Method, e.URL), e.Err)
	case e.Err == nil:
		return fmt.Sprintf("%s: %v", where(e.Method, e.URL), e.Kind)
	}
	return fmt.Sprintf("%s: %v: %v", where(e.Method, e.URL), e.Kind, e.Err)
}

// Unwrap exposes both the sentinel and the cause to errors.Is and errors.As.
func (e *RequestError) Unwrap() []error {
	var errs []error
	if e.Kind != nil {
		errs = append(errs, e.Kind)
	}
	if e.Err != nil {
		errs = append(errs, e.Err)
	}
	return errs
}

// where renders "GET /path on host:port" from a redacted URL: the path says
// what was asked and the host says whom, without the query (it may carry a
// user name) or anything else.
func where(method, rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return method + " " + rawURL
	}
	p := u.EscapedPath()
	if p == "" {
		p = "/"
	}
	return method + " " + p + " on " + u.Host
}

func statusPhrase(status int) string {
	switch status {
	case http.StatusNotFound:
		return "not found"
	case http.StatusUnauthorized, http.StatusForbidden:
		return fmt.Sprintf("unauthorized (%d %s)", status, http.StatusText(status))
	case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return fmt.Sprintf("unavailable (%d %s)", status, http.StatusText(status))
	case http.StatusMethodNotAllowed:
		return "405 Method Not Allowed"
	}
	if t := http.StatusText(status); t != "" {
		return fmt.Sprintf("%d %s", status, t)
	}
	return fmt.Sprintf("HTTP %d", status)
}

// secretParams are query keys whose values never appear in messages.
var secretParams = []string{"pass", "secret", "token", "delegation", "sig", "auth", "key"}

// mayHoldSecret reports whether a raw query could have a key redactURL
// masks: false only when no key can (no escapes, no secret word), which
// spares parsing the query of every request again.
func mayHoldSecret(rawQuery string) bool {
	if strings.ContainsAny(rawQuery, "%+") {
		return true
	}
	lq := strings.ToLower(rawQuery)
	for _, s := range secretParams {
		if strings.Contains(lq, s) {
			return true
		}
	}
	return false
}

// redactURL drops the user info and masks secret-looking query values so
// that a URL can be shown in messages and logs.
func redactURL(u *url.URL) string {
	if u == nil {
		return ""
	}
	c := *u
	c.User = nil
	if c.RawQuery != "" {
		q := c.Query()
		changed := false
		for k := range q {
			lk := strings.ToLower(k)
			for _, s := range secretParams {
				if strings.Contains(lk, s) {
					q[k] = []string{"REDACTED"}
					changed = true
					break
				}
			}
		}
		if changed {
			c.RawQuery = q.Encode()
		}
	}
	return c.String()
}

// redactString redacts a URL given as text; text that is not a URL is
// returned as is.
func redactString(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return s
	}
	return redactURL(u)
}

// respError builds the error for a response with an unexpected status.
func respError(method string, resp *response) *HTTPError {
	e := httpError(method, resp.url, resp.status, resp.body)
	e.Negotiate, e.Ticket = resp.negotiate, resp.ticket
	return e
}

// ACLError is the ResourceManager refusing an action on an application
// because its ACLs do not let the user do it (403 from a modify or view
// check). It wraps the HTTPError and ErrUnauthorized.
type ACLError struct {
	User   string // as the RM saw it: palink's principal's short name, or the doAs user
	Action string // "kill"
	App    string
	Err    *HTTPError
}

// Error reads "user X may not kill application Y: YARN ACL (RM's words)".
func (e *ACLError) Error() string {
	user := e.User
	if user == "" {
		user = "palink's user"
	} else {
		user = "user " + user
	}
	msg := fmt.Sprintf("%s may not %s application %s: YARN ACL", user, e.Action, e.App)
	if m := e.Err.Message(); m != "" {
		msg += " (" + m + ")"
	}
	return msg
}

// Unwrap exposes the HTTPError (and so ErrUnauthorized).
func (e *ACLError) Unwrap() error { return e.Err }

// httpError builds the error for an unexpected status from its body.
func httpError(method, redactedURL string, status int, body []byte) *HTTPError {
	e := &HTTPError{Method: method, URL: redactedURL, Status: status}
	e.Errors = errorList(body)
	if len(e.Errors) == 0 {
		e.Excerpt = excerpt(body, 200)
		if t := htmlTitle(body); t != "" {
			e.Excerpt = excerpt([]byte(t), 300)
		}
	}
	return e
}

// htmlTitle is the title of an HTML error page ("Error 403 GSSException:
// …", as Hadoop's Jetty writes them) without its "Error NNN" prefix, or "".
func htmlTitle(body []byte) string {
	lower := bytes.ToLower(body)
	i := bytes.Index(lower, []byte("<title>"))
	j := bytes.Index(lower, []byte("</title>"))
	if i < 0 || j < i {
		return ""
	}
	t := strings.TrimSpace(html.UnescapeString(string(body[i+len("<title>") : j])))
	if rest, ok := strings.CutPrefix(t, "Error "); ok {
		if _, after, ok := strings.Cut(rest, " "); ok {
			t = after
		}
	}
	return t
}

// errorList reads the error shapes of the servers this package talks to:
// Flink's {"errors":[…]} and YARN's {"RemoteException":{…}}.
func errorList(body []byte) []string {
	var flink struct {
		Errors []string `json:"errors"`
	}
	if json.Unmarshal(body, &flink) == nil && len(flink.Errors) > 0 {
		return flink.Errors
	}
	var rm struct {
		RemoteException *struct {
			Exception     string `json:"exception"`
			Message       string `json:"message"`
			JavaClassName string `json:"javaClassName"`
		} `json:"RemoteException"`
	}
	if json.Unmarshal(body, &rm) == nil && rm.RemoteException != nil {
		r := rm.RemoteException
		msg := strings.TrimPrefix(r.Message, "java.lang.Exception: ")
		if r.Exception != "" {
			msg = r.Exception + ": " + msg
		}
		return []string{msg}
	}
	return nil
}

// headline is the first meaningful line of one Flink error entry; Flink
// wraps server-side traces in "<Exception on server side:\n…>".
func headline(s string) string {
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "<Exception on server side:") ||
			strings.HasPrefix(line, "at ") || strings.HasPrefix(line, "End of exception on server side") {
			continue
		}
		return line
	}
	return ""
}

// excerpt returns at most max bytes of body as a single line of valid UTF-8.
func excerpt(body []byte, max int) string {
	cut := false
	if len(body) > max {
		body = body[:max]
		cut = true
	}
	for len(body) > 0 && !utf8.Valid(body) {
		body = body[:len(body)-1]
	}
	s := strings.Join(strings.FieldsFunc(string(body), func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r)
	}), " ")
	if cut {
		s += "…"
	}
	return s
}

// excerptAround shows the body near a JSON syntax error's offset, where the
// reader wants to look, rather than its harmless beginning.
func excerptAround(body []byte, err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) && se.Offset > 160 {
		start := int(se.Offset) - 120
		end := min(len(body), int(se.Offset)+80)
		return "…" + excerpt(body[start:end], 200)
	}
	return excerpt(body, 200)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s + "…"
}
