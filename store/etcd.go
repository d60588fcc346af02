package store

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"github.com/palink/palink/model"
)

// EtcdScheme starts the name of a store kept in etcd:
// etcd://host1:2379,host2:2379/palink (the prefix of its keys last).
const EtcdScheme = "etcd://"

// IsEtcd reports whether a store's name is an etcd URL rather than a file.
func IsEtcd(name string) bool { return strings.HasPrefix(name, EtcdScheme) }

// ErrTooLarge: a transaction writes more than one etcd request may carry
// (its --max-txn-ops or --max-request-bytes). Nothing of it was written;
// its message says how much it wrote and the limit it met.
var ErrTooLarge = errors.New("transaction too large for etcd")

// ErrReplaced: the etcd store was restored or migrated into since this
// palink opened it; its writes are refused until it opens the store again.
var ErrReplaced = errors.New("store was replaced since this palink opened it")

// Defaults of EtcdOptions: etcd's own limits, and how long palink waits.
const (
	DefaultEtcdMaxTxnOps       = 128
	DefaultEtcdMaxRequestBytes = 1536 << 10
	DefaultEtcdDialTimeout     = 5 * time.Second
	DefaultEtcdRequestTimeout  = 10 * time.Second
)

// EtcdOptions say how to reach an etcd store; a file store ignores them.
type EtcdOptions struct {
	// CAFile, CertFile and KeyFile turn TLS on: the CA that signed the
	// members' certificates, and palink's own certificate and key where
	// etcd asks clients for one (--client-cert-auth).
	CAFile, CertFile, KeyFile string
	// Username logs in with etcd's authentication; Password returns the
	// password, read when the store is opened and kept nowhere else.
	Username string
	Password func() (string, error)
	// DialTimeout is how long Open waits for an endpoint to answer
	// (DefaultEtcdDialTimeout); RequestTimeout bounds each request after
	// (DefaultEtcdRequestTimeout).
	DialTimeout, RequestTimeout time.Duration
	// MaxTxnOps and MaxRequestBytes are the cluster's --max-txn-ops and
	// --max-request-bytes (etcd's defaults unless raised there): a
	// transaction beyond them fails with ErrTooLarge before it is sent.
	MaxTxnOps, MaxRequestBytes int
	// Mirror keeps a copy of the store in memory, current by a watch
	// (doc.go, "The mirror"), that transactions read instead of etcd: for
	// a long-lived palink (the agent), where each action then costs etcd
	// one request, its commit.
	Mirror bool
}

func (o EtcdOptions) withDefaults() EtcdOptions {
	if o.DialTimeout <= 0 {
		o.DialTimeout = DefaultEtcdDialTimeout
	}
	if o.RequestTimeout <= 0 {
		o.RequestTimeout = DefaultEtcdRequestTimeout
	}
	if o.MaxTxnOps <= 0 {
		o.MaxTxnOps = DefaultEtcdMaxTxnOps
	}
	if o.MaxRequestBytes <= 0 {
		o.MaxRequestBytes = DefaultEtcdMaxRequestBytes
	}
	return o
}

// EtcdURL is a parsed etcd store name.
type EtcdURL struct {
	Endpoints []string // host:port
	// Prefix is what every key of the store starts with: "/" the URL's
	// path "/" ("/palink/").
	Prefix string
}

// String is the URL in its canonical form.
func (u EtcdURL) String() string {
	return EtcdScheme + strings.Join(u.Endpoints, ",") + strings.TrimSuffix(u.Prefix, "/")
}

// ParseEtcdURL reads etcd://host[:port][,host[:port]…]/prefix. The port
// defaults to 2379; the prefix is required, so that two stores (or a
// store and another program's keys) never share a cluster's key space
// by accident.
func ParseEtcdURL(s string) (EtcdURL, error) {
	bad := func(why string) (EtcdURL, error) {
		return EtcdURL{}, fmt.Errorf("store %q: %s (want etcd://host:2379,host2:2379/prefix)", s, why)
	}
	rest, ok := strings.CutPrefix(s, EtcdScheme)
	if !ok {
		return bad("not an etcd URL")
	}
	hosts, path, _ := strings.Cut(rest, "/")
	if strings.ContainsAny(path, "?#") || strings.ContainsAny(hosts, "@?#") {
		return bad("no user, query or fragment is taken (TLS and credentials are options of the config's etcd:)")
	}
	path = strings.Trim(path, "/")
	if path == "" {
		return bad("no key prefix")
	}
	var u EtcdURL
	for _, h := range strings.Split(hosts, ",") {
		if h == "" {
			return bad("an empty host")
		}
		if _, _, err := net.SplitHostPort(h); err != nil {
			h = net.JoinHostPort(strings.Trim(h, "[]"), "2379")
		}
		u.Endpoints = append(u.Endpoints, h)
	}
	u.Prefix = "/" + path + "/"
	return u, nil
}

