package leader

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// DefaultTTL is how long a leader that stops answering keeps the lead.
const DefaultTTL = 10 * time.Second

// MinTTL is the shortest TTL taken: etcd itself grants no lease shorter
// than about 1.5 election timeouts of its own (2s with its defaults).
const MinTTL = 2 * time.Second

// ErrNotLeading: this palink's term ended (its lease lapsed, its key went,
// or a write was fenced off); it must not act.
var ErrNotLeading = errors.New("this palink no longer leads")

// Member is one palink that campaigns, as the others see it.
type Member struct {
	// ID is unique to the process: host, pid and a random part.
	ID   string `json:"id"`
	Host string `json:"host"`
	PID  int    `json:"pid"`
	// What runs it: "agent", "tui", "sync", "cli".
	What    string    `json:"what,omitempty"`
	Version string    `json:"version,omitempty"`
	Started time.Time `json:"started"`
	// Since is when it won its term; zero while it follows.
	Since time.Time `json:"since,omitzero"`
	// Terms it led, and writes of them the fence refused, before the
	// session this record belongs to.
	Terms  int   `json:"terms,omitempty"`
	Fenced int64 `json:"fenced,omitempty"`
	// Lease is the etcd lease of its session (hex), which names its keys.
	Lease string `json:"lease"`
}

// Options configure an Elector.
type Options struct {
	Client *clientv3.Client
	// Prefix is the store's key prefix ("/palink/"); the election and the
	// members lie under it (doc.go, "Keys").
	Prefix string
	// TTL is the session's lease: how long a leader that stops answering
	// keeps the lead. Whole seconds, at least MinTTL; default DefaultTTL.
	TTL time.Duration
	// Self is who campaigns (ID, Host, PID, What, Version, Started).
	Self Member
	Log  *slog.Logger
	// Announce, if set, hears each change of this palink's role in one
	// line for people ("leads since …", "no longer leads: …").
	Announce func(string)
}

// Stats count what an Elector's palink did.
type Stats struct {
	// Terms it won.
	Terms int
	// Fenced writes: writes of its terms that etcd refused because the
	// term had ended.
	Fenced int64
	// Leading says whether a term runs now.
	Leading bool
}

// Elector campaigns for one palink. Run it once.
type Elector struct {
	o      Options
	terms  atomic.Int64
	fenced atomic.Int64
	cur    atomic.Pointer[Term]
}

// New builds an elector. It does no I/O.
func New(o Options) *Elector {
	if o.TTL <= 0 {
		o.TTL = DefaultTTL
	}
	o.TTL = max(o.TTL.Round(time.Second), MinTTL)
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Announce == nil {
		o.Announce = func(string) {}
	}
	return &Elector{o: o}
}

// Stats reports the terms won and the writes fenced off so far.
func (e *Elector) Stats() Stats {
	return Stats{Terms: int(e.terms.Load()), Fenced: e.fenced.Load(), Leading: e.cur.Load() != nil}
}

// Term is the running term, or nil.
func (e *Elector) Term() *Term { return e.cur.Load() }

// electionPrefix is the election's key prefix without its last "/"
// (concurrency.NewElection adds it).
func (e *Elector) electionPrefix() string { return e.o.Prefix + "election" }

func (e *Elector) memberKey(lease clientv3.LeaseID) string {
	return e.o.Prefix + "members/" + leaseName(lease)
}

func leaseName(id clientv3.LeaseID) string { return strconv.FormatInt(int64(id), 16) }

