package sim

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"sync"
	"time"
)

// Options configure a simulated cluster. The zero value is a usable,
// real-time, single-RM cluster with no applications.
type Options struct {
	// Seed makes ids, metrics, the populated fleet and fault draws
	// reproducible. 0 picks a seed from the time.
	Seed int64
	// Speed is simulated seconds per wall-clock second (e.g. 20 lets a test
	// see INITIALIZING → RUNNING and several checkpoints within a second).
	// 0 means 1. Ignored when Clock is set.
	Speed float64
	// Clock overrides Speed, e.g. a *ManualClock.
	Clock Clock
	// Start is the simulated time at startup; zero means time.Now().
	Start time.Time
	// Apps is the number of pre-existing Flink applications (mixed states,
	// some session clusters, tags unrelated to palink).
	Apps int
	// AppsRunning makes every pre-existing Flink application a healthy
	// RUNNING one with a job of its own (per-job or application mode), as a
	// large production fleet mostly is: what a scale measurement needs.
	AppsRunning bool
	// RMs is the number of ResourceManagers, each on its own listener. With
	// 2 or more, the first is active and the others are standbys. 0 means 1.
	RMs int
	// Faults are the faults injected from the start.
	Faults Faults
	// FlinkVersion is the version every JobManager and the SQL Gateway
	// report. 1.x gateways serve the SQL Gateway API up to V3, 2.x up to V4.
	// Default "2.1.0".
	FlinkVersion string
	// Host is the interface every listener binds. Default "127.0.0.1".
	Host string
	// GatewayAddr is the SQL Gateway's listen address. Default Host:0.
	GatewayAddr string
	// User is the YARN user of applications that name none. Default "flink".
	User string
	// LogSize is the size in bytes of each generated JobManager and
	// TaskManager log file; it is generated on the fly, never held in
	// memory. Default 1 MiB.
	LogSize int64
	// CheckpointInterval is the simulated checkpoint interval of jobs that
	// do not set execution.checkpointing.interval. Default 10s.
	CheckpointInterval time.Duration
	// RequireUser makes PUT /apps/{id}/state answer 401 without a
	// user.name query parameter, like an RM with an authentication filter
	// that does not allow anonymous requests.
	RequireUser bool
	// TLS, when set, serves the RMs (REST API, web proxy) over HTTPS with
	// its certificate (NewTLS makes one, and the CA a client trusts).
	TLS *TLS
	// Kerberos, when set, runs the RMs in secure mode: SPNEGO required on
	// the REST API and the web proxy, application ACLs enforced on kills.
	Kerberos *Kerberos
	// OnStatement, when set, sees every statement a SQL Gateway session
	// executes, as the gateway's session log would show it (for tests). It
	// runs under the cluster lock: it must return at once and call nothing
	// of the cluster.
	OnStatement func(GatewayStatement)
	// Queries, when set, runs the SELECTs of tables that gateway sessions
	// submit (QueryEngine); without it only SELECTs of constants answer.
	Queries QueryEngine
	// Nodes are NodeManagers that are not RUNNING from the start, by index
	// (0 to NodeCount()-1): their state and health report. PUT
	// /sim/nodes/{n} changes a node while the cluster runs.
	Nodes map[int]NodeHealth
	// LenientRestore lets jobs restore from paths the simulator never
	// produced; by default such a restore fails like a missing file would.
	LenientRestore bool
	// Logf receives the simulator's own log lines (nil: discarded).
	Logf func(format string, args ...any)
}

