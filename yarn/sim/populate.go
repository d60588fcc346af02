package sim

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"time"
)

// fleet builds the applications a cluster has before the simulation
// starts (Options.Apps), deterministically from the seed.
type fleet struct {
	seed   int64
	rng    *rand.Rand
	events *eventQueue
	yarn   *yarnApps
	flink  *flinkJobs
	// allRunning: every Flink application is RUNNING (Options.AppsRunning).
	allRunning bool
}

// populate creates n pre-existing Flink applications in mixed states, plus
// a few non-Flink ones (a real cluster has them, and filters must skip
// them), with ids issued by rm. They are built directly in their state,
// not replayed, so ten thousand cost a few milliseconds; their JobManagers
// open lazily.
func (fl *fleet) populate(now time.Time, n int, rm *rmServer) {
	if n <= 0 {
		return
	}
	const maxAge = 72 * time.Hour
	total := n + max(1, n/10)
	type plan struct {
		at    time.Time
		flink bool
		seed  uint64
	}
	plans := make([]plan, total)
	for i := range plans {
		age := time.Duration(noise(uint64(fl.seed), uint64(i)) * float64(maxAge))
		p := plan{at: now.Add(-age - 10*time.Second), flink: i < n, seed: fl.rng.Uint64()}
		if p.flink && noise(p.seed, 6) >= 0.93 && !fl.allRunning {
			// Just submitted: it walks the normal lifecycle from NEW_SAVING.
			p.at = now.Add(-time.Duration(noise(p.seed, 8)*float64(dAccepted)) - 100*time.Millisecond)
		}
		plans[i] = p
	}
	// Submission order is time order, so ids grow with startedTime.
	sort.Slice(plans, func(i, k int) bool { return plans[i].at.Before(plans[k].at) })
	for _, p := range plans {
		rm.appSeq++
		if p.flink {
			fl.flinkApp(now, p.at, rm, p.seed)
		} else {
			fl.otherApp(now, p.at, rm, p.seed)
		}
	}
}

var (
	fleetNames = []string{"orders-enrich", "fraud-scoring", "clickstream-sessionize", "payments-dedup", "inventory-sync",
		"ad-impressions-agg", "iot-telemetry", "user-profile-upsert", "search-index-feed", "shipment-tracking",
		"cdc-mysql-orders", "recommendation-features", "price-alerts", "logistics-eta", "risk-signals"}
	fleetUsers  = []string{"flink", "flink", "etl", "analytics", "alice", "bob"}
	fleetQueues = []string{"prod", "prod", "prod", "dev", "default", "adhoc"}
	fleetTags   = [][]string{{"team:payments", "env:prod"}, {"team:growth"}, {"owner:alice", "env:dev"},
		{"cost-center-42"}, {}, {"env:prod", "tier:gold"}, {"team:logistics"}}
)

// pick picks an element of list by the noise of (seed, k).
func pick(list []string, k uint64, seed uint64) string {
	return list[int(noise(seed, k)*float64(len(list)))%len(list)]
}

// flinkApp adds one Flink application submitted at `at`.
func (fl *fleet) flinkApp(now, at time.Time, rm *rmServer, seed uint64) {
	a := &app{
		seq: rm.appSeq, id: fmt.Sprintf("application_%d_%04d", rm.startMs, rm.appSeq),
		user: pick(fleetUsers, 1, seed), queue: pick(fleetQueues, 2, seed), appType: "Apache Flink",
		mode: ModePerJob, config: map[string]string{}, seed: seed, submitted: at, final: finalUndefined,
		maxAttempts: 10,
	}
	base := pick(fleetNames, 3, seed)
	a.name = fmt.Sprintf("%s-%d", base, 1+int(noise(seed, 4)*20))
	tags := fleetTags[int(noise(seed, 5)*float64(len(fleetTags)))%len(fleetTags)]
	a.tags = append(a.tags, tags...)
	roll := noise(seed, 6)
	if noise(seed, 7) < 0.1 {
		a.mode = ModeApplication
	}
	var kind string
	switch {
	case roll < 0.52:
		kind = "running"
	case roll < 0.60:
		kind = "session"
	case roll < 0.75:
		kind = "finished"
	case roll < 0.83:
		kind = "failed"
	case roll < 0.93:
		kind = "killed"
	default:
		kind = "accepted"
	}
	if fl.allRunning {
		kind = "running"
	}
	if kind == "accepted" {
		a.state = yarnNewSaving
		fl.yarn.add(a)
		fl.events.schedule(a, at.Add(dSubmitted), func(time.Time) { a.state = yarnSubmitted })
		fl.events.schedule(a, at.Add(dAccepted), func(t time.Time) { fl.yarn.startAttempt(a, t) })
		fl.flink.addJob(a, jobSpec{name: a.name, parallelism: 1 + int(noise(seed, 9)*4)}, at)
		return
	}
	attempts := 1
	if noise(seed, 10) < 0.15 {
		attempts = 2
	}
	for i := 1; i <= attempts; i++ {
		st := "FAILED"
		if i == attempts {
			st = "RUNNING"
		}
		a.attempts = append(a.attempts, &attempt{n: i, start: at.Add(dAccepted + time.Duration(i-1)*time.Hour/4), state: st,
			node: int(noise(seed, uint64(20+i))*float64(fl.yarn.nodes)) % fl.yarn.nodes, container: containerID(a, i, 1)})
	}
	fl.yarn.add(a)
	runningAt := at.Add(dAccepted + dAMRegistered)
	njobs := 1
	if kind == "session" {
		a.mode = ModeSession
		a.name = "Flink session cluster"
		if noise(seed, 11) < 0.5 {
			a.name = base + "-session"
		}
		njobs = int(noise(seed, 12) * 4)
	}
	for i := 0; i < njobs; i++ {
		name := a.name
		if a.mode == ModeSession {
			name = fmt.Sprintf("%s-%d", pick(fleetNames, uint64(30+i), seed), i+1)
		}
		j := fl.flink.addJob(a, jobSpec{name: name, parallelism: 1 + int(noise(seed, uint64(40+i))*6)}, runningAt)
		fl.backdate(j, runningAt.Add(time.Duration(i)*time.Minute), now)
	}
	a.state = yarnRunning
	a.jmPending = true
	if kind == "running" || kind == "session" {
		return
	}
	// An ended application: its job ended some time after it started.
	life := now.Sub(runningAt)
	end := runningAt.Add(time.Duration((0.2 + 0.7*noise(seed, 13)) * float64(life)))
	j := a.jobs[0]
	fl.flink.syncCheckpoints(j, end)
	j.gen++
	j.end = end
	switch kind {
	case "finished":
		j.ck.lastID++
		fl.flink.completeCheckpoint(j, j.ck.lastID, end.Add(-2*time.Second), 1500*time.Millisecond, "SYNC_SAVEPOINT",
			fmt.Sprintf("%s/savepoint-%s-%s", j.savepointDir, j.id[:6], hex32(fl.rng)[:12]))
		j.setState(jobFinished, end)
		fl.flink.cleanUp(j)
		fl.yarn.endApp(a, end.Add(dShutdown), yarnFinished, finalSucceeded, "")
	case "failed":
		j.record(end, failureMessages[int(noise(seed, 14)*float64(len(failureMessages)))], "", j.vertices[0].name+" (1/1)#3")
		j.restarts = 3
		j.setState(jobFailed, end)
		if noise(seed, 15) < 0.5 {
			// Flink failed the job and deregistered: its store cleaned up.
			fl.flink.cleanUp(j)
			fl.yarn.endApp(a, end.Add(dShutdown), yarnFinished, finalFailed, "Flink per-job cluster failed: job "+j.id+" reached state FAILED.\n"+j.rootCause())
		} else {
			fl.yarn.endApp(a, end, yarnFailed, finalFailed, fmt.Sprintf(
				"Application %s failed 2 times due to AM Container for %s exited with  exitCode: 239\nFailing this attempt. Failing the application.",
				a.id, attemptID(a, len(a.attempts))))
		}
	case "killed":
		fl.yarn.endApp(a, end, yarnKilled, finalKilled, "Application killed by user.")
	}
}