// Run campaigns until ctx is done. Each time this palink wins, it calls
// lead with a context that ends with the term, and waits for lead to
// return before it campaigns again; lead must stop acting when its ctx is
// done. On the way out it resigns and revokes its lease, so that another
// palink takes over at once. Run returns nil when ctx ends; it gives up on
// nothing else (an unreachable etcd is waited for, and logged).
func (e *Elector) Run(ctx context.Context, lead func(ctx context.Context, t *Term) error) error {
	backoff := newBackoff(e.o.TTL)
	var s *session
	defer func() {
		if s != nil {
			s.close()
		}
	}()
	for ctx.Err() == nil {
		if s == nil || s.lost() {
			if s != nil {
				s.close()
				s = nil
			}
			var err error
			if s, err = e.newSession(ctx); err != nil {
				if ctx.Err() == nil {
					e.o.Log.Warn("election: no session", "err", err)
					backoff.wait(ctx)
				}
				continue
			}
		}
		t, err := e.campaign(ctx, s)
		if err != nil {
			if ctx.Err() == nil {
				// Whatever failed may have left the candidate's key: the
				// session goes with it, and a new one campaigns.
				e.o.Log.Warn("election: campaign failed; campaigning again on a new session", "err", err)
				s.close()
				s = nil
				backoff.wait(ctx)
			}
			continue
		}
		backoff.reset()
		e.serve(ctx, s, t, lead)
		// A term ends with its session: the next term is a new key at a
		// new revision, never the old one resumed.
		s.close()
		s = nil
	}
	return nil
}

// session is one etcd lease with its keepalives and the member record
// bound to it.
type session struct {
	cs *concurrency.Session
	// acked is when etcd last acknowledged a keepalive (monotonic), and
	// ttl the lease's TTL as etcd granted it: the lease lives at least
	// until about acked + ttl.
	mu    sync.Mutex
	acked time.Time
	ttl   time.Duration
	stop  context.CancelFunc
}

func (s *session) lost() bool {
	select {
	case <-s.cs.Done():
		return true
	default:
		return false
	}
}

// aliveSince says when etcd last acknowledged a keepalive, and until is the latest moment, on this host's monotonic clock, before
// which the lease is surely alive: etcd counts the TTL from when it got the
// keepalive, after it was sent, and a keepalive goes every third of the TTL;
// one such interval is kept as margin for the answer's way back.
func (s *session) aliveSince() (acked, until time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.acked, s.acked.Add(s.ttl - s.ttl/3)
}

// close revokes the lease (its keys go with it) within the TTL, or leaves
// it to expire when etcd does not answer.
func (s *session) close() {
	s.stop()
	_ = s.cs.Close()
}

