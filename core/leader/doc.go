// Package leader elects, among the palinks that share a store on etcd,
// the one that runs the background parts — the scheduler, state sync, the
// restart policy, periodic savepoints and alert evaluation — and fences
// its writes, so that two leaders never act at once.
//
// Every palink that would run those parts (`palink agent`, a TUI or
// `palink sync` that holds the store, a CLI waiting for its commands)
// campaigns with etcd's election (go.etcd.io/etcd/client/v3/concurrency)
// on a session whose lease lives TTL (DefaultTTL) without a keepalive.
// The winner's term is its election key: created when it won, deleted by
// etcd when its lease ends (it died, froze, or was cut off from the
// quorum) or when it resigns. The others wait in the election and take
// over within the TTL. A term ends, and its parts stop, when
//
//   - the session's keepalives fail (Session.Done),
//   - a watch of its own key sees the key deleted, or the watch is lost,
//   - a write of its parts is refused by the fence (store.ErrFenced), or
//   - its lease is no longer known alive by this host's own monotonic
//     clock (Term.MayAct), before any act on a cluster.
//
// Then the palink closes the session (so that its key and membership go
// at once) and campaigns again on a new one.
//
// The pitfalls of etcd elections, and what this package does about them
// (from TiDB's owner manager, pkg/owner/manager.go, and the issues of
// etcd's election):
//
//   - Campaign does not return when its session's lease ends while it
//     waits: it waits on under a context that the session's end cancels.
//   - Campaign may return "elected" after the session was lost: the
//     winner reads the election again (the key created first) and leads
//     only if that is its own key at its own revision, with its session
//     alive.
//   - A Campaign that fails leaves its key behind: the session is closed
//     (its lease revoked, so the key goes) and a new one made. A lease
//     etcd no longer knows (ErrLeaseNotFound, after a jump of the etcd
//     leader's clock) is handled the same way.
//   - etcd's locks alone are not safe under partitions (Jepsen): a
//     deposed leader that was paused may wake up believing it leads. So
//     every write of the term goes through store.Etcd.Fenced with the
//     term's key and create revision (Term.Fence), compared by etcd in the
//     same transaction as the write: once the key is gone or made anew, the
//     write is refused whole (store.ErrFenced), the refusal counted and
//     logged, and the term ends. A cluster takes no fencing token, so the
//     scheduler asks Term.MayAct before each act on a cluster (a submit,
//     a stop, a kill): it holds only while the last keepalive etcd
//     acknowledged, plus the TTL less one keepalive interval, lies ahead
//     on this host's monotonic clock — while no other palink can have
//     won.
//
// Clock skew between hosts does not enter the election: a lease is a
// duration etcd's leader counts on its own clock, and MayAct counts
// durations on this host's monotonic clock (which a change of the wall
// clock does not move). The scheduler's command leases are wall-clock
// times written by one host and read by another; a new leader bounds its
// wait for them by the time since its own term began (scheduler
// Options.LeadSince), so that a clock behind the old leader's does not
// hold its commands back.
//
// Beside the election, each campaigning palink registers itself as a
// member (Prefix+"members/<lease>", bound to its lease, so that a member
// that dies leaves the list within the TTL); Read reports the leader and
// the members, for `palink agent status` and the TUI's header.
//
// # Keys
//
// Under the store's prefix, outside every bucket of the store's layout
// (store/doc.go), so that backups, copies and watches of the store never
// see them:
//
//	<prefix>election/<lease hex>   a candidate; the one created first leads.
//	                               Its value is the Member as JSON; the leader
//	                               proclaims it again with Since set.
//	<prefix>members/<lease hex>    a Member as JSON, bound to the lease
//
// # Scale-out (designed, not built)
//
// One leader runs the whole fleet's background work. BENCHMARKS.md
// (BenchmarkLeaderStore) measures it at 1,000 jobs: on etcd a sync cycle
// takes 8.5 times what it takes on a file, because the store on etcd
// serializes every commit on one key, so that the sync's concurrent
// per-job transactions run again after conflicts — a cost of the store,
// which sharding the leader's work would not remove (each shard's writes
// would conflict the same way). The store is fixed first; should one
// leader then still not keep up, the work would be sharded over the
// members rather than the leader made bigger:
//
//   - Shards are jobs hashed into a fixed number of slots (say 64) by job
//     id; a command belongs to its job's slot. The leader stays the only
//     writer of the assignment, <prefix>shards/<slot> → member lease, in a
//     fenced transaction: on a change of membership it moves the slots of
//     members that left to those that remain (rendezvous hashing, so few
//     slots move).
//   - Each member runs the scheduler and state sync for its slots only, its
//     writes fenced by the assignment key of the job's slot (its
//     create revision), as the leader's are by the election key today: a
//     slot moved away refuses its old owner's writes the same way.
//   - A moved slot's DOING commands are reclaimed through the same
//     reconciliation as a failover's, after the command lease.
//   - What stays with the leader: the restart policy's schedule and the alert
//     rules that look across jobs, the retention of savepoints (cheap), and
//     the assignment itself.
//
// It imports the store (for the fence) and etcd's client, nothing else of
// palink's.
package leader
