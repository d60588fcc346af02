package core

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/journal"
	"github.com/palink/palink/core/leader"
	"github.com/palink/palink/core/scheduler"
	"github.com/palink/palink/core/syncer"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// Background names the parts a palink runs behind its users' backs.
type Background uint8

// The background parts.
const (
	// Commands is the scheduler, with the restart policy's restarts,
	// periodic savepoints and their retention.
	Commands Background = 1 << iota
	// Sync is state sync, with metrics and the alert rules beside it.
	Sync
	// Everything is what `palink agent` runs.
	Everything = Commands | Sync
)

// LeadOptions say who runs the background, as the election's members see
// it.
type LeadOptions struct {
	// What runs it: agent, tui, sync or cli.
	What    string
	Version string
	// Announce hears each change of this palink's role on a shared store,
	// in one line for people ("leads this store since …").
	Announce func(string)
}

// lead runs the background of a Local, leading on etcd, and says who
// leads (Leadership): a part of the Local with a type of its own.
type lead struct {
	l       *Local
	id      string    // this process's member id
	started time.Time // when this Local was built

	mu      sync.Mutex
	self    *api.Member     // set while this palink runs or campaigns
	elector *leader.Elector // set while it campaigns on etcd
	since   time.Time       // on a file: when it began to run the background
	// kick wakes the scheduler of the term this palink leads, if any.
	kick func()
}

// memberID names this process among the members: host, pid and a random
// part (a pid is reused, the random part is not).
func memberID() string {
	host, _ := os.Hostname()
	var b [4]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%s pid %d #%s", host, os.Getpid(), hex.EncodeToString(b[:]))
}

// RunBackground runs the background parts until ctx is done. On a store in a
// file this palink holds the store, and runs them: it leads itself. On a
// store on etcd it campaigns (core/leader) and runs them only while it
// leads, every write of theirs fenced by its term, so that two palinks
// never act at once; meanwhile it measures what its own clients show. It
// returns once its parts stopped, having resigned.
func (d *lead) RunBackground(ctx context.Context, parts Background, o LeadOptions) error {
	l := d.l
	if l.readOnly {
		return api.ReadOnly("run the scheduler and state sync")
	}
	host, _ := os.Hostname()
	self := leader.Member{ID: d.id, Host: host, PID: os.Getpid(), What: o.What, Version: o.Version, Started: d.started}
	e, shared := l.st.(*store.Etcd)
	if !shared {
		d.mu.Lock()
		d.self, d.since = memberOf(self, true), l.now()
		d.mu.Unlock()
		defer func() {
			d.mu.Lock()
			d.self = nil
			d.mu.Unlock()
		}()
		return d.runParts(ctx, parts, l.st, nil)
	}
	announce := o.Announce
	if announce == nil {
		announce = func(string) {}
	}
	el := leader.New(leader.Options{Client: e.Client(), Prefix: e.KeyPrefix(), TTL: l.opts.ElectionTTL, Self: self, Log: l.log,
		Announce: announce})
	d.mu.Lock()
	d.self, d.elector = memberOf(self, false), el
	d.mu.Unlock()
	defer func() {
		d.mu.Lock()
		d.self, d.elector = nil, nil
		d.mu.Unlock()
	}()
	// A follower measures what its own screens show; the leader measures
	// and judges for everyone (observe.Observer.StartWith).
	follow := func() func() { return func() {} }
	if parts&Sync != 0 {
		follow = func() func() { return l.obs.StartWith(ctx, nil) }
	}
	stopFollowing := follow()
	defer func() { stopFollowing() }()
	go d.followStore(ctx, e)
	return el.Run(ctx, func(tctx context.Context, t *leader.Term) error {
		stopFollowing()
		defer func() { stopFollowing = follow() }()
		return d.runParts(tctx, parts, t.Store(e), t)
	})
}