// Etcd is the Store kept in an etcd cluster, under one key prefix, with
// the buckets of the bbolt layout as key prefixes (doc.go, "The store on
// etcd"). It is safe for concurrent use, by this process and by palinks
// on other hosts: every Update reads one snapshot (a revision) and commits
// only if what it read did not change since, else runs again.
type Etcd struct {
	cli  *clientv3.Client
	jobs jobCache // the jobs decoded, by their bytes
	etcdKeys
	url      EtcdURL
	name     string
	readOnly bool
	opts     EtcdOptions
	id       string
	// epoch is the revision that last wrote meta/version: a restore or a
	// migration into the store writes it again, and writes of a palink
	// that opened the store before are refused (ErrReplaced).
	epoch     atomic.Int64
	closeOnce sync.Once
	// mirror, if the options ask for one, serves reads from memory;
	// committed is the revision of this process's newest commit, which a
	// transaction reading from the mirror must see.
	mirror    *etcdMirror
	committed atomic.Int64
	// requests counts the reads and commits sent to etcd (EtcdStats).
	requests atomic.Int64
	// own are the tokens of this process's commits while a Watch runs,
	// for it to mark them (Change.Own); watchers counts the Watches.
	own      ownTokens
	watchers atomic.Int32
}

var _ Store = (*Etcd)(nil)

// OpenEtcd opens the store at an etcd URL, creating it where nothing is
// under its prefix (unless opts.ReadOnly). It fails, naming the
// endpoints, when none answers within opts.Etcd.DialTimeout; it refuses
// a store of a newer schema, and a prefix that holds keys but no schema
// version (an unfinished migration or restore, or not palink's).
func OpenEtcd(name string, opts Options) (*Etcd, error) {
	u, err := ParseEtcdURL(name)
	if err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	e, err := dialEtcd(u, opts.Etcd)
	if err != nil {
		return nil, err
	}
	e.readOnly = opts.ReadOnly
	if err := e.prepare(); err != nil {
		_ = e.cli.Close()
		return nil, fmt.Errorf("open store %s: %w", e.name, err)
	}
	if e.opts.Mirror {
		if err := e.startMirror(); err != nil {
			_ = e.cli.Close()
			return nil, fmt.Errorf("open store %s: %w", e.name, err)
		}
	}
	return e, nil
}

// etcdKeepAliveTime and etcdKeepAliveTimeout: how often the client pings
// each member it is connected to, and how long it waits for the answer
// before it takes the member for gone.
const (
	etcdKeepAliveTime    = 10 * time.Second
	etcdKeepAliveTimeout = 3 * time.Second
)

