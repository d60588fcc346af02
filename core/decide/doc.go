// Package decide holds the domain's pure decisions, as DESIGN.md states
// them: the job state machine (StepJob, the only legal transitions),
// who may act when (CanAct, and the one exception: a KILL Supersedes a
// pending command), the command state machine (StepCommand: UNDO → DOING →
// SUCCEEDED | FAILED, reclaim after an expired lease, UNKNOWN when a
// command's effect is unknown until reconciled), the mapping of what YARN
// and Flink report to a platform state and to how a run ended
// (MapObservation, RunEndOf), the platform's restart policy
// (RestartPolicy.Decide), and which restore point a start uses among those
// known to exist (Missing, CheckpointKept: Flink's retention table;
// ResolveRestore, NewestValid, PolicyRestore).
//
// Every function is pure: typed states in, the next state (or a refusal)
// out, time passed in. The transition diagrams are in core's package doc.
// It imports model and nothing else of palink's; the parts of core (the
// scheduler, the syncer) are the shell that persists and acts on what it
// decides.
package decide