func (o Options) withDefaults() Options {
	if o.Seed == 0 {
		o.Seed = time.Now().UnixNano()
	}
	if o.Speed <= 0 {
		o.Speed = 1
	}
	if o.Start.IsZero() {
		o.Start = time.Now()
	}
	if o.RMs <= 0 {
		o.RMs = 1
	}
	if o.FlinkVersion == "" {
		o.FlinkVersion = "2.1.0"
	}
	if o.Host == "" {
		o.Host = "127.0.0.1"
	}
	if o.User == "" {
		o.User = "flink"
	}
	if o.LogSize <= 0 {
		o.LogSize = 1 << 20
	}
	if o.CheckpointInterval <= 0 {
		o.CheckpointInterval = 10 * time.Second
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	return o
}

// Cluster is a simulated YARN cluster running Flink, with its web proxy,
// one JobManager REST server per running application and a SQL Gateway.
// All its methods are safe for concurrent use.
//
// It is a facade over parts, each holding the few others it uses (doc.go
// names them): the simulation itself (the YARN and Flink sides, driven by
// one event queue), the servers that answer from it, and the faults.
type Cluster struct {
	opts  Options
	clock Clock

	// faults injects the wire faults; it has its own lock, taken after mu.
	faults *injector

	// mu guards every part below and all they hold: the simulation is
	// small enough for one lock, and one lock keeps every transition
	// atomic. The parts that serve HTTP take it themselves (they hold a
	// pointer to it).
	mu     sync.Mutex
	events *eventQueue // the agenda of every app's state changes
	ha     *rmHA       // the RMs and which one is active
	yarn   *yarnApps   // applications and their lifecycle
	flink  *flinkJobs  // jobs, their state machine and checkpoints
	jms    *jobManagers
	rm     *rmAPI
	proxy  *webProxy
	gw     *sqlGateway
	logs   *nodeLogs   // the NodeManagers' and the log server's container logs
	chaos  *chaos      // the periodic faults
	auth   *authFilter // secure mode's authentication and ACLs; nil without
	tls    *TLS        // the RMs' HTTPS; nil without

	ctx     context.Context // ends at Close
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	started bool
	closed  bool
}

// New checks o and builds a cluster. Nothing listens until Start.
func New(o Options) (*Cluster, error) {
	if err := o.Faults.Validate(); err != nil {
		return nil, fmt.Errorf("new simulated cluster: %w", err)
	}
	if o.Faults.RMFailoverEvery > 0 && o.RMs < 2 {
		return nil, fmt.Errorf("new simulated cluster: faults: RM failover needs RMs >= 2, have %d", o.RMs)
	}
	o = o.withDefaults()
	c := &Cluster{opts: o, clock: o.Clock, faults: newInjector(o.Seed, o.Faults), events: &eventQueue{}, ha: &rmHA{}}
	if c.clock == nil {
		c.clock = NewScaledClock(o.Start, o.Speed)
	}
	// One generator draws every id, seed and victim, in the order the
	// simulation asks, so a seed reproduces a run; it is guarded by mu.
	rng := rand.New(rand.NewPCG(uint64(o.Seed), 0x51))

	// The simulation: applications and jobs call each other (an app's
	// JobManager starts its jobs, a job that ends deregisters its app).
	c.yarn = &yarnApps{user: o.User, nodes: o.NodeCount(), rng: rng, byID: map[string]*app{},
		events: c.events, ha: c.ha, faults: c.faults}
	for n, h := range o.Nodes {
		if err := c.yarn.setNodeState(n, h, c.clock.Now()); err != nil {
			return nil, fmt.Errorf("new simulated cluster: %w", err)
		}
	}
	c.flink = &flinkJobs{interval: o.CheckpointInterval, rng: rng, byID: map[string]*job{},
		points: pointStore{byPath: map[string]*checkpoint{}, lenient: o.LenientRestore}, events: c.events, yarn: c.yarn}
	c.yarn.flink = c.flink

	// The servers.
	c.jms = &jobManagers{mu: &c.mu, clock: c.clock, host: o.Host, flinkVersion: o.FlinkVersion, logSize: o.LogSize,
		logf: o.Logf, serve: c.serve, faults: c.faults, rng: rng, yarn: c.yarn, flink: c.flink}
	c.jms.mux = c.jms.router()
	c.yarn.jms = c.jms
	c.proxy = &webProxy{mu: &c.mu, clock: c.clock, ha: c.ha, yarn: c.yarn, jms: c.jms,
		// MaxIdleConns bounds the open files a fleet of thousands of JobManagers costs.
		transport: &http.Transport{MaxIdleConns: 512, MaxIdleConnsPerHost: 4, IdleConnTimeout: 30 * time.Second}}
	c.logs = &nodeLogs{mu: &c.mu, clock: c.clock, host: o.Host, yarn: c.yarn, jms: c.jms}
	c.tls = o.TLS
	if o.Kerberos != nil {
		f, err := newAuthFilter(*o.Kerberos)
		if err != nil {
			return nil, fmt.Errorf("new simulated cluster: %w", err)
		}
		c.auth = f
	}
	c.rm = &rmAPI{mu: &c.mu, clock: c.clock, host: o.Host, requireUser: o.RequireUser, auth: c.auth, ha: c.ha, yarn: c.yarn,
		jms: c.jms, proxy: c.proxy, admin: &admin{c: c}, logs: c.logs}
	c.gw = &sqlGateway{mu: &c.mu, clock: c.clock, host: o.Host, flinkVersion: o.FlinkVersion, rng: rng,
		yarn: c.yarn, flink: c.flink, sessions: map[string]*sqlSession{}, onStatement: o.OnStatement, queries: o.Queries}

	c.chaos = &chaos{faults: c.faults, last: map[string]time.Time{}, rng: rng, logf: o.Logf, ha: c.ha, yarn: c.yarn, flink: c.flink}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	now := c.clock.Now()
	for i := 0; i < o.RMs; i++ {
		// Each RM has its own start time: ids issued after a failover carry
		// the new active RM's cluster timestamp, as in YARN.
		// They started before the oldest pre-existing application.
		c.ha.rms = append(c.ha.rms, &rmServer{idx: i, startMs: now.Add(-73*time.Hour - time.Duration(o.RMs-i)*37*time.Minute).UnixMilli()})
	}
	c.mu.Lock()
	(&fleet{seed: o.Seed, rng: rng, events: c.events, yarn: c.yarn, flink: c.flink, allRunning: o.AppsRunning}).populate(now, o.Apps, c.ha.rms[0])
	c.mu.Unlock()
	return c, nil
}

// Start binds the listeners: the first RM on addr ("127.0.0.1:0" in tests),
// the other RMs and the SQL Gateway on ephemeral ports of Options.Host.
// The cluster then runs until Close, or until ctx is done.
func (c *Cluster) Start(ctx context.Context, addr string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return fmt.Errorf("start simulated cluster: %w", ErrClosed)
	}
	if c.started {
		return fmt.Errorf("start simulated cluster: already started")
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("start simulated cluster: %w", err)
	}
	c.started = true
	for i, rm := range c.ha.rms {
		a := addr
		if i > 0 {
			a = net.JoinHostPort(c.opts.Host, "0")
		}
		ln, err := net.Listen("tcp", a)
		if err != nil {
			c.closeLocked()
			return fmt.Errorf("start simulated cluster: listen for RM %d on %s: %w", i+1, a, err)
		}
		scheme := "http://"
		if c.tls != nil {
			ln = tls.NewListener(ln, c.tls.config)
			scheme = "https://"
		}
		rm.url = scheme + ln.Addr().String()
		if c.auth != nil {
			// Clients name the RM's service principal after the host in
			// its URL, so the URLs carry the principal's host name.
			_, port, _ := net.SplitHostPort(ln.Addr().String())
			rm.url = scheme + net.JoinHostPort(c.auth.host(), port)
		}
		rm.srv = &http.Server{Handler: c.faults.wrap(rmKind, c.rm.handler(rm)), ReadHeaderTimeout: 10 * time.Second}
		c.serve(rm.srv, ln)
	}
	gwAddr := c.opts.GatewayAddr
	if gwAddr == "" {
		gwAddr = net.JoinHostPort(c.opts.Host, "0")
	}
	ln, err := net.Listen("tcp", gwAddr)
	if err != nil {
		c.closeLocked()
		return fmt.Errorf("start simulated cluster: listen for the SQL Gateway on %s: %w", gwAddr, err)
	}
	c.gw.url = "http://" + ln.Addr().String()
	c.gw.srv = &http.Server{Handler: c.faults.wrap(func(*http.Request) Kind { return KindGateway }, c.gw.handler()),
		ReadHeaderTimeout: 10 * time.Second}
	c.serve(c.gw.srv, ln)
	if err := c.logs.start(c.serve); err != nil {
		c.closeLocked()
		return fmt.Errorf("start simulated cluster: listen for the NodeManagers and the log server: %w", err)
	}

	c.wg.Add(1)
	go c.scheduler()
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		select {
		case <-ctx.Done():
			// Not Close: it waits for this goroutine.
			c.mu.Lock()
			c.closeLocked()
			c.mu.Unlock()
		case <-c.ctx.Done():
		}
	}()
	return nil
}

