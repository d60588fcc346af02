package tuitest

import "github.com/palink/palink/core/api"

// The fixture's logs (WithLogs): orders-enrich (j001) has a JobManager log
// of JMLines lines (≈ 2.4 MB, ten chunks) with ERROR lines at 150, 9000 and
// 19990, a short stdout, a TaskManager log, a YARN container link, and
// its two YARN containers (the JobManager's, AMID, and TMID) with their
// files on their NodeManagers.
const (
	TMID    = "container_e01_1732000000000_0042_01_000002"
	AMID    = "container_e01_1732000000000_0042_01_000001"
	AMLink  = "http://node3.prod:8042/node/containerlogs/container_e01_1732000000000_0042_01_000001/flink"
	JMLines = 20000
)

// JMLog is orders-enrich's JobManager log.
var JMLog = LogLines(JMLines, 150, 9000, 19990)

// WithLogs gives orders-enrich its logs.
func WithLogs(f *Fake) *Fake {
	f.SetLog("j001", api.LogJobManager, api.LogRef{}, "JobManager log", JMLog)
	f.SetLog("j001", api.LogJobManager, api.LogRef{Stdout: true}, "JobManager stdout", []byte("2026-03-14 09:00:00 stdout: started\n"))
	f.SetLog("j001", api.LogJobManager, api.LogRef{Name: "jobmanager.err"}, "JobManager jobmanager.err", nil)
	f.SetLog("j001", api.LogTaskManager, api.LogRef{TaskManager: TMID}, "TaskManager "+TMID+" log", LogLines(40, 12))
	f.SetLog("j001", api.LogTaskManager, api.LogRef{TaskManager: TMID, Stdout: true}, "TaskManager "+TMID+" stdout", nil)
	f.SetLink("j001", "AM container (JobManager), current attempt", AMLink)

	files := func(role, id, node string, names []string, data ...[]byte) api.ContainerLog {
		c := api.ContainerLog{ID: id, Role: role, Attempt: 1, Node: node}
		for i, n := range names {
			ref := api.LogRef{Container: id, Name: n}
			f.setLogFile("j001", ref, data[i])
			c.Files = append(c.Files, api.LogSource{Kind: api.LogContainer, Ref: ref, Title: role + " " + id + " " + n, Size: int64(len(data[i])), MTime: Now})
		}
		return c
	}
	f.SetContainerLogs("j001", api.ContainerLogList{JobID: "j001", JobName: "orders-enrich", AppID: "application_1732000000000_0042", FetchedAt: Now,
		Containers: []api.ContainerLog{
			files("JobManager", AMID, "node3.prod:45454", []string{"jobmanager.log", "jobmanager.out", "jobmanager.err"}, JMLog, []byte("2026-03-14 09:00:00 stdout: started\n"), nil),
			files("TaskManager", TMID, "node7.prod:45454", []string{"taskmanager.log", "taskmanager.out"}, LogLines(40, 12), nil),
		}})
	return f
}
