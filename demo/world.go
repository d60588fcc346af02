package demo

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/palink/palink/core"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/localrun"
	"github.com/palink/palink/core/options"
	"github.com/palink/palink/yarn/sim"
)

// Options configure a demo.
type Options struct {
	// Sim is the simulated cluster the demo starts.
	Sim Sim
	// Managed is how many palink jobs the demo creates and deploys.
	Managed int
	// ReadOnly opens the demo's store read-only (--read-only): its fleet
	// is then never created.
	ReadOnly bool
	// Log receives what the demo and palink under it log (nil: nothing).
	Log *slog.Logger
}

// World is a running demo: the simulator, its clock, and palink on it over
// a throwaway store.
type World struct {
	dir     string             // the demo's throwaway directory (store, data, project)
	debug   *localrun.Debugger // with the demo's sample data and dimension table
	svc     *core.Local
	c       *sim.Cluster
	clock   *sim.WarpClock
	log     *slog.Logger
	managed int
	close   func()
}

// Start starts the simulator an hour in the past and palink on a throwaway
// store beside it, in this process; neither runs anything until Run. Close
// stops both and removes the store.
func Start(ctx context.Context, o Options) (*World, error) {
	log := o.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	clock := sim.NewWarpClock(past)
	c, cfg, stop, err := startSim(ctx, o.Sim, clock)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(cfg.Store)
	co := options.FromConfig(cfg)
	co.ReadOnly, co.NoSync, co.Log = o.ReadOnly, true, log // a throwaway store needs no fsync
	co.ProjectCache = filepath.Join(dir, "projects")
	// The cluster is in this process: poll it often, so that the hour the
	// demo lives before it opens takes a second.
	co.Now, co.Poll, co.Tick, co.Workers = clock.Now, 20*time.Millisecond, 20*time.Millisecond, 16
	// A window of an hour, so that the job that keeps failing in the hour
	// has the policy give up on it whatever the pace of its restarts.
	co.Restart.Window = past
	for i := range co.Clusters {
		co.Clusters[i].Poll = 10 * time.Millisecond
	}
	svc, err := core.Open(cfg.Store, co)
	if err != nil {
		stop()
		return nil, err
	}
	dbg, err := writeData(dir)
	if err != nil {
		svc.Close()
		stop()
		return nil, fmt.Errorf("demo: write its debug data: %w", err)
	}
	return &World{dir: dir, debug: dbg, svc: svc, c: c, clock: clock, log: log, managed: o.Managed,
		close: func() { svc.Close(); stop() }}, nil
}

// Run makes the world happen until ctx is done: palink's scheduler and
// state sync run, the fleet lives its hour while the UI opens, then the
// rest of a large fleet is created and things keep happening. The
// project's build runs beside the warm-up: it takes git and a shell a
// moment. Run returns what stopped the scheduler or state sync.
func (d *World) Run(ctx context.Context) error {
	go d.seedProject(ctx, d.dir)
	go func() {
		if err := d.warm(ctx, d.managed); err != nil && ctx.Err() == nil {
			d.log.Error("demo: warm up", "err", err)
		}
		d.clock.Forward(past)
		d.deployRest(ctx, d.createRest(ctx, d.managed), d.managed)
		d.live(ctx)
	}()
	return d.background(ctx)
}

// background runs palink's scheduler and state sync until ctx is done, as
// `palink agent` runs them.
func (d *World) background(ctx context.Context) error {
	errc := make(chan error, 2)
	go func() { errc <- d.svc.RunScheduler(ctx) }()
	go func() { errc <- d.svc.RunSync(ctx) }()
	err1, err2 := <-errc, <-errc
	if err1 != nil {
		return err1
	}
	return err2
}

// Service is palink on the demo's cluster, in this process.
func (d *World) Service() *core.Local { return d.svc }

// Debugger runs debug runs on the demo's sample data and dimension table.
func (d *World) Debugger() api.DebugBench { return d.debug }

// Now is the demo's clock: an hour behind the wall clock until the fleet
// has lived its hour, so that the UI's ages and header are the hour's.
func (d *World) Now() time.Time { return d.clock.Now() }

// Close stops palink and the simulator and removes the throwaway store.
func (d *World) Close() { d.close() }