// dialEtcd connects to the cluster and waits for one endpoint to answer.
func dialEtcd(u EtcdURL, o EtcdOptions) (*Etcd, error) {
	o = o.withDefaults()
	e := &Etcd{etcdKeys: etcdKeys{prefix: u.Prefix}, url: u, name: u.String(), opts: o}
	cfg := clientv3.Config{
		Endpoints:          u.Endpoints,
		DialTimeout:        o.DialTimeout,
		Logger:             zap.NewNop(),
		MaxCallSendMsgSize: o.MaxRequestBytes + 64<<10,
		Username:           o.Username,
		// A member that froze or was cut off keeps its TCP connection
		// open: without pings, requests sent to it wait for ever, and the
		// client never turns to the members that answer. gRPC pings no
		// more often than every 10s.
		DialKeepAliveTime:    etcdKeepAliveTime,
		DialKeepAliveTimeout: etcdKeepAliveTimeout,
	}
	if o.Username != "" && o.Password != nil {
		pw, err := o.Password()
		if err != nil {
			return nil, fmt.Errorf("open store %s: password of etcd user %s: %w", e.name, o.Username, err)
		}
		cfg.Password = pw
	}
	if o.CAFile != "" || o.CertFile != "" || o.KeyFile != "" {
		tc, err := tlsConfig(o)
		if err != nil {
			return nil, fmt.Errorf("open store %s: %w", e.name, err)
		}
		cfg.TLS = tc
	}
	cli, err := clientv3.New(cfg) // logs in, when there is a user
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", e.name, e.unreachable(err, o.DialTimeout))
	}
	e.cli = cli
	ctx, cancel := context.WithTimeout(context.Background(), o.DialTimeout)
	defer cancel()
	if _, err := cli.Get(ctx, e.key("txn"), clientv3.WithKeysOnly()); err != nil {
		_ = cli.Close()
		return nil, fmt.Errorf("open store %s: %w", e.name, e.unreachable(err, o.DialTimeout))
	}
	return e, nil
}

// tlsConfig reads the CA and the client's key pair.
func tlsConfig(o EtcdOptions) (*tls.Config, error) {
	tc := &tls.Config{MinVersion: tls.VersionTLS12}
	if o.CAFile != "" {
		pem, err := os.ReadFile(o.CAFile)
		if err != nil {
			return nil, fmt.Errorf("etcd CA: %w", err)
		}
		tc.RootCAs = x509.NewCertPool()
		if !tc.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("etcd CA %s: no PEM certificate in it", o.CAFile)
		}
	}
	if (o.CertFile == "") != (o.KeyFile == "") {
		return nil, errors.New("etcd client certificate: give both cert_file and key_file, or neither")
	}
	if o.CertFile != "" {
		pair, err := tls.LoadX509KeyPair(o.CertFile, o.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("etcd client certificate: %w", err)
		}
		tc.Certificates = []tls.Certificate{pair}
	}
	return tc, nil
}

// unreachable says what a failed request means for a person: no endpoint
// answering (naming them), or a refusal of etcd's authentication.
func (e *Etcd) unreachable(err error, waited time.Duration) error {
	// etcd's errors arrive as gRPC statuses or in its own type.
	known := rpctypes.Error(err)
	switch {
	case errors.Is(known, rpctypes.ErrAuthFailed), errors.Is(known, rpctypes.ErrInvalidAuthToken):
		return fmt.Errorf("etcd refused user %q: %w", e.opts.Username, err)
	case errors.Is(known, rpctypes.ErrPermissionDenied):
		return fmt.Errorf("etcd user %q may not use the keys under %s: %w", e.opts.Username, e.url.Prefix, err)
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, rpctypes.ErrTimeout) ||
		strings.Contains(err.Error(), "Unavailable") || strings.Contains(err.Error(), "connection refused"):
		return unavailableError{fmt.Errorf("no etcd endpoint answered within %v (%s): %w", waited, strings.Join(e.url.Endpoints, ", "), err)}
	}
	return err
}

// unavailableError is an error of etcd's that is ErrUnavailable and
// model.ErrUnavailable too, so that a caller tells a moment's trouble
// from a refusal, without the message saying so again.
type unavailableError struct{ error }

func (u unavailableError) Unwrap() []error {
	return []error{u.error, ErrUnavailable, model.ErrUnavailable}
}

// The keys of the store under its prefix (doc.go, "The store on etcd").

// etcdKeys lays out the store's keys under its prefix; Etcd has it
// embedded, so e.key(…) reads as the store's own.
type etcdKeys struct{ prefix string }

// key is the prefix then name.
func (k etcdKeys) key(name string) string { return k.prefix + name }

var (
	etcdVersionKey = string(bucketMeta) + "/" + string(keyVersion)
	etcdIDKey      = string(bucketMeta) + "/" + string(keyStoreID)
	// etcdTxnKey is written by every Update: an Update that read too
	// much to compare its reads one by one compares it (doc.go), and a
	// commit whose answer was lost is looked for in it (Etcd.resolve).
	etcdTxnKey = "txn"
)

var (
	escapeName   = strings.NewReplacer("%", "%25", "/", "%2F")
	unescapeName = strings.NewReplacer("%2F", "/", "%25", "%")
)

