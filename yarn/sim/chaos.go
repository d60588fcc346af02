package sim

import (
	"math/rand/v2"
	"time"
)

// chaos fires the periodic faults of Faults: RM failovers, JobManager
// failovers and job failures, each at its simulated interval, on a random
// victim. The scheduler calls it on every tick, under the cluster lock.
type chaos struct {
	faults *injector
	last   map[string]time.Time // when each periodic fault last fired
	rng    *rand.Rand           // victims and fatality (the simulation's generator)
	logf   func(format string, args ...any)
	ha     *rmHA
	yarn   *yarnApps
	flink  *flinkJobs
}

// fire fires the periodic faults that are due at now.
func (ch *chaos) fire(now time.Time) {
	f := ch.faults.get()
	due := func(name string, every time.Duration) bool {
		if every <= 0 {
			delete(ch.last, name)
			return false
		}
		last, ok := ch.last[name]
		if !ok {
			ch.last[name] = now
			return false
		}
		if now.Sub(last) < every {
			return false
		}
		ch.last[name] = now
		return true
	}
	if due("rm", f.RMFailoverEvery) && len(ch.ha.rms) > 1 {
		ch.logf("sim: fault: RM failover, rm%d is active", ch.ha.failover()+1)
	}
	if due("jm", f.JMFailoverEvery) {
		if a := ch.yarn.pick(now, func(a *app) bool { return a.state == yarnRunning && a.appType == "Apache Flink" }); a != nil {
			for _, j := range a.jobs {
				ch.flink.syncCheckpoints(j, now)
			}
			_ = ch.yarn.failoverJM(a, now)
			ch.logf("sim: fault: JobManager failover of %s", a.id)
		}
	}
	if due("job", f.JobFailEvery) {
		if a := ch.yarn.pick(now, func(a *app) bool {
			for _, j := range a.jobs {
				if j.state == jobRunning {
					return true
				}
			}
			return false
		}); a != nil {
			for _, j := range a.jobs {
				if j.state == jobRunning {
					ch.flink.syncCheckpoints(j, now)
					ch.flink.failJob(j, now, ch.rng.Float64() < f.FatalShare, "")
					ch.logf("sim: fault: job %s of %s failed", j.id, a.id)
					break
				}
			}
		}
	}
}
