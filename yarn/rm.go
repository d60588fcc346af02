package yarn

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ResourceManager is a client of the YARN ResourceManager REST API
// (/ws/v1/cluster/…) of one cluster, with RM high availability: it knows
// every RM address, sends each call to the one that answered last, and
// moves on when an RM is down or answers as a standby. Safe for
// concurrent use.
type ResourceManager struct {
	t     *transport
	addrs []*url.URL
	doAs  string

	mu     *sync.Mutex
	active *int
}

// NewResourceManager makes a client for the RMs at addrs
// ("http://rm1:8088" or "rm1:8088"), in failover order.
func NewResourceManager(addrs []string, o Options) (*ResourceManager, error) {
	if len(addrs) == 0 {
		return nil, errors.New("new ResourceManager client: no address")
	}
	c := &ResourceManager{mu: &sync.Mutex{}, active: new(int), doAs: o.DoAs}
	for _, a := range addrs {
		u, err := parseBase(a)
		if err != nil {
			return nil, fmt.Errorf("new ResourceManager client: %w", err)
		}
		c.addrs = append(c.addrs, u)
		if o.Kerberos != nil {
			// The RMs' REST API and web proxy sit behind Hadoop's
			// authentication filter: sign from the first request on.
			o.Kerberos.remember(u.Hostname())
		}
	}
	if o.MaxBodyBytes == 0 {
		o.MaxBodyBytes = DefaultRMMaxBodyBytes
	}
	t, err := newTransport(o, false)
	if err != nil {
		return nil, fmt.Errorf("new ResourceManager client: %w", err)
	}
	c.t = t
	return c, nil
}

// Active is the base URL of the RM that answered last (the first address
// until one did).
func (c *ResourceManager) Active() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return redactURL(c.addrs[*c.active])
}

// Addresses lists the configured RM base URLs in failover order.
func (c *ResourceManager) Addresses() []string {
	out := make([]string, len(c.addrs))
	for i, u := range c.addrs {
		out[i] = redactURL(u)
	}
	return out
}

// ProxyURL is the read base of a Flink JobManager through the active RM's
// web proxy, for when an application's tracking URL is not known yet.
func (c *ResourceManager) ProxyURL(appID string) string {
	c.mu.Lock()
	base := c.addrs[*c.active]
	c.mu.Unlock()
	return joinURL(base, "proxy/"+pathEscape(appID)+"/").String()
}

func (c *ResourceManager) activeIndex() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return *c.active
}

func (c *ResourceManager) setActive(i int) {
	c.mu.Lock()
	*c.active = i
	c.mu.Unlock()
}

// standbyFunc tells a standby RM's answer from a real one and returns the
// active RM's URL when the standby named it.
type standbyFunc func(*response) (standby bool, location string)

// standbyAnswer recognises what RMWebAppFilter makes a standby RM answer
// to every REST path but /ws/v1/cluster/info: 307 with Location set to the
// active RM and the text "This is standby RM. The redirect url is: …"; or,
// when no RM is active, "Can not find any active RM. Will retry in next N
// seconds." (307 with a Refresh header) or "There is no active RM right
// now." (200, text).
func standbyAnswer(r *response) (bool, string) {
	if r.status == http.StatusTemporaryRedirect || r.status == http.StatusFound ||
		r.status == http.StatusSeeOther || r.status == http.StatusPermanentRedirect {
		return true, r.header.Get("Location")
	}
	body := bytes.TrimSpace(r.body)
	if len(body) > 0 && body[0] != '{' && body[0] != '[' && body[0] != '<' {
		for _, p := range []string{"This is standby RM", "There is no active RM", "Can not find any active RM"} {
			if bytes.HasPrefix(body, []byte(p)) {
				return true, r.header.Get("Location")
			}
		}
	}
	return false, ""
}

// indexOf finds the configured address a Location URL points to.
func (c *ResourceManager) indexOf(location string) int {
	if location == "" {
		return -1
	}
	u, err := url.Parse(location)
	if err != nil || u.Host == "" {
		return -1
	}
	for i, a := range c.addrs {
		if strings.EqualFold(hostPort(a), hostPort(u)) {
			return i
		}
	}
	return -1
}