func (e *Elector) newSession(ctx context.Context) (*session, error) {
	cli := e.o.Client
	gctx, cancel := context.WithTimeout(ctx, e.o.TTL)
	grant, err := cli.Grant(gctx, int64(e.o.TTL/time.Second))
	cancel()
	if err != nil {
		return nil, fmt.Errorf("grant a lease of %s: %w", e.o.TTL, err)
	}
	s := &session{acked: time.Now(), ttl: time.Duration(grant.TTL) * time.Second}
	// The lease is counted from the grant's answer, the first keepalive.
	kctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	s.stop = stop
	acks, err := cli.KeepAlive(kctx, grant.ID)
	if err != nil {
		stop()
		e.revoke(grant.ID)
		return nil, fmt.Errorf("keep lease %s alive: %w", leaseName(grant.ID), err)
	}
	go func() {
		for ack := range acks {
			s.mu.Lock()
			s.acked, s.ttl = time.Now(), time.Duration(ack.TTL)*time.Second
			s.mu.Unlock()
		}
	}()
	s.cs, err = concurrency.NewSession(cli, concurrency.WithLease(grant.ID), concurrency.WithTTL(int(grant.TTL)),
		concurrency.WithContext(context.WithoutCancel(ctx)))
	if err != nil {
		stop()
		e.revoke(grant.ID)
		return nil, fmt.Errorf("session on lease %s: %w", leaseName(grant.ID), err)
	}
	if err := e.register(ctx, s, time.Time{}); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

func (e *Elector) revoke(id clientv3.LeaseID) {
	ctx, cancel := context.WithTimeout(context.Background(), e.o.TTL)
	defer cancel()
	_, _ = e.o.Client.Revoke(ctx, id)
}

// self is this palink's member record for session s.
func (e *Elector) self(s *session, since time.Time) Member {
	m := e.o.Self
	m.Lease = leaseName(s.cs.Lease())
	m.Since = since
	m.Terms, m.Fenced = int(e.terms.Load()), e.fenced.Load()
	return m
}

// register writes this palink's member record, bound to the session's lease.
func (e *Elector) register(ctx context.Context, s *session, since time.Time) error {
	b, err := json.Marshal(e.self(s, since))
	if err != nil {
		return err
	}
	rctx, cancel := context.WithTimeout(ctx, e.o.TTL)
	defer cancel()
	if _, err := e.o.Client.Put(rctx, e.memberKey(s.cs.Lease()), string(b), clientv3.WithLease(s.cs.Lease())); err != nil {
		return fmt.Errorf("register as a member: %w", err)
	}
	return nil
}

// campaign waits in the election until this palink leads, and confirms it.
func (e *Elector) campaign(ctx context.Context, s *session) (*Term, error) {
	el := concurrency.NewElection(s.cs, e.electionPrefix())
	val, err := json.Marshal(e.self(s, time.Time{}))
	if err != nil {
		return nil, err
	}
	// Campaign waits on when its session ends; this context does not.
	cctx, cancel := context.WithCancel(ctx)
	go func() {
		select {
		case <-s.cs.Done():
			cancel()
		case <-cctx.Done():
		}
	}()
	err = el.Campaign(cctx, string(val))
	cancel()
	if err != nil {
		if s.lost() {
			return nil, fmt.Errorf("session lost while campaigning: %w", err)
		}
		return nil, err
	}
	// Campaign can say "elected" for a session that was lost meanwhile:
	// lead only if the key created first is this one, at its revision.
	gctx, gcancel := context.WithTimeout(ctx, e.o.TTL)
	resp, err := e.o.Client.Get(gctx, e.electionPrefix()+"/", clientv3.WithFirstCreate()...)
	gcancel()
	switch {
	case err != nil:
		return nil, fmt.Errorf("confirm the lead: %w", err)
	case len(resp.Kvs) == 0:
		return nil, errors.New("confirm the lead: the election holds no key")
	case string(resp.Kvs[0].Key) != el.Key() || resp.Kvs[0].CreateRevision != el.Rev():
		return nil, fmt.Errorf("confirm the lead: %s (revision %d) leads, not this palink's %s (revision %d)",
			resp.Kvs[0].Key, resp.Kvs[0].CreateRevision, el.Key(), el.Rev())
	case s.lost():
		return nil, errors.New("confirm the lead: the session was lost")
	}
	return &Term{e: e, s: s, el: el, key: el.Key(), rev: el.Rev(), since: time.Now(), seen: resp.Header.Revision}, nil
}

// serve runs lead for term t until it returns, ending the term (its
// context) when the session is lost, the key goes, or a write is fenced.
func (e *Elector) serve(ctx context.Context, s *session, t *Term, lead func(context.Context, *Term) error) {
	tctx, end := context.WithCancelCause(ctx)
	t.ctx, t.end = tctx, end
	e.terms.Add(1)
	e.cur.Store(t)
	e.o.Log.Info("election: leading", "key", t.key, "revision", t.rev)
	e.o.Announce(fmt.Sprintf("leads this store since %s (term %d, election key %s)", t.since.Format(time.RFC3339), t.rev, t.key))
	// The record of the lead says since when; without it, status shows
	// the leader with no time.
	pctx, pcancel := context.WithTimeout(tctx, e.o.TTL)
	if val, err := json.Marshal(e.self(s, t.since)); err == nil {
		if err := t.el.Proclaim(pctx, string(val)); err != nil {
			e.o.Log.Warn("election: proclaim the lead", "err", err)
		}
	}
	_ = e.register(pctx, s, t.since)
	pcancel()

	watching := make(chan struct{})
	go func() {
		defer close(watching)
		t.watch(tctx)
	}()
	err := lead(tctx, t)
	cause := context.Cause(tctx)
	end(ErrNotLeading)
	e.cur.Store(nil)
	<-watching
	switch {
	case cause != nil && !errors.Is(cause, context.Canceled):
	case ctx.Err() != nil:
		cause = errors.New("palink is stopping")
	case err != nil:
		cause = err
	default:
		cause = errors.New("its work ended")
	}
	e.o.Log.Warn("election: no longer leading", "key", t.key, "revision", t.rev, "cause", cause, "fenced", t.fenced.Load())
	e.o.Announce(fmt.Sprintf("no longer leads (term %d): %v", t.rev, cause))
	if ctx.Err() != nil || !s.lost() {
		// Resign, so that another takes over without waiting for the TTL.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), e.o.TTL)
		_ = t.el.Resign(rctx)
		cancel()
	}
}

// Term is one term of this palink's lead: its election key, created at
// revision Rev, which every write of the term is fenced by.
type Term struct {
	e      *Elector
	s      *session
	el     *concurrency.Election
	key    string
	rev    int64
	since  time.Time
	seen   int64           // the revision the lead was confirmed at
	ctx    context.Context // done when the term ends
	end    context.CancelCauseFunc
	fenced atomic.Int64
}

// Key is the term's election key.
func (t *Term) Key() string { return t.key }

// Rev is the election key's create revision: the term's number.
func (t *Term) Rev() int64 { return t.rev }

// Since is when the term began, on this host's clock (with its monotonic
// reading: time.Since(t.Since()) is immune to changes of the wall clock).
func (t *Term) Since() time.Time { return t.since }

// Fenced counts this term's writes that the fence refused.
func (t *Term) Fenced() int64 { return t.fenced.Load() }

// Refused records that etcd refused a write of this term for its fence
// (store.ErrFenced): it is counted and logged, and the term ends.
func (t *Term) Refused(err error) {
	n := t.fenced.Add(1)
	total := t.e.fenced.Add(1)
	t.e.o.Log.Warn("write fenced off", "key", t.key, "revision", t.rev, "term_refusals", n, "refusals", total, "err", err)
	t.end(fmt.Errorf("%w: a write was fenced off: %v", ErrNotLeading, err))
}

// MayAct says whether this palink may still act on a cluster: nil while
// its lease is surely alive by this host's monotonic clock (so no other
// palink can lead yet) and the term has not ended. Past that it ends the
// term and returns ErrNotLeading.
func (t *Term) MayAct() error {
	if err := context.Cause(t.ctx); err != nil {
		if errors.Is(err, ErrNotLeading) {
			return err
		}
		return fmt.Errorf("%w: %v", ErrNotLeading, err)
	}
	if acked, until := t.s.aliveSince(); time.Now().After(until) {
		err := fmt.Errorf("%w: no keepalive of its lease answered for %s", ErrNotLeading, time.Since(acked).Round(time.Millisecond))
		t.end(err)
		return err
	}
	return nil
}

// watch ends the term when its key is deleted or replaced, the watch is
// lost, or the session ends.
func (t *Term) watch(ctx context.Context) {
	wctx, cancel := context.WithCancel(clientv3.WithRequireLeader(ctx))
	defer cancel()
	w := t.e.o.Client.Watch(wctx, t.key, clientv3.WithRev(t.seen+1))
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.s.cs.Done():
			t.end(fmt.Errorf("%w: its session's lease was not kept alive", ErrNotLeading))
			return
		case resp, ok := <-w:
			switch {
			case !ok || resp.Canceled || resp.Err() != nil:
				if ctx.Err() != nil {
					return
				}
				t.end(fmt.Errorf("%w: the watch of its election key was lost: %v", ErrNotLeading, resp.Err()))
				return
			}
			for _, ev := range resp.Events {
				if ev.Type == mvccpb.DELETE || ev.Kv.CreateRevision != t.rev {
					t.end(fmt.Errorf("%w: its election key %s was deleted (its lease ended)", ErrNotLeading, t.key))
					return
				}
			}
		}
	}
}

// backoff spaces out attempts against an etcd that does not answer.
type backoff struct {
	d, limit time.Duration
}

func newBackoff(ttl time.Duration) *backoff {
	return &backoff{d: 200 * time.Millisecond, limit: ttl / 2}
}

func (b *backoff) wait(ctx context.Context) {
	t := time.NewTimer(b.d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
	b.d = time.Duration(math.Min(float64(2*b.d), float64(b.limit)))
}

func (b *backoff) reset() { b.d = 200 * time.Millisecond }
