// Package store persists palink's state, in a bbolt file (Bolt) or in an
// etcd cluster that palinks on several hosts share (Etcd). It is the only
// package that imports bbolt or etcd's client, and it imports nothing of
// palink's own but model.
//
// The record families (jobs, commands, restore points, audit, alerts,
// projects, catalog, UDFs, teams) are written once, in records*.go and the
// family files, over kv (kv.go): a transaction seen as buckets of keys in
// byte order, the layout below. kv_bolt.go is that over bbolt, kv_etcd.go
// over etcd; the contract suite (contract*_test.go) runs on both.
//
// # Bolt layout (schema version 8)
//
// One bbolt file (by default under the XDG data dir), one top-level bucket per
// record family. Records are JSON of the model types: readable with any bbolt
// viewer, enums by name, and tolerant of fields added later (decoding ignores
// unknown ones, older records decode with zero values).
//
//	meta                          "version" → schema version, decimal ASCII ("8")
//	                              "store_id" → the store's id, 12 lowercase hex (schema 3)
//	jobs                          <job id> → model.Job
//	job_names                     <job name> → <job id>           unique name index
//	specs/<job id>                <version> → model.Spec           bucket sequence = last version
//	commands                      <command id> → model.Command     bucket sequence = last Seq
//	commands_by_state/<STATE>     <command id> → job id            STATE is UNDO, DOING, UNKNOWN, SUCCEEDED or FAILED ("" before palink named the job)
//	commands_by_job/<job id>      <command id> → ""
//	events/<job id>               <seq> → model.Event              append-only; bucket sequence = last seq
//	restore_points/<job id>       <seq> → model.RestorePoint       in the order recorded; a disposal
//	                              rewrites its record in place (Status, DisposedAt, Error); of
//	                              checkpoints only the newest the cluster retains and those the job
//	                              names (PinnedPaths) are kept, older ones pruned as new ones are
//	                              recorded (schema 8 pruned what older palinks kept: prune.go)
//	restore_point_paths/<job id>  <path> → <seq>                   one restore point per path
//	audit                         <seq> → model.AuditEntry         append-only; bucket sequence = last seq
//	alerts                        <rule>/<job id> → model.Alert    the latest firing or resolve per rule and job (schema 2)
//	exceptions/<job id>           <time><name> → model.JobException  the Flink exception history state sync saw,
//	                              newest MaxStoredExceptions kept (schema 4)
//	projects                      <name> → model.Project          git repositories palink builds (schema 5)
//	artifacts/<project>           <version> → model.Artifact       a project's successful builds; bucket
//	                              sequence = last version (schema 5)
//	catalog/<cluster>/<name>      <version> → model.CatalogTable   every version of a shared table definition;
//	                              bucket sequence = last version (schema 6)
//	vars/<cluster>                <name> → model.Variable          ${name} variables, "*" for every cluster; a secret
//	                              keeps where its value comes from, never the value (schema 6)
//	udfs                          <name> → model.UDF              the UDF registry: functions SQL jobs of any
//	                              cluster get injected at deploy (schema 7)
//	teams                         <name> → model.Team             the tenants: what each owns (clusters,
//	                              queues) and its members' roles (schema 9)
//
// "a/<x>" is a bucket nested in a, one per x. <version> and <seq> are 8-byte
// big-endian integers, so that bytes order as numbers and a cursor Seek
// resumes after a given seq; <time> is the 8-byte big-endian Unix
// nanoseconds of the exception, followed by its name, so that exceptions
// order by time and one failure seen by two syncs is kept once.
//
// The store id is minted from crypto/rand when the store is made (or
// migrated to schema 3), and kept by backups and restores: it is the
// store's identity, which YARN tags carry (Store.ID). Command ids are "c"
// and the Seq zero-padded to nine digits (CommandID), then "-" and 12
// random lowercase hex characters: c000000042-3f9a1b2c4d5e. They sort as
// the commands were created, and a cursor Seek to CommandID(seq) finds a
// command by the seq users name it with (ReadTx.CommandBySeq). The random
// part keeps ids apart across stores, and across a restore, which hands
// out again the seqs used after its backup was taken. Commands created
// before schema 3 keep their ids of the plain form "c000000042"; nothing
// assumes that an id is CommandID(Seq).
//
// The three index families (job_names, commands_by_*, restore_point_paths)
// are written in the same transaction as the record they index; Bolt.Check
// verifies that they agree with the primary buckets. commands_by_state lets
// the scheduler find UNDO, DOING and UNKNOWN commands without reading the history.
//
// # Schema versions and migrations
//
// meta/version says which layout a file has. Opening a store for writing runs
// the forward migrations from its version to SchemaVersion in one
// transaction, so a failed migration leaves the file as it was. A file
// without meta is version 0: the primary buckets only, without indexes (and
// a new store, bbolt's empty tree, is the degenerate version 0, migrated up
// before it is linked into place). A version newer than SchemaVersion is
// refused. A read-only Open migrates nothing, so it refuses an older schema
// ("open it once without --read-only"): a store open read-only has a store
// id too. testdata/store-v<N>.db is a store written at schema N and
// store-v<N>.json what it holds; each must open with today's code to those
// contents, so every migration is tested from a real old file. A change of
// schema adds its fixture with `go test ./store -run TestFixtures -update`
// and keeps the older ones.
//
// # Damaged files
//
// A store file can be damaged under palink: truncated, emptied, pages
// overwritten by a bad disk or a stray write. bbolt trusts its pages: it
// panics on one it cannot make sense of (in the goroutine of the
// transaction), and reads past the end of a truncated file. So:
//
//   - Open creates a store only where no file exists, whole, in a temporary
//     file linked into place; an existing empty file is refused, never
//     made into a new store.
//   - Open looks at an existing file read-only before using it, at a cost
//     that does not grow with the store (every CLI call opens it): a
//     directory or a device is refused; bbolt checks the meta pages; the
//     file must hold every page its meta page counts; the freelist, which
//     a writer allocates pages from, must read (a freelist page, no page
//     freed twice); and the pages every read starts from, the tree's root
//     and each top-level bucket's root, must be branch or leaf pages that
//     name themselves, within the file and not free.
//   - Every transaction (View, Update, Backup, Check, the migrations) runs
//     under guard, which turns a panic raised in bbolt, or a fault reading
//     the mapped file, into ErrCorrupt; a panic of the caller's own code
//     goes on. bbolt asserts that each page it reads names itself and is of
//     a known type, so a page damaged deeper in is found by the first
//     transaction that reads it, with the same error Open would give. A
//     Bolt that met damage refuses every later Update, so a write that
//     would have gone through a damaged page never commits.
//   - The walk of every page that Open leaves out (bbolt's check: every
//     page reachable or free, none both, each of the type its parent says;
//     100–300 ms at 200 MB) is CheckPages, which `palink agent` runs once
//     after it starts, beside its own work: damage found stops the agent
//     with Open's error, and the store refuses writes from then on.
//
// ErrCorrupt's message names the file, what is wrong, and the command that
// puts a backup in its place (RestoreAdvice). CheckFile is the full check
// of `palink store check`: pages, records and indexes.
//
// # The store on etcd
//
// store: etcd://host1:2379,host2:2379/palink keeps the same buckets as key
// prefixes under /palink/ (the URL's path): a record of bucket a/<x> is
// the key /palink/a/<x>/<key>, its value the same JSON; nested names are
// escaped (% and / as %25 and %2F), record keys are the bbolt keys, bytes
// and all. A bucket's sequence is the bucket's own key without the last
// slash, /palink/specs/<job id> → "3" (decimal ASCII), so that it lies in
// its parent's range and a bucket made only of a sequence is still one of
// its parent's. meta/version and meta/store_id are /palink/meta/version
// and /palink/meta/store_id; /palink/txn is the Update counter.
//
// An Update reads one revision of the store (the first read's; later
// reads ask for it by number, from any member that has it) and buffers its
// writes; its commit is one etcd transaction that holds only if what the
// Update read is still so: each key it read has the mod revision it read
// (0 where missing), each range it scanned holds no key written after
// its revision, and no key of a bucket it scanned was deleted since
// (/palink/deleted/<bucket path>/, a mark every transaction that deletes
// from the bucket writes; a deleted key leaves no revision to compare).
// So Updates are serializable as bbolt's are — each as if after every
// one committed before it — without a lock, and two conflict only where
// one wrote what the other read: the state sync's transactions, one per
// job, commit side by side. One that loses runs again on a new snapshot
// (Store's doc says what that asks of fn). Every commit also writes the
// Update counter, /palink/txn: a transaction that read too much to
// compare key by key in one request compares it instead (nothing
// committed since its revision). Views read one revision and
// need no commit. The indexes are written in the same transaction as
// their records, as in a file. The commit also compares meta/version's
// revision with the one the store was opened at: a restore or a migration
// into the store writes it again, and a palink that opened the store
// before is refused (ErrReplaced) instead of writing over the restored
// records. A commit whose answer is lost is looked up by a token it wrote
// into the counter, after fencing the token off (every commit compares
// /palink/lost/<token> absent; the lookup writes it, for an hour) so that
// the lost request cannot apply later (Etcd.resolve). Etcd.Fenced adds one more
// compare, an election key's create revision: a deposed leader's writes
// are refused (ErrFenced).
//
// One etcd transaction carries at most --max-txn-ops operations (128) and
// --max-request-bytes (1.5 MiB); a transaction beyond them fails with
// ErrTooLarge before it is sent, naming the limit, and writes nothing
// (EtcdOptions names a cluster's raised limits). palink's transactions
// stay within them: a state change writes a handful of keys; AddExceptions
// at most model.MaxStoredExceptions puts and as many deletes (a key it put
// and deletes again costs nothing); a migration or a restore is not one
// transaction but batches, the schema version written last, so that a
// prefix whose copy did not finish holds keys but no version, which Open
// refuses.
//
// Backups of either backend are bbolt store files: Etcd.Backup writes the
// records of one revision into one, which Restore (a file) and RestoreEtcd
// take back, `palink store check` checks, and Migrate copies through
// (comparing every record, index entry and sequence of source and copy).
// Etcd.Watch reports each committed transaction's families and jobs, so
// that a palink learns of another's writes without polling. A store on
// etcd starts at schema 7; each later schema adds its step there too
// (Etcd.migrate): schema 8 prunes checkpoints in batches, schema 9's teams
// start empty; then it writes the version.
//
// # The mirror
//
// An agent keeps the store on etcd mirrored in memory (EtcdOptions.Mirror,
// etcd_mirror.go): every key under the prefix but the records of the long
// histories (events, audit, exceptions) and the specs, loaded at one
// revision and kept current by a watch from the next, as Kubernetes' API
// server keeps its watch cache. A transaction takes the mirror's newest
// revision as its snapshot — once it holds this process's own last commit,
// so that a palink reads what it wrote — and reads from memory what the
// mirror can answer at that revision exactly as etcd would: it keeps the
// newest version of each key, and a deleted key as a tombstone with the
// revision that deleted it, so a key unchanged since the snapshot is
// answered, and one changed or deleted after it is read from etcd at the
// snapshot, as every read of a family the mirror skips is. Nothing else
// changes: an Update's commit compares what it read, so one that read a
// copy the watch had not yet brought up to date fails its commit and runs
// again, on etcd's newest revision. An action (Plan's View and Act's
// Update) so sends etcd one request, its commit, where it sent about 13.
// The mirror asks etcd for a progress report every second on a quiet store
// and serves no new snapshot when nothing was heard for 3 s, so that a
// palink cut off from etcd finds out as fast as without it; a watch etcd
// cuts (a compaction passed it, its member lost the leader) loads the
// mirror again. Beyond 4,096 tombstones it forgets them and serves no
// snapshot older than that moment.
//
// # Locking
//
// A store file is locked; a store on etcd is not (its Updates coordinate
// as said above). bbolt takes flock on the file: a writer holds it exclusively, a read-only
// store shares it. So any number of read-only palinks may open a store
// together, but not while a writer has it, and a writer waits for all of
// them. Open waits up to Options.LockTimeout, then fails with ErrLocked.
// flock belongs to the open file, so two Opens in one process conflict too.
package store
