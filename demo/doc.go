// Package demo is the demo's world: the simulated cluster `palink demo`
// starts in its process (yarn/sim, on a clock an hour behind), palink on a
// throwaway store beside it, and the fleet that lives its hour on them
// before the UI opens; the cluster's assets (a table catalog, variables
// with a secret, a UDF, a project built from git) and the sample data and
// dimension table of its debug runs; and the wiring of `palink sim`, the
// same simulator served on the network with a config that points at it.
//
//	world.go   Start, Run and the World the CLI opens the UI on
//	warm.go    the hour: the fleet created and deployed, the plan of events
//	           played as the clock catches up, every job measured on the way
//	fleet.go   the fleet's SQL jobs, and the live events once it is open
//	assets.go  the catalog, variables, UDF and project; DebugAssets
//	data.go    sample input and the dimension table of debug runs; Debug
//	sim.go     the simulator's options, its palink config, Serve
//
// The CLI parses the flags and opens the TUI; demo never imports cli or
// tui. It drives palink through core's facade (core.Local, with its options
// built by core/options) and the simulator through yarn/sim, and imports
// nothing else of palink's but config, core/api and model.
package demo