func hostPort(u *url.URL) string {
	if u.Port() != "" {
		return u.Host
	}
	if u.Scheme == "https" {
		return u.Hostname() + ":443"
	}
	return u.Hostname() + ":80"
}

// As returns a client that asks the RM to act as user (the doAs query
// parameter of Hadoop's proxy users) and shares this one's connections and
// idea of the active RM. An empty user acts as palink's own.
func (c *ResourceManager) As(user string) *ResourceManager {
	n := *c
	n.doAs = user
	return &n
}

// User is who the RM sees acting: the doAs user, else palink's Kerberos
// principal's short name, simple-auth user or basic-auth user.
func (c *ResourceManager) User() string {
	switch o := c.t.opts; {
	case c.doAs != "":
		return c.doAs
	case o.Kerberos != nil:
		return o.Kerberos.User()
	case o.SimpleAuthUser != "":
		return o.SimpleAuthUser
	}
	return c.t.opts.Username
}

// call sends r to the active RM, failing over and retrying GETs.
func (c *ResourceManager) call(ctx context.Context, r request, standby standbyFunc) (*response, error) {
	if c.doAs != "" {
		q := url.Values{}
		for k, v := range r.query {
			q[k] = v
		}
		q.Set("doAs", c.doAs)
		r.query = q
	}
	if standby == nil {
		standby = standbyAnswer
	}
	for n := 0; ; n++ {
		resp, err := c.round(ctx, r, standby)
		if n >= c.t.opts.Retries || !retryable(r.method, resp, err) {
			return resp, err
		}
		if serr := sleep(ctx, c.t.backoff(n)); serr != nil {
			return resp, err
		}
	}
}

// round tries each RM at most once, starting with the active one. A
// request moves to the next RM when the current one is a standby (it did
// not act on it) or could not be reached; a non-GET moves on only if it was
// never sent. The RM that answers becomes the active one.
func (c *ResourceManager) round(ctx context.Context, r request, standby standbyFunc) (*response, error) {
	start := c.activeIndex()
	tried := make([]bool, len(c.addrs))
	var causes []string
	next := func() int {
		for k := 1; k <= len(c.addrs); k++ {
			if j := (start + k) % len(c.addrs); !tried[j] {
				return j
			}
		}
		return -1
	}
	for i := start; i >= 0; {
		tried[i] = true
		resp, err := c.t.once(ctx, c.addrs[i], r)
		if err != nil {
			var re *RequestError
			movable := errors.As(err, &re) && re.Kind == ErrUnavailable &&
				(r.method == http.MethodGet || notSent(err))
			if !movable || ctx.Err() != nil || len(c.addrs) == 1 {
				return nil, err
			}
			causes = append(causes, c.addrs[i].Host+": "+causeText(re))
			i = next()
			continue
		}
		if sb, loc := standby(resp); sb {
			causes = append(causes, c.addrs[i].Host+": standby")
			if j := c.indexOf(loc); j >= 0 && !tried[j] {
				i = j
			} else {
				i = next()
			}
			continue
		}
		c.setActive(i)
		return resp, nil
	}
	return nil, &RequestError{
		Method: r.method, URL: redactURL(joinURL(c.addrs[start], r.path)), Kind: ErrUnavailable,
		Err: fmt.Errorf("no active ResourceManager (%s)", strings.Join(causes, "; ")),
	}
}

func causeText(re *RequestError) string {
	if re.Err != nil {
		return re.Err.Error()
	}
	return re.Kind.Error()
}

// get fetches path from the active RM and decodes the JSON body into v.
func (c *ResourceManager) get(ctx context.Context, path string, q url.Values, what string, v any, standby standbyFunc) error {
	r := request{method: http.MethodGet, path: path, query: q}
	resp, err := c.call(ctx, r, standby)
	if err != nil {
		return err
	}
	if err := expect(r.method, resp, http.StatusOK); err != nil {
		return err
	}
	return decode(r.method, resp, what, v)
}

