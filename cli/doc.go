// Package cli is palink's command line (cobra): one file per noun (jobs,
// job, actions, commands, cluster, logs, alerts, sql, debug, store, config,
// agent, sim, demo), and the process frame in frame.go — Execute, exit
// codes, signals, output helpers and opening the TUI.
//
// It works through core/api.Service, in process (core.Local over the store)
// or through the agent's socket, with core's options built from the config
// file by core/options. It opens no bbolt file, speaks no HTTP and runs no
// join itself: the store, the cluster clients and the debug runtime are
// core's to drive. Local runs go through their api interfaces in this
// process: a debug run through the api.Debugger core/options builds from
// the config (newDebugger), as the TUI's ctrl-d does, showing its progress
// events; table import through core.Importer's api.Importer. cli imports
// of core no part but the facade, api, agent and options (layout_test.go).
// The demo's world and the simulator of `palink sim` are package demo's:
// cli parses their flags, calls demo.Start or demo.Serve, and opens the TUI
// on the world; it does not import yarn/sim.
package cli