// serve runs srv on ln until the cluster closes.
func (c *Cluster) serve(srv *http.Server, ln net.Listener) {
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			c.opts.Logf("sim: serve %s: %v", ln.Addr(), err)
		}
	}()
}

// Close stops every listener and background goroutine. It is idempotent.
func (c *Cluster) Close() error {
	c.mu.Lock()
	c.closeLocked()
	c.mu.Unlock()
	c.wg.Wait()
	c.proxy.transport.CloseIdleConnections()
	return nil
}

// closeLocked closes every listener and ends the goroutines; mu is held.
func (c *Cluster) closeLocked() {
	if c.closed {
		return
	}
	c.closed = true
	c.cancel()
	for _, rm := range c.ha.rms {
		if rm.srv != nil {
			_ = rm.srv.Close()
		}
	}
	if c.gw.srv != nil {
		_ = c.gw.srv.Close()
	}
	c.logs.close()
	c.jms.closeAll(c.yarn.order)
}

// RMURLs returns the base URL (http://host:port) of every ResourceManager,
// in order; the first is active at start.
func (c *Cluster) RMURLs() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]string, 0, len(c.ha.rms))
	for _, rm := range c.ha.rms {
		if rm.url != "" {
			out = append(out, rm.url)
		}
	}
	return out
}