// bucketPrefix is where b's keys lie: prefix, top, each nested name
// escaped, each followed by "/".
func (k etcdKeys) bucketPrefix(b bucket) string {
	var sb strings.Builder
	sb.WriteString(k.prefix)
	sb.WriteString(b[0])
	sb.WriteByte('/')
	for _, n := range b[1:] {
		sb.WriteString(escapeName.Replace(n))
		sb.WriteByte('/')
	}
	return sb.String()
}

// seqKey is b's sequence: its prefix without the last "/", which lies in
// its parent's keys (so that a bucket holding only a sequence is listed
// among its parent's children) but not among its own.
func (k etcdKeys) seqKey(b bucket) string {
	p := k.bucketPrefix(b)
	return p[:len(p)-1]
}

// parseKey reads a key of the store back: the bucket it belongs to, and
// the record's key in it, or seq set for a bucket's sequence. ok is false
// for the keys that are no record (the Update counter) and for keys
// palink never writes.
func (ks etcdKeys) parseKey(key string) (b bucket, k []byte, seq, ok bool) {
	rest, found := strings.CutPrefix(key, ks.prefix)
	if !found {
		return nil, nil, false, false
	}
	top, rest, nested := strings.Cut(rest, "/")
	levels, known := nestedLevels(top)
	if !known {
		return nil, nil, false, false
	}
	b = bucket{top}
	if !nested {
		return b, nil, true, true
	}
	for range levels {
		name, after, more := strings.Cut(rest, "/")
		b = append(b, unescapeName.Replace(name))
		if !more {
			return b, nil, true, true
		}
		rest = after
	}
	return b, []byte(rest), false, true
}

// Path names the store: its URL.
func (e *Etcd) Path() string { return e.name }

// Client is the store's connection to etcd, for what palink keeps beside
// the store on the same cluster: the agents' election and their members
// (core/leader), under KeyPrefix but outside every bucket of the layout
// (doc.go), so that no backup, copy or watch of the store takes them for
// records.
func (e *Etcd) Client() *clientv3.Client { return e.cli }

// KeyPrefix is what every key of the store starts with ("/palink/").
func (e *Etcd) KeyPrefix() string { return e.url.Prefix }

// Endpoints are the members the store was opened on, for messages.
func (e *Etcd) Endpoints() []string { return slices.Clone(e.url.Endpoints) }

// ID returns the store's id (meta/store_id).
func (e *Etcd) ID() string { return e.id }

// EtcdStats counts what a store on etcd asked of etcd, and what its
// mirror answered instead, since it was opened.
type EtcdStats struct {
	// Requests are the reads and commits sent to etcd.
	Requests int64
	// Mirrored are the reads the mirror answered (0 without one).
	Mirrored int64
}

// Stats says how many requests the store sent to etcd, and how many
// reads its mirror spared.
func (e *Etcd) Stats() EtcdStats {
	s := EtcdStats{Requests: e.requests.Load()}
	if e.mirror != nil {
		s.Mirrored = e.mirror.served.Load()
	}
	return s
}

// ReadOnly reports whether the store was opened read-only.
func (e *Etcd) ReadOnly() bool { return e.readOnly }

// Close closes the connection to etcd. Calling it again does nothing.
func (e *Etcd) Close() error {
	var err error
	e.closeOnce.Do(func() {
		if e.mirror != nil {
			e.mirror.close()
		}
		err = e.cli.Close()
	})
	if err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("close store %s: %w", e.name, err)
	}
	return nil
}