// backdate makes a fresh job look as if it had been running since start.
func (fl *fleet) backdate(j *job, start, now time.Time) {
	j.gen++
	j.pastUntil = now
	j.submitted, j.start = start, start
	j.timestamps = map[string]int64{jobInitializing: start.UnixMilli(), jobCreated: start.Add(dJobCreated).UnixMilli()}
	running := start.Add(dJobCreated + dJobRunning)
	j.setState(jobRunning, running)
	j.running = running
	j.ck = checkpoints{next: running.Add(j.interval), lastID: 0}
	if noise(j.seed, 50) < 0.3 {
		// Started from a savepoint of an earlier run of the same pipeline.
		id := int64(100 + noise(j.seed, 51)*5000)
		path := fmt.Sprintf("%s/savepoint-%s-%s", j.savepointDir, j.id[:6], hex32(fl.rng)[:12])
		cp := &checkpoint{id: id, jobID: hex32(fl.rng), savepoint: true, kind: "SAVEPOINT", status: "COMPLETED",
			trigger: start.Add(-time.Hour), ack: start.Add(-time.Hour + time.Second), size: ckptSize(j, id), path: path}
		fl.flink.points.add(cp)
		j.restorePath = path
		j.restoreFrom(cp, start.Add(dJobCreated))
	}
	if noise(j.seed, 52) < 0.2 {
		j.restarts = 1 + int(noise(j.seed, 53)*3)
		j.totalRestarts = j.restarts
		j.record(running.Add(-time.Second), failureMessages[int(noise(j.seed, 54)*float64(len(failureMessages)))], "",
			j.vertices[0].name+" (1/"+fmt.Sprint(j.vertices[0].parallelism)+")#0")
	}
}

// otherApp adds a Spark or MapReduce application.
func (fl *fleet) otherApp(now, at time.Time, rm *rmServer, seed uint64) {
	a := &app{seq: rm.appSeq, id: fmt.Sprintf("application_%d_%04d", rm.startMs, rm.appSeq),
		user: pick([]string{"hive", "spark", "etl"}, 1, seed), queue: pick([]string{"default", "adhoc"}, 2, seed),
		seed: seed, submitted: at, config: map[string]string{}, maxAttempts: 2}
	if noise(seed, 3) < 0.6 {
		a.appType, a.name = "SPARK", pick([]string{"daily-report", "feature-backfill", "sessions-compaction"}, 4, seed)
	} else {
		a.appType, a.name = "MAPREDUCE", "INSERT OVERWRITE TABLE dw."+pick([]string{"orders_daily", "users_dim"}, 5, seed)+"(Stage-1)"
	}
	a.attempts = []*attempt{{n: 1, start: at.Add(time.Second), state: "FINISHED", container: containerID(a, 1, 1)}}
	a.state, a.final = yarnFinished, finalSucceeded
	a.finished = at.Add(time.Duration(5+noise(seed, 6)*40) * time.Minute)
	if a.finished.After(now) {
		a.state, a.final, a.finished = yarnRunning, finalUndefined, time.Time{}
		a.attempts[0].state = "RUNNING"
	}
	a.tags = []string{strings.ToLower(a.appType) + "-nightly"}
	fl.yarn.add(a)
}
