package yarn

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// SQLGateway is a client of the Flink SQL Gateway REST API. It negotiates
// the API version once (the highest of v1..v4 the server lists) and sends
// every call to that version's paths. Safe for concurrent use.
type SQLGateway struct {
	t    *transport
	base *url.URL

	mu      sync.Mutex
	version int // 0 until negotiated
}

// Latest SQL Gateway REST API version this client speaks.
const maxGatewayVersion = 4

// NewSQLGateway makes a client for the gateway at base ("http://host:8083").
func NewSQLGateway(base string, o Options) (*SQLGateway, error) {
	u, err := parseBase(base)
	if err != nil {
		return nil, fmt.Errorf("new SQL Gateway client: %w", err)
	}
	t, err := newTransport(o, true)
	if err != nil {
		return nil, fmt.Errorf("new SQL Gateway client: %w", err)
	}
	return &SQLGateway{t: t, base: u}, nil
}

// Base is the gateway's base URL.
func (c *SQLGateway) Base() string { return redactURL(c.base) }

// Negotiate asks the gateway for its API versions (GET /api_versions) and
// picks the highest this client speaks. Other methods call it on first
// use; calling it again asks again (after a gateway upgrade, say).
func (c *SQLGateway) Negotiate(ctx context.Context) (int, error) {
	var v struct {
		Versions []string `json:"versions"`
	}
	if err := c.getJSON(ctx, "api_versions", nil, "API versions", &v); err != nil {
		return 0, err
	}
	best := 0
	for _, s := range v.Versions {
		n, err := strconv.Atoi(strings.TrimPrefix(strings.ToLower(strings.TrimSpace(s)), "v"))
		if err == nil && n >= 1 && n <= maxGatewayVersion && n > best {
			best = n
		}
	}
	if best == 0 {
		return 0, fmt.Errorf("negotiate SQL Gateway API version at %s: %w (server lists %q)",
			c.Base(), ErrUnsupported, v.Versions)
	}
	c.mu.Lock()
	c.version = best
	c.mu.Unlock()
	return best, nil
}

// Version is the negotiated API version (1..4), or 0 before negotiation.
func (c *SQLGateway) Version() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.version
}

func (c *SQLGateway) ensureVersion(ctx context.Context) (int, error) {
	if v := c.Version(); v != 0 {
		return v, nil
	}
	return c.Negotiate(ctx)
}

// vpath prefixes p with the negotiated version ("v3/sessions/…").
func (c *SQLGateway) vpath(ctx context.Context, p string) (string, int, error) {
	v, err := c.ensureVersion(ctx)
	if err != nil {
		return "", 0, err
	}
	return "v" + strconv.Itoa(v) + "/" + p, v, nil
}

func (c *SQLGateway) getJSON(ctx context.Context, p string, q url.Values, what string, v any) error {
	r := request{method: http.MethodGet, path: p, query: q}
	resp, err := c.t.do(ctx, c.base, r)
	if err != nil {
		return err
	}
	if err := expect(r.method, resp, http.StatusOK); err != nil {
		return err
	}
	return decode(r.method, resp, what, v)
}

// send performs a non-GET and decodes the answer into v when v is not nil.
func (c *SQLGateway) send(ctx context.Context, method, p string, body any, what string, v any) error {
	r := request{method: method, path: p}
	if body != nil {
		var err error
		if r.body, err = jsonBody(body); err != nil {
			return err
		}
	}
	resp, err := c.t.do(ctx, c.base, r)
	if err != nil {
		return err
	}
	if err := expect(method, resp, http.StatusOK); err != nil {
		return err
	}
	if v == nil {
		return nil
	}
	return decode(method, resp, what, v)
}

// GatewayInfo is GET /info.
type GatewayInfo struct {
	ProductName string `json:"productName"`
	Version     string `json:"version"`
}

// Info returns the gateway's product name and Flink version.
func (c *SQLGateway) Info(ctx context.Context) (GatewayInfo, error) {
	var v GatewayInfo
	p, _, err := c.vpath(ctx, "info")
	if err != nil {
		return v, err
	}
	err = c.getJSON(ctx, p, nil, "gateway info", &v)
	return v, err
}

// SessionRequest opens a session. Properties override the gateway's
// defaults for this session (e.g. execution.target, yarn.application.id).
type SessionRequest struct {
	Name       string            `json:"sessionName,omitempty"`
	Properties map[string]string `json:"properties,omitempty"`
}

// OpenSession opens a session and returns its handle.
func (c *SQLGateway) OpenSession(ctx context.Context, r SessionRequest) (string, error) {
	p, _, err := c.vpath(ctx, "sessions")
	if err != nil {
		return "", err
	}
	var v struct {
		SessionHandle string `json:"sessionHandle"`
	}
	if err := c.send(ctx, http.MethodPost, p, r, "session handle", &v); err != nil {
		return "", err
	}
	return v.SessionHandle, nil
}

func sessionPath(session string, rest ...string) string {
	p := "sessions/" + pathEscape(session)
	for _, r := range rest {
		p += "/" + r
	}
	return p
}

