//go:build !unix

package scheduler

// processExists cannot tell on this platform: every owner counts as alive.
func processExists(int) bool { return true }