const clusterPath = "ws/v1/cluster/"

// ClusterInfo returns the active RM's clusterInfo. A standby answers this
// path itself (haState STANDBY) instead of redirecting; the client then
// asks the other RMs.
func (c *ResourceManager) ClusterInfo(ctx context.Context) (ClusterInfo, error) {
	var w struct {
		ClusterInfo ClusterInfo `json:"clusterInfo"`
	}
	standby := func(r *response) (bool, string) {
		if sb, loc := standbyAnswer(r); sb {
			return sb, loc
		}
		var peek struct {
			ClusterInfo struct {
				HAState string `json:"haState"`
			} `json:"clusterInfo"`
		}
		return r.status == http.StatusOK && json.Unmarshal(r.body, &peek) == nil &&
			strings.EqualFold(peek.ClusterInfo.HAState, "STANDBY"), ""
	}
	err := c.get(ctx, clusterPath+"info", nil, "cluster info", &w, standby)
	return w.ClusterInfo, err
}

// ClusterMetrics returns the cluster's application, memory, vcore and node counts.
func (c *ResourceManager) ClusterMetrics(ctx context.Context) (ClusterMetrics, error) {
	var w struct {
		ClusterMetrics ClusterMetrics `json:"clusterMetrics"`
	}
	err := c.get(ctx, clusterPath+"metrics", nil, "cluster metrics", &w, nil)
	return w.ClusterMetrics, err
}

// Scheduler returns the scheduler and its queues (capacity, fair or fifo).
func (c *ResourceManager) Scheduler(ctx context.Context) (Scheduler, error) {
	var w struct {
		Scheduler struct {
			SchedulerInfo Scheduler `json:"schedulerInfo"`
		} `json:"scheduler"`
	}
	err := c.get(ctx, clusterPath+"scheduler", nil, "scheduler", &w, nil)
	return w.Scheduler.SchedulerInfo, err
}

// AppFilter selects applications; zero fields do not filter. The RM
// applies Queue to unfinished applications only, and matches
// ApplicationTags if any tag matches.
type AppFilter struct {
	States           []string // YarnApplicationState names
	FinalStatus      string
	User             string
	Queue            string
	Name             string
	ApplicationTypes []string // e.g. "Apache Flink"
	ApplicationTags  []string
	Limit            int
	StartedBegin     time.Time
	StartedEnd       time.Time
	FinishedBegin    time.Time
	FinishedEnd      time.Time
	// WithResourceRequests keeps each application's outstanding resource
	// requests in the answer; by default they are deselected, which makes
	// large listings much smaller.
	WithResourceRequests bool
}

func (f AppFilter) query() url.Values {
	q := url.Values{}
	set := func(k, v string) {
		if v != "" {
			q.Set(k, v)
		}
	}
	set("states", strings.Join(f.States, ","))
	set("finalStatus", f.FinalStatus)
	set("user", f.User)
	set("queue", f.Queue)
	set("name", f.Name)
	set("applicationTypes", strings.Join(f.ApplicationTypes, ","))
	set("applicationTags", strings.Join(f.ApplicationTags, ","))
	if f.Limit > 0 {
		q.Set("limit", strconv.Itoa(f.Limit))
	}
	ms := func(k string, t time.Time) {
		if !t.IsZero() {
			q.Set(k, strconv.FormatInt(t.UnixMilli(), 10))
		}
	}
	ms("startedTimeBegin", f.StartedBegin)
	ms("startedTimeEnd", f.StartedEnd)
	ms("finishedTimeBegin", f.FinishedBegin)
	ms("finishedTimeEnd", f.FinishedEnd)
	if !f.WithResourceRequests {
		q.Set("deSelects", "resourceRequests")
	}
	return q
}

// Applications lists the applications f selects. An RM with none answers
// `{"apps":null}`, which is an empty list, not an error.
func (c *ResourceManager) Applications(ctx context.Context, f AppFilter) ([]Application, error) {
	var w appsResponse
	if err := c.get(ctx, clusterPath+"apps", f.query(), "applications", &w, nil); err != nil {
		return nil, err
	}
	return w.list(), nil
}

