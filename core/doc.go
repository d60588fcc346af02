// Package core is the domain, as a thin facade over its parts: Local is the
// in-process api.Service, and its methods hand each call to the part that
// owns it.
//
//	core/decide     the pure decisions: job and command state machines,
//	                CanAct, the observation mapping, the restart policy,
//	                restore choices (typed states in, next state out)
//	core/scheduler  commands: Plan, Act, leases, the deployers, pause, kill,
//	                retries, orphans
//	core/syncer     state sync: one RM list per cluster per cycle, each live
//	                job's Flink state, drift, the restart policy's schedule
//	core/observe    live metrics for the jobs on screen, alert rules, webhooks
//	core/logs       job logs and YARN container logs in bounded chunks,
//	                searched on this side
//	core/diagnose   the job graph and its bottleneck, vertices, checkpoint
//	                parts, TaskManagers, flame graphs, exceptions to their
//	                innermost cause (api.DiagnoseService)
//	core/agent      the socket server and client of api.Service, for the
//	                palinks of one host that do not own the store
//	core/clusters   the clients of each cluster and the YARN tags of palink's
//	                submissions
//	core/journal    the transaction helpers every part shares, and Publisher
//	core/script     a SQL job script as the SQL Gateway runs it
//	core/catalog    the table catalog (api.CatalogService): versioned CREATE
//	                TABLE definitions per cluster, which tables a SQL job gets
//	                injected, refusals of tables that no longer validate
//	core/udfs       the UDF registry (api.UDFService): functions, the jobs
//	                that call them, what a SQL deploy runs to create them
//	core/localrun   what runs in the caller's process: a SQL job's debug
//	                run (api.Debugger) on join/debug, its Kafka samples,
//	                the DDL importers (api.Importer)
//	core/api        the Service interface and its types, for the TUI and CLI
//
// A part takes the few things it uses (the store, the clusters, the clock, a
// Publisher), never Local. The facade itself keeps the job records
// (ListJobs, Job, CreateJob, SaveSpec), the cluster view and adoption,
// Explain; Importer hands the CLI core/localrun's importers as api.Importer.
// It builds each part from Options, which the CLI fills from the config file:
// core does not import the YAML schema.
//
// Jobs (DESIGN.md; every arrow is a row of decide's jobTransitions):
//
//	                 adopt
//	CREATED ─────────────────────────────┐
//	   │ deploy                          ▼
//	   ▼          deploy-ok                         sync-running
//	DEPLOYING ───────────────► DEPLOY_SUCCEEDED ─────────────────► RUNNING
//	   │ │ killed (a kill supersedes the deploy) ──► KILLED
//	   │ deploy-failed              │ sync-finished/killed/failed    │ paused, sync-finished ─► FINISHED
//	   ▼                            │ killed                         │ killed, sync-killed ───► KILLED
//	DEPLOY_FAILED                   └──────────► FINISHED/KILLED/    │ sync-failed ───────────► FAILED
//	   │ deploy (resubmit)                       FAILED
//	   ▼
//	DEPLOYING ◄── deploy (restart / resubmit) ── FINISHED, KILLED, FAILED
//
//	DEPLOY_FAILED, FINISHED, KILLED, FAILED ── adopt (palink adopt of an
//	application whose tags name the job) ──► DEPLOY_SUCCEEDED
//
// Commands:
//
//	UNDO ──start──► DOING ──succeed──► SUCCEEDED
//	  │              │  ▲  └──fail────► FAILED
//	  │              └──┘ reclaim (lease expired: reconcile with the cluster, then resume)
//	  └──────────────┴──── supersede (a KILL ends it, whoever runs it) ──► FAILED
//	                 │
//	                 └──uncertain──► UNKNOWN ──succeed──► SUCCEEDED   (YARN/Flink show it took effect)
//	                   (its tries   │  ▲  └──fail────► FAILED      (they show it did not)
//	                   said nothing)└──┘ reclaim (its worker died: reconcile again, never resend)
//
// A pause, savepoint or kill whose request may have reached the cluster
// but whose answers were all lost is never FAILED on that account: it is
// UNKNOWN until the trigger's status, the job's checkpoint history or the
// application's state says what happened. Only a KILL may act on its job
// meanwhile, and it does not supersede it.
//
// Restore points (decide.Missing): a deploy restores only from a point
// known to exist — a savepoint recorded as completed and never disposed
// of, or a checkpoint whose run ended in a way its retention keeps
// (Flink's CheckpointProperties: FINISHED deletes them whatever the
// retention, a YARN kill deletes nothing), as recorded by the command or
// sync that saw the run end. A point a restore could not find is marked
// missing and never tried again.
//
// Identity: every application palink submits carries the tags of the store
// (an id minted at random when the store was created), the job and the
// command (whose id is its number and a random part). Adoption after a
// crash (findOwnSubmission) needs all three on a live application, and a
// kill touches only applications one of the job's own commands submitted
// (clusters.ClaimOf). Two stores share no store id; a store and an older
// copy of itself restored from a backup share it, but never a command id,
// because the random part differs; so neither can take the other's
// application. A palink from before store ids tagged only the job and a
// command id without a random part, which every copy of that older store
// holds: such an application is taken only by a store that recorded its
// id on the command or the job, or by a person's `palink adopt`, which
// gives it to the job its tags name; any other copy leaves it alone and
// says so.
//
// core imports store, yarn, join (the debug runtime) and flinksql; it never
// imports tui, cli or config.
package core
