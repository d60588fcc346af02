//go:build !race

package core

// metricsRace shrinks the metrics scale tests under the race detector.
const metricsRace = false