// ApplicationStates lists the applications f selects with only what state
// sync reads of each: id, name, type, state, final status, diagnostics,
// tracking UI and URL, AM RPC address, started and finished times. The
// rest of each Application stays zero. Sync lists the whole fleet every
// cycle, and the fields it does not read were most of the list's
// decoding and allocations.
func (c *ResourceManager) ApplicationStates(ctx context.Context, f AppFilter) ([]Application, error) {
	var w briefAppsResponse
	if err := c.get(ctx, clusterPath+"apps", f.query(), "applications", &w, nil); err != nil {
		return nil, err
	}
	out := make([]Application, len(w.apps))
	for i, b := range w.apps {
		out[i] = Application{ID: b.ID, Name: b.Name, ApplicationType: b.ApplicationType, State: b.State,
			FinalStatus: b.FinalStatus, Diagnostics: b.Diagnostics, TrackingUI: b.TrackingUI,
			TrackingURL: b.TrackingURL, AMRPCAddress: b.AMRPCAddress, StartedTime: b.StartedTime,
			FinishedTime: b.FinishedTime}
	}
	return out, nil
}

// briefApp is the part of an application ApplicationStates decodes.
type briefApp struct {
	ID              string `json:"id"`
	Name            string `json:"name"`
	ApplicationType string `json:"applicationType"`
	State           string `json:"state"`
	FinalStatus     string `json:"finalStatus"`
	Diagnostics     string `json:"diagnostics"`
	TrackingUI      string `json:"trackingUI"`
	TrackingURL     string `json:"trackingUrl"`
	AMRPCAddress    string `json:"amRPCAddress"`
	StartedTime     int64  `json:"startedTime"`
	FinishedTime    int64  `json:"finishedTime"`
}

// briefAppsResponse is the brief list (decodeAppList).
type briefAppsResponse struct{ apps []briefApp }

func (w *briefAppsResponse) decodeBody(body []byte) (err error) {
	w.apps, err = decodeAppList[briefApp](body)
	return err
}

// decodeAppList reads `{"apps":{"app":[…]}}` as an array first: state
// sync lists every application of the fleet each cycle, and listOf's
// method would have the decoder scan the whole list twice. Only an old
// RM's lone object takes the second pass.
func decodeAppList[T any](body []byte) ([]T, error) {
	var arr struct {
		Apps *struct {
			App []T `json:"app"`
		} `json:"apps"`
	}
	err := json.Unmarshal(body, &arr)
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		var flex struct {
			Apps *struct {
				App listOf[T] `json:"app"`
			} `json:"apps"`
		}
		if err := json.Unmarshal(body, &flex); err != nil || flex.Apps == nil {
			return nil, err
		}
		return []T(flex.Apps.App), nil
	}
	if err != nil || arr.Apps == nil {
		return nil, err
	}
	return arr.Apps.App, nil
}

// appsResponse is `{"apps":{"app":[…]}}`, or `{"apps":null}` for none.
type appsResponse struct {
	Apps *struct {
		App listOf[Application] `json:"app"`
	} `json:"apps"`
}

func (w appsResponse) list() []Application {
	if w.Apps == nil {
		return nil
	}
	return w.Apps.App
}

// decodeBody decodes the list (decodeAppList).
func (w *appsResponse) decodeBody(body []byte) error {
	apps, err := decodeAppList[Application](body)
	if err == nil && apps != nil {
		w.Apps = &struct {
			App listOf[Application] `json:"app"`
		}{App: apps}
	}
	return err
}

// Application returns one application; an id the RM does not know fails
// with ErrNotFound.
func (c *ResourceManager) Application(ctx context.Context, appID string) (Application, error) {
	var w struct {
		App *Application `json:"app"`
	}
	path := clusterPath + "apps/" + pathEscape(appID)
	if err := c.get(ctx, path, nil, "application", &w, nil); err != nil {
		return Application{}, err
	}
	if w.App == nil {
		return Application{}, &DecodeError{Method: http.MethodGet, URL: redactURL(joinURL(c.addrs[c.activeIndex()], path)),
			Status: http.StatusOK, What: "application", Err: errors.New(`no "app" object`)}
	}
	return *w.App, nil
}

