package sim

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Ids are drawn from the simulation's generator (guarded by the cluster
// lock), so a seed reproduces them.

// containerID is the id of container n of an app's attempt.
func containerID(a *app, attempt, n int) string {
	ts := strings.TrimPrefix(a.id, "application_")
	parts := strings.SplitN(ts, "_", 2)
	return fmt.Sprintf("container_e%02d_%s_%s_%02d_%06d", 1, parts[0], parts[1], attempt, n)
}

// attemptID is the id of an app's attempt n.
func attemptID(a *app, n int) string {
	return fmt.Sprintf("appattempt_%s_%06d", strings.TrimPrefix(a.id, "application_"), n)
}

// hex32 returns a new 32-hex-digit id (Flink's JobID, TriggerId, JobVertexID).
func hex32(rng *rand.Rand) string {
	return fmt.Sprintf("%016x%016x", rng.Uint64(), rng.Uint64())
}
