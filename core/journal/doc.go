// Package journal is how a job's record changes inside one store
// transaction, for every part of core: Apply steps the job's state machine
// and appends the history event in the same transaction (or refuses an
// illegal transition), Note records a fact without a state change,
// RecordFlinkPoint keeps a checkpoint or savepoint the JobManager reported,
// and FindJob / FindCommand resolve what users type (an id, a name, #42).
// Publisher is how a part tells watchers (the TUI, the agent's clients)
// of a change it committed, and View the job they are told of, with
// decide.CanAct's answer for every action (Checks).
//
// It imports store, yarn (for the checkpoint record), decide and model.
package journal