// AppAttempts lists an application's attempts, oldest first.
func (c *ResourceManager) AppAttempts(ctx context.Context, appID string) ([]AppAttempt, error) {
	var w struct {
		AppAttempts *struct {
			AppAttempt listOf[AppAttempt] `json:"appAttempt"`
		} `json:"appAttempts"`
	}
	path := clusterPath + "apps/" + pathEscape(appID) + "/appattempts"
	if err := c.get(ctx, path, nil, "application attempts", &w, nil); err != nil {
		return nil, err
	}
	if w.AppAttempts == nil {
		return nil, nil
	}
	return w.AppAttempts.AppAttempt, nil
}

// AppState returns an application's state alone (GET …/apps/{id}/state).
func (c *ResourceManager) AppState(ctx context.Context, appID string) (string, error) {
	var w struct {
		State string `json:"state"`
	}
	err := c.get(ctx, clusterPath+"apps/"+pathEscape(appID)+"/state", nil, "application state", &w, nil)
	return w.State, err
}

// RequestKill asks the RM once to kill an application (PUT
// {"state":"KILLED"} to …/apps/{id}/state) and returns the state the RM
// reports: usually still the current one with 202 Accepted, "KILLED" with
// 200 once done. It does not wait; see Kill. The RM refuses with 401 when
// its HTTP interface has no authentication filter (ErrUnauthorized).
func (c *ResourceManager) RequestKill(ctx context.Context, appID string) (string, error) {
	body, err := jsonBody(map[string]string{"state": AppKilled})
	if err != nil {
		return "", err
	}
	r := request{method: http.MethodPut, path: clusterPath + "apps/" + pathEscape(appID) + "/state", body: body}
	resp, err := c.call(ctx, r, nil)
	if err != nil {
		return "", err
	}
	if err := expect(r.method, resp, http.StatusOK, http.StatusAccepted); err != nil {
		var he *HTTPError
		if errors.As(err, &he) && he.Status == http.StatusForbidden && !he.ticketRefused() {
			return "", &ACLError{User: c.User(), Action: "kill", App: appID, Err: he}
		}
		return "", err
	}
	var w struct {
		State string `json:"state"`
	}
	if err := decode(r.method, resp, "application state", &w); err != nil {
		return "", err
	}
	return w.State, nil
}

// Kill kills an application and waits until the RM reports a final state
// (KILLED, or FINISHED/FAILED if it ended on its own first), or ctx ends.
// It returns the application as last seen.
func (c *ResourceManager) Kill(ctx context.Context, appID string) (Application, error) {
	state, err := c.RequestKill(ctx, appID)
	if err != nil {
		return Application{}, err
	}
	if AppStateFinal(state) {
		return c.Application(ctx, appID)
	}
	app, err := c.WaitFinal(ctx, appID)
	if err != nil {
		return app, fmt.Errorf("kill %s: %w", appID, err)
	}
	return app, nil
}

// WaitFinal polls an application until its state is final or ctx ends.
func (c *ResourceManager) WaitFinal(ctx context.Context, appID string) (Application, error) {
	p := c.t.poller()
	var last Application
	for {
		app, err := c.Application(ctx, appID)
		if err != nil {
			if cerr := ctx.Err(); cerr != nil && last.ID != "" {
				return last, waitErr(fmt.Sprintf("wait for %s to end (state %s)", appID, last.State), cerr)
			}
			return last, err
		}
		last = app
		if app.Final() {
			return app, nil
		}
		if err := p.wait(ctx); err != nil {
			return app, waitErr(fmt.Sprintf("wait for %s to end (state %s)", appID, app.State), err)
		}
	}
}

// CloseIdleConnections closes the client's idle keep-alive connections;
// call it when dropping the client. In-flight calls are not affected.
func (c *ResourceManager) CloseIdleConnections() { c.t.closeIdle() }