// prepare reads the schema version and the store id, creating the store
// where the prefix holds nothing.
func (e *Etcd) prepare() error {
	ctx, cancel := context.WithTimeout(context.Background(), e.opts.RequestTimeout)
	defer cancel()
	for range 3 {
		resp, err := e.cli.Get(ctx, e.key(etcdVersionKey))
		if err != nil {
			return e.unreachable(err, e.opts.RequestTimeout)
		}
		if len(resp.Kvs) == 0 {
			if err := e.create(ctx); err != nil {
				return err
			}
			continue // read what was made, by this palink or another
		}
		raw := string(resp.Kvs[0].Value)
		v, err := strconv.Atoi(raw)
		switch {
		case err != nil || v < 0:
			return fmt.Errorf("read schema version: %q is not a version", raw)
		case v > SchemaVersion:
			return newerSchemaError(v, SchemaVersion)
		case v < 7:
			// Stores on etcd begin at schema 7.
			return &sentinelError{
				msg: fmt.Sprintf("store schema %d is older than this palink (%d) and has no migration on etcd", v, SchemaVersion),
				is:  ErrSchema,
			}
		case v < SchemaVersion && e.readOnly:
			return &sentinelError{
				msg: fmt.Sprintf("store schema %d is older than this palink (%d); open it once without --read-only to upgrade it", v, SchemaVersion),
				is:  ErrSchema,
			}
		case v < SchemaVersion:
			if err := e.migrate(v, resp.Kvs[0].ModRevision); err != nil {
				return fmt.Errorf("migrate store from schema %d to %d: %w", v, SchemaVersion, err)
			}
			continue
		}
		e.epoch.Store(resp.Kvs[0].ModRevision)
		id, err := e.cli.Get(ctx, e.key(etcdIDKey))
		if err != nil {
			return e.unreachable(err, e.opts.RequestTimeout)
		}
		if len(id.Kvs) == 0 || !validStoreID(string(id.Kvs[0].Value)) {
			got := ""
			if len(id.Kvs) > 0 {
				got = string(id.Kvs[0].Value)
			}
			return fmt.Errorf("its %s is %q, not 12 lowercase hex characters: %w", keyStoreID, got, ErrCorrupt)
		}
		e.id = string(id.Kvs[0].Value)
		return nil
	}
	return errors.New("the store's schema version vanished as it was created")
}

// migrate brings a store on etcd from schema from (whose version key was
// written at revision rev) to SchemaVersion, as migrate.go does a file:
// schema 8 forgets the checkpoints Flink subsumed (migrateTo8), in
// batches of Updates; the version is written last, only if no other
// palink wrote it meanwhile (one that did migrated it too).
func (e *Etcd) migrate(from int, rev int64) error {
	e.epoch.Store(rev)
	ctx := context.Background()
	if from < 8 {
		if _, err := Prune(ctx, e, func(model.Job) int { return 1 }); err != nil {
			return err
		}
	}
	v := e.key(etcdVersionKey)
	rctx, cancel := e.reqCtx(ctx)
	defer cancel()
	_, err := e.cli.Txn(rctx).If(clientv3.Compare(clientv3.ModRevision(v), "=", rev)).
		Then(clientv3.OpPut(v, strconv.Itoa(SchemaVersion))).Commit()
	if err != nil {
		return e.unreachable(err, e.opts.RequestTimeout)
	}
	return nil
}

// create makes a new store where nothing is under the prefix: its schema
// version and its id, in one transaction that only the first of several
// palinks creating it at once wins.
func (e *Etcd) create(ctx context.Context) error {
	found, err := e.cli.Get(ctx, e.url.Prefix, clientv3.WithPrefix(), clientv3.WithKeysOnly(), clientv3.WithLimit(1))
	if err != nil {
		return e.unreachable(err, e.opts.RequestTimeout)
	}
	if len(found.Kvs) > 0 {
		return fmt.Errorf("its prefix holds keys (%s) but no schema version: a migration or restore that did not finish (run it again), "+
			"or keys of another program: %w", found.Kvs[0].Key, ErrCorrupt)
	}
	if e.readOnly {
		return errors.New("no store is there, and a read-only palink creates none: run once without --read-only")
	}
	v := e.key(etcdVersionKey)
	_, err = e.cli.Txn(ctx).If(clientv3.Compare(clientv3.CreateRevision(v), "=", 0)).
		Then(clientv3.OpPut(v, strconv.Itoa(SchemaVersion)), clientv3.OpPut(e.key(etcdIDKey), newStoreID()),
			clientv3.OpPut(e.key(etcdTxnKey), "create")).Commit()
	if err != nil {
		return e.unreachable(err, e.opts.RequestTimeout)
	}
	return nil
}

// maxAttempts bounds how often an Update runs again after losing to
// other writers; each round one of them commits, so only a crowd of
// writers far beyond palink's reaches it.
const maxAttempts = 100

