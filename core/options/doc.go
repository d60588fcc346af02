// Package options turns palink's config file into core's options: core
// knows clusters, policies and rules, not the YAML they were written in.
// It is the one bridge from the config to core, for the CLI and the demo,
// and does no I/O: it imports config, core's facade and the types of the
// parts that own each setting (clusters, decide, observe, localrun's
// Debugger), never cli, tui, store or yarn.
package options
