// Package diagnose answers "where is it broken": the job graph with each
// vertex's figures and the bottleneck, a vertex subtask by subtask with its
// skew, checkpoints down to the slow subtask, the TaskManagers with their
// memory, garbage collection and thread dumps, the configuration, flame
// graphs, and exceptions down to their innermost cause (the JobManager's
// history merged with what state sync kept in the store, so that it
// outlives the application).
//
// Each call reads one job through its application's JobManager (the
// application is looked up afresh: its tracking URL changes on failover),
// within the caller's ctx and a budget of its own. A call that reads many
// things (one request per vertex, per TaskManager, per operator of a
// checkpoint) makes at most Concurrency of them at once and stops at its
// budget: what it got is returned with Notes that say what it did not
// get, rather than an error. Caps bound what any answer holds (flame graph
// frames, thread dump bytes, subtasks, vertices).
//
// The decisions (the bottleneck, the skew, the slow checkpoint part, an
// exception's chain of causes) are pure functions of what was read, tested
// on their own.
//
// It imports core/api, core/clusters, core/journal, store, yarn and model;
// never the scheduler, the syncer, observe, the TUI or the CLI.
package diagnose