// ActiveRMURL returns the base URL of the active ResourceManager, or ""
// while none is active.
func (c *Cluster) ActiveRMURL() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if rm := c.ha.activeRM(); rm != nil {
		return rm.url
	}
	return ""
}

// NodeManagerURL returns the simulated NodeManagers' web address
// (http://host:port), which every node shares.
func (c *Cluster) NodeManagerURL() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.logs.nmURL
}

// LogServerURL returns the log server's web services base (the RM's
// yarn.log.server.web-service.url).
func (c *Cluster) LogServerURL() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.logs.ahsBase()
}

// GatewayURL returns the SQL Gateway's base URL (http://host:port).
func (c *Cluster) GatewayURL() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gw.url
}

// Now returns the simulated time.
func (c *Cluster) Now() time.Time { return c.clock.Now() }

// SetFaults replaces the injected faults at once.
func (c *Cluster) SetFaults(f Faults) error {
	if err := f.Validate(); err != nil {
		return fmt.Errorf("set faults: %w", err)
	}
	if f.RMFailoverEvery > 0 && c.opts.RMs < 2 {
		return fmt.Errorf("set faults: RM failover needs RMs >= 2, have %d", c.opts.RMs)
	}
	c.faults.set(f)
	return nil
}

// Faults returns the faults in force.
func (c *Cluster) Faults() Faults {
	return c.faults.get()
}

// tick runs due events of every app and the periodic faults. The
// scheduler goroutine calls it; it is the only per-tick work, and it is
// proportional to the events due, not to the number of apps.
func (c *Cluster) tick() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	now := c.clock.Now()
	for a := c.events.next(now); a != nil; a = c.events.next(now) {
		c.yarn.advance(a, now)
	}
	c.chaos.fire(now)
	c.gw.sweep(now)
}

// scheduler drives time forward for apps nobody reads.
func (c *Cluster) scheduler() {
	defer c.wg.Done()
	t := time.NewTicker(10 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-c.ctx.Done():
			return
		case <-t.C:
			c.tick()
		}
	}
}

// gatewayVersions returns the SQL Gateway API versions served, oldest
// first (the contract tests walk them).
func (c *Cluster) gatewayVersions() []string { return c.gw.versions() }
