// Package core is the domain: the Job and Command state machines, the
// scheduler, the state syncer, restore-point and restart policies, the
// deployers, and Service, the one API that tui and the CLI call.
//
// Decisions are pure functions over typed states (StepJob, StepCommand,
// CanAct, MapObservation, RestartPolicy.Decide); the scheduler and syncer
// are the shell around them that calls yarn, persists through store and
// publishes changes.
//
// Beside sync run live metrics and alerts (metrics.go, alerts.go,
// notify.go): the jobs clients declare on screen (SetInterest) and the jobs
// metric alert rules select are measured, never others; the alert rules
// judge every job (judge is pure) after each round, and webhooks hear of
// each firing and its resolve once.
//
// Logs (logs.go) are read through the JobManager's REST API of the running
// application in chunks of at most 1 MiB, searched on this side
// (FindInLog, so an agent's client never downloads a log to search it), and
// saved by the caller's own process (Remote.SaveLog).
//
// Jobs (DESIGN.md; every arrow is a row of jobTransitions):
//
//	                 adopt
//	CREATED ─────────────────────────────┐
//	   │ deploy                          ▼
//	   ▼          deploy-ok                         sync-running
//	DEPLOYING ───────────────► DEPLOY_SUCCEEDED ─────────────────► RUNNING
//	   │ deploy-failed              │ sync-finished/killed/failed    │ paused, sync-finished ─► FINISHED
//	   ▼                            │ killed                         │ killed, sync-killed ───► KILLED
//	DEPLOY_FAILED                   └──────────► FINISHED/KILLED/    │ sync-failed ───────────► FAILED
//	   │ deploy (resubmit)                       FAILED
//	   ▼
//	DEPLOYING ◄── deploy (restart / resubmit) ── FINISHED, KILLED, FAILED
//
// Commands:
//
//	UNDO ──start──► DOING ──succeed──► SUCCEEDED
//	                 │  ▲  └──fail────► FAILED
//	                 └──┘ reclaim (lease expired: reconcile with the cluster, then resume)
//
// Identity: every application palink submits carries the tags of the store
// (an id minted at random when the store was created), the job and the
// command (whose id is its number and a random part). Adoption after a
// crash (findOwnSubmission) needs all three on a live application, and a
// kill touches only applications one of the job's own commands submitted
// (submittedBy). Two stores share no store id; a store and an older copy of
// itself restored from a backup share it, but never a command id, because
// the random part differs; so neither can take the other's application.
//
// core imports store, yarn, join, config and flinksql; it never imports tui.
package core