// View runs fn on one snapshot of the store (one revision). fn may run
// more than once, should etcd compact that revision away meanwhile: it
// must not act but through what it returns.
func (e *Etcd) View(ctx context.Context, fn func(ReadTx) error) error {
	for attempt := 0; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("read store %s: %w", e.name, err)
		}
		t := e.begin(ctx, false)
		err := e.run(t, func(r *records) error { return fn(r) })
		if errors.Is(t.err, rpctypes.ErrCompacted) && attempt < maxAttempts {
			continue
		}
		if t.err != nil && !errors.Is(err, t.err) {
			return t.err
		}
		return err
	}
}

// Update runs fn on one snapshot of the store, buffering its writes, and
// commits them in one etcd transaction if no other Update committed since
// the snapshot; otherwise it runs fn again on a new snapshot. So fn may
// run more than once: it must not act but through the Tx and what it
// returns (core's transactions only read, write and return). As with the
// file store, fn's error and a ctx done before the commit leave nothing
// written; a transaction too large for one etcd request fails with
// ErrTooLarge.
func (e *Etcd) Update(ctx context.Context, fn func(Tx) error) error {
	return e.update(ctx, fn, nil)
}

func (e *Etcd) update(ctx context.Context, fn func(Tx) error, fence *Fence) error {
	if e.readOnly {
		return fmt.Errorf("update store %s: %w", e.name, ErrReadOnly)
	}
	for attempt := 0; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("update store %s: %w", e.name, err)
		}
		t := e.begin(ctx, true)
		t.fence = fence
		t.fromMirror = t.fromMirror && attempt == 0
		fnErr := e.run(t, func(r *records) error { return fn(r) })
		switch {
		case errors.Is(t.err, rpctypes.ErrCompacted) && attempt < maxAttempts:
			continue
		case t.err != nil && !errors.Is(fnErr, t.err):
			return t.err
		case fnErr != nil:
			return fnErr
		}
		if err := ctx.Err(); err != nil {
			// A caller that gave up must not find its write done after all.
			return fmt.Errorf("update store %s: not committed: %w", e.name, err)
		}
		committed, err := t.commit()
		switch {
		case err != nil:
			return fmt.Errorf("update store %s: %w", e.name, err)
		case committed:
			return nil
		case attempt >= maxAttempts:
			return fmt.Errorf("update store %s: not committed: other writers committed first %d times running", e.name, attempt+1)
		}
		// Others commit meanwhile: step aside for a moment, not in step.
		time.Sleep(time.Duration(rand.Int64N(int64(min(attempt+1, 20)) * int64(time.Millisecond))))
	}
}

// ErrFenced: an Update of a fenced store (Etcd.Fenced) found its fence
// gone: the writer is no longer the one the fence admits (a deposed
// leader). Nothing of the transaction was written.
var ErrFenced = errors.New("write fenced off")

// Fence is a condition every commit of a fenced store holds to, in the
// same etcd transaction as its writes: the key exists, and was created at
// CreateRevision. An election's key is one: it is created when its
// candidate wins and deleted when the candidate's lease ends, so its
// create revision names one term of one leader.
type Fence struct {
	Key            string // the whole key, not under the store's prefix
	CreateRevision int64
}

// Fenced is the store with every Update fenced by f: once f's key is gone
// or made anew, Updates fail with ErrFenced, and a write of a deposed
// leader is never accepted, however late it arrives. Views are the
// store's. Closing it closes e.
func (e *Etcd) Fenced(f Fence) Store { return &fencedEtcd{Etcd: e, fence: f} }

type fencedEtcd struct {
	*Etcd
	fence Fence
}

// Update runs fn as Etcd.Update does, and commits only within the fence.
func (f *fencedEtcd) Update(ctx context.Context, fn func(Tx) error) error {
	return f.update(ctx, fn, &f.fence)
}

// run calls fn with the records of t and ends them.
func (e *Etcd) run(t *etcdKV, fn func(*records) error) error {
	r := newRecords(t)
	r.jobs = &e.jobs
	defer r.close()
	return fn(r)
}

// Backup and Restore of etcd stores are in etcd_copy.go.

// reqCtx bounds one request to etcd.
func (e *Etcd) reqCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, e.opts.RequestTimeout)
}