// runParts runs the parts over st until ctx is done: the Local's own on a
// file, a term's own over its fenced store on etcd.
func (d *lead) runParts(ctx context.Context, parts Background, st store.Store, t *leader.Term) error {
	l := d.l
	sched, syn := l.sched, l.sync
	if t != nil {
		so := l.schedOpts
		so.Store, so.MayAct, so.LeadSince = st, t.MayAct, t.Since()
		sched = scheduler.New(so)
		yo := l.syncOpts
		yo.Store = st
		syn = syncer.New(yo)
		d.mu.Lock()
		d.kick = sched.Kick
		d.mu.Unlock()
		defer func() {
			d.mu.Lock()
			d.kick = nil
			d.mu.Unlock()
		}()
	}
	var wg sync.WaitGroup
	errs := make([]error, 2)
	if parts&Commands != 0 {
		wg.Add(1)
		go func() { defer wg.Done(); errs[0] = sched.Run(ctx) }()
	}
	if parts&Sync != 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer l.obs.StartWith(ctx, st)()
			errs[1] = syn.Run(ctx)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// followStore tells this palink what the others on the store commit, as
// etcd's watch reports it: its watchers (the screens it serves) get the
// jobs changed, and the scheduler, while it leads, wakes for a command
// another queued instead of finding it at its next tick.
func (d *lead) followStore(ctx context.Context, e *store.Etcd) {
	l := d.l
	for c := range e.Watch(ctx) {
		if c.Own {
			continue // published as it was written
		}
		if c.Resync {
			l.hub.publish(api.Change{Kind: api.Resync})
			continue
		}
		if slices.Contains(c.Families, "commands") {
			d.mu.Lock()
			kick := d.kick
			d.mu.Unlock()
			if kick != nil {
				kick()
			}
		}
		if len(c.Jobs) > 0 {
			d.publishJobs(ctx, c.Jobs)
		}
	}
}

// publishJobs tells watchers of the jobs ids as the store has them now.
func (d *lead) publishJobs(ctx context.Context, ids []string) {
	l := d.l
	type changed struct {
		j       model.Job
		pending *model.Command
	}
	var out []changed
	gone := false
	err := l.st.View(ctx, func(tx store.ReadTx) error {
		out, gone = out[:0], false
		for _, id := range ids {
			j, err := tx.Job(id)
			if errors.Is(err, store.ErrNotFound) {
				gone = true // no change says "deleted": the watchers reload
				continue
			}
			if err != nil {
				return err
			}
			p, err := journal.Pending(tx, id)
			if err != nil {
				return err
			}
			out = append(out, changed{j, p})
		}
		return nil
	})
	if err != nil {
		l.log.Debug("read the jobs another palink changed", "err", err)
		return
	}
	for _, c := range out {
		publisher{l}.Job(c.j, c.pending, nil)
	}
	if gone {
		l.hub.publish(api.Change{Kind: api.Resync})
	}
}

// memberOf is an election member as the API shows it.
func memberOf(m leader.Member, leads bool) *api.Member {
	return &api.Member{ID: m.ID, Host: m.Host, PID: m.PID, What: m.What, Version: m.Version, Started: m.Started,
		Leads: leads || !m.Since.IsZero(), Since: m.Since, Terms: m.Terms, Fenced: m.Fenced}
}

// Leadership implements api.Service: on etcd, the election as etcd has it
// now; on a file, this palink when it runs the background.
func (d *lead) Leadership(ctx context.Context) (api.Leadership, error) {
	l := d.l
	out := api.Leadership{Store: l.st.Path(), Members: []api.Member{}}
	e, shared := l.st.(*store.Etcd)
	d.mu.Lock()
	self, since := d.self, d.since
	d.mu.Unlock()
	if self != nil {
		out.Self = self.ID
	}
	if !shared {
		if self != nil {
			m := *self
			m.Since = since
			out.Leader, out.Members = &m, []api.Member{m}
		}
		return out, nil
	}
	out.Shared = true
	rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	st, err := leader.Read(rctx, e.Client(), e.KeyPrefix())
	if err != nil {
		out.Unreachable = fmt.Sprintf("etcd (%s) did not answer: %v", strings.Join(e.Endpoints(), ", "), err)
		return out, nil
	}
	out.Term = st.Term
	for _, m := range st.Members {
		leads := st.Leader != nil && m.Lease == st.Leader.Lease
		out.Members = append(out.Members, *memberOf(m, leads))
	}
	if st.Leader != nil {
		out.Leader = memberOf(*st.Leader, true)
	}
	return out, nil
}
