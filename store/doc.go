// Package store persists palink's state. It is the only package that imports
// bbolt, and it imports nothing of palink's own but model.
//
// # Bolt layout (schema version 2)
//
// One bbolt file (by default under the XDG data dir), one top-level bucket per
// record family. Records are JSON of the model types: readable with any bbolt
// viewer, enums by name, and tolerant of fields added later (decoding ignores
// unknown ones, older records decode with zero values).
//
//	meta                          "version" → schema version, decimal ASCII ("2")
//	jobs                          <job id> → model.Job
//	job_names                     <job name> → <job id>           unique name index
//	specs/<job id>                <version> → model.Spec           bucket sequence = last version
//	commands                      <command id> → model.Command     bucket sequence = last Seq
//	commands_by_state/<STATE>     <command id> → ""                STATE is UNDO, DOING, SUCCEEDED or FAILED
//	commands_by_job/<job id>      <command id> → ""
//	events/<job id>               <seq> → model.Event              append-only; bucket sequence = last seq
//	restore_points/<job id>       <seq> → model.RestorePoint       in the order recorded
//	restore_point_paths/<job id>  <path> → <seq>                   one restore point per path
//	audit                         <seq> → model.AuditEntry         append-only; bucket sequence = last seq
//	alerts                        <rule>/<job id> → model.Alert    the latest firing or resolve per rule and job (schema 2)
//
// "a/<x>" is a bucket nested in a, one per x. <version> and <seq> are 8-byte
// big-endian integers, so that bytes order as numbers and a cursor Seek
// resumes after a given seq. Command ids are "c" and the Seq zero-padded to
// nine digits (CommandID), so that they sort as they were created.
//
// The three index families (job_names, commands_by_*, restore_point_paths)
// are written in the same transaction as the record they index; Bolt.Check
// verifies that they agree with the primary buckets. commands_by_state lets
// the scheduler find UNDO and DOING commands without reading the history.
//
// # Schema versions and migrations
//
// meta/version says which layout a file has. Opening a store for writing runs
// the forward migrations from its version to SchemaVersion in one
// transaction, so a failed migration leaves the file as it was. A file
// without meta is version 0: the primary buckets only, without indexes (and
// an empty file is the degenerate version 0). A version newer than
// SchemaVersion is refused. testdata/store-v<N>.db is a store written at
// schema N and store-v<N>.json what it holds; each must open with today's
// code to those contents, so every migration is tested from a real old
// file. A change of schema adds its fixture with
// `go test ./store -run TestFixtures -update` and keeps the older ones.
//
// # Locking
//
// bbolt takes flock on the file: a writer holds it exclusively, a read-only
// store shares it. So any number of read-only palinks may open a store
// together, but not while a writer has it, and a writer waits for all of
// them. Open waits up to Options.LockTimeout, then fails with ErrLocked.
// flock belongs to the open file, so two Opens in one process conflict too.
package store
