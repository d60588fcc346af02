//go:build race

package sim

// raceEnabled: the race detector slows the simulator several times over.
const raceEnabled = true
