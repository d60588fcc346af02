// Package core is the domain: the Job and Command state machines, the
// scheduler, the state syncer, restore-point and restart policies, the
// deployers, and Service, the one API that tui and the CLI call.
//
// Decisions are pure functions over typed states with time passed in; the
// scheduler and syncer are the shell around them that calls yarn, persists
// through store and publishes changes.
//
// core imports store, yarn, join and core/flinksql; it never imports tui.
package core