// SessionConfig returns a session's effective properties.
func (c *SQLGateway) SessionConfig(ctx context.Context, session string) (map[string]string, error) {
	p, _, err := c.vpath(ctx, sessionPath(session))
	if err != nil {
		return nil, err
	}
	var v struct {
		Properties map[string]string `json:"properties"`
	}
	err = c.getJSON(ctx, p, nil, "session configuration", &v)
	return v.Properties, err
}

// ConfigureSession runs a configuring statement in a session (SET, USE,
// CREATE/DROP …, ADD JAR); API v2 and later, else ErrUnsupported.
// timeout 0 leaves the server's default.
func (c *SQLGateway) ConfigureSession(ctx context.Context, session, statement string, timeout time.Duration) error {
	p, v, err := c.vpath(ctx, sessionPath(session, "configure-session"))
	if err != nil {
		return err
	}
	if v < 2 {
		return fmt.Errorf("configure session %s: %w (v%d)", session, ErrUnsupported, v)
	}
	body := configureBody{Statement: statement, ExecutionTimeout: timeout.Milliseconds()}
	return c.send(ctx, http.MethodPost, p, body, "", nil)
}

// Heartbeat keeps a session alive; the gateway closes idle sessions.
func (c *SQLGateway) Heartbeat(ctx context.Context, session string) error {
	p, _, err := c.vpath(ctx, sessionPath(session, "heartbeat"))
	if err != nil {
		return err
	}
	return c.send(ctx, http.MethodPost, p, nil, "", nil)
}

// CloseSession closes a session and returns the status the gateway reports.
func (c *SQLGateway) CloseSession(ctx context.Context, session string) (string, error) {
	p, _, err := c.vpath(ctx, sessionPath(session))
	if err != nil {
		return "", err
	}
	var v struct {
		Status string `json:"status"`
	}
	err = c.send(ctx, http.MethodDelete, p, nil, "close session status", &v)
	return v.Status, err
}

// configureBody is ConfigureSessionRequestBody.
type configureBody struct {
	Statement        string `json:"statement"`
	ExecutionTimeout int64  `json:"executionTimeout,omitempty"`
}

// executeBody is ExecuteStatementRequestBody.
type executeBody struct {
	Statement        string            `json:"statement"`
	ExecutionTimeout int64             `json:"executionTimeout,omitempty"`
	ExecutionConfig  map[string]string `json:"executionConfig,omitempty"`
}

// StatementRequest executes a statement.
type StatementRequest struct {
	Statement string
	// ExecutionConfig overrides session properties for this statement.
	ExecutionConfig map[string]string
	// ExecutionTimeout bounds the statement's execution on the gateway; 0
	// leaves the server's default.
	ExecutionTimeout time.Duration
}

// Execute submits a statement and returns its operation handle.
func (c *SQLGateway) Execute(ctx context.Context, session string, r StatementRequest) (string, error) {
	p, _, err := c.vpath(ctx, sessionPath(session, "statements"))
	if err != nil {
		return "", err
	}
	body := executeBody{Statement: r.Statement, ExecutionTimeout: r.ExecutionTimeout.Milliseconds(),
		ExecutionConfig: r.ExecutionConfig}
	var v struct {
		OperationHandle string `json:"operationHandle"`
	}
	if err := c.send(ctx, http.MethodPost, p, body, "operation handle", &v); err != nil {
		return "", err
	}
	return v.OperationHandle, nil
}

// Operation statuses of the SQL Gateway; the last five are terminal.
const (
	OpInitialized = "INITIALIZED"
	OpPending     = "PENDING"
	OpRunning     = "RUNNING"
	OpFinished    = "FINISHED"
	OpCanceled    = "CANCELED"
	OpClosed      = "CLOSED"
	OpError       = "ERROR"
	OpTimeout     = "TIMEOUT"
)

func (c *SQLGateway) operation(ctx context.Context, method, session, op, action, what string) (string, error) {
	p, _, err := c.vpath(ctx, sessionPath(session, "operations", pathEscape(op), action))
	if err != nil {
		return "", err
	}
	var v struct {
		Status string `json:"status"`
	}
	if method == http.MethodGet {
		err = c.getJSON(ctx, p, nil, what, &v)
	} else {
		err = c.send(ctx, method, p, nil, what, &v)
	}
	return v.Status, err
}

// OperationStatus returns an operation's status (RUNNING, FINISHED, ERROR, …).
func (c *SQLGateway) OperationStatus(ctx context.Context, session, op string) (string, error) {
	return c.operation(ctx, http.MethodGet, session, op, "status", "operation status")
}

// CancelOperation cancels a running operation and returns its new status.
func (c *SQLGateway) CancelOperation(ctx context.Context, session, op string) (string, error) {
	return c.operation(ctx, http.MethodPost, session, op, "cancel", "operation status")
}

// CloseOperation closes an operation, freeing its results on the gateway.
func (c *SQLGateway) CloseOperation(ctx context.Context, session, op string) (string, error) {
	return c.operation(ctx, http.MethodDelete, session, op, "close", "operation status")
}

// CloseIdleConnections closes the client's idle keep-alive connections;
// call it when dropping the client. In-flight calls are not affected.
func (c *SQLGateway) CloseIdleConnections() { c.t.closeIdle() }
