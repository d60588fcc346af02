// Package diagnose is where the TUI finds the cause once the job detail
// has shown the symptom: a vertex subtask by subtask with its skew
// (vertex.go), one checkpoint operator by operator and subtask by subtask
// (checkpoint.go), a TaskManager with its thread dump and log
// (taskmanager.go), a vertex's flame graph (flame.go) and the Flink
// configuration (config.go). Open builds the one kit.OpenDiagMsg asks for;
// the job detail's Graph, Checkpoints and TaskManagers tabs send it.
//
// Every view fetches through api.DiagnoseService in a Cmd (kit.Diagnose),
// shows a loading line until the answer and says what could not be
// fetched when it fails; a late answer for a view already left is
// dropped by its request's identity.
//
// All it asks of core is its Service (svc.go): api.DiagnoseService.
//
// It imports kit, kit/flame, core/api and model; never tui, detail or
// another feature (a thread dump goes to the log viewer through
// kit.OpenTextLogMsg).
package diagnose
