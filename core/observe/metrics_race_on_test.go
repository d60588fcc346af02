//go:build race

package observe

// metricsRace shrinks the metrics scale tests under the race detector.
const metricsRace = true
