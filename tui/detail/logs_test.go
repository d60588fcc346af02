package detail_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/detail"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/logview"
)

func logHarness(t *testing.T, w, ht int) *tuitest.Harness {
	return apptest.New(t, tuitest.WithLogs(tuitest.NewFixture()), w, ht, tui.Options{Context: "test"})
}

func goldenFrame(t *testing.T, name string, setup func(h *tuitest.Harness)) {
	t.Helper()
	apptest.GoldenFrame(t, name, nil, tui.Options{}, setup)
}

// A finished application's logs are its YARN containers', from the log
// server: the Logs tab lists every container (the JobManager's first) and
// its files, and enter reads the chosen one in the log viewer, as
// `palink logs JOB yarn:CONTAINER:FILE` does.
func TestLogsTabReadsAnEndedJobsJobManagerContainerLog(t *testing.T) {
	h := logHarness(t, 120, 40)
	h.SelectJob("fraud-scoring")
	h.Press("l")
	h.MustShow("is FAILED: its JobManager and TaskManagers are gone",
		"YARN containers · from the log server (the application ended)",
		"JobManager "+tuitest.FraudAM, "jobmanager.log", "jobmanager.out",
		"TaskManager "+tuitest.FraudTM, "taskmanager.log", "taskmanager.out")
	if !h.F.Called("ContainerLogs j") {
		t.Fatal("the Logs tab did not list the containers' logs")
	}
	h.Press("enter") // the cursor rests on the first file: the JobManager's log
	if _, ok := h.Top().(*logview.Viewer); !ok {
		t.Fatalf("enter on jobmanager.log opened %T (flash %q)", h.Top(), h.Flash())
	}
	h.MustShow("fraud-scoring · JobManager "+tuitest.FraudAM+" jobmanager.log", "switched from state RUNNING to FAILED")
	if !h.F.Called("ReadLog j005 {TaskManager: Name:jobmanager.log Stdout:false Container:" + tuitest.FraudAM) {
		t.Errorf("the viewer did not read the container's file: calls %v", h.F.Calls())
	}

	// Back, down to the TaskManager's log: a container's main log leads
	// its files.
	h.Press("esc")
	h.Press("j", "j", "enter")
	h.MustShow("fraud-scoring · TaskManager "+tuitest.FraudTM+" taskmanager.log", "java.lang.OutOfMemoryError: Java heap space")
}

// A running application's containers are listed from their NodeManagers,
// under Flink's own logs; their files open in the viewer too.
func TestLogsTabListsARunningJobsContainers(t *testing.T) {
	h := logHarness(t, 120, 40)
	h.SelectJob("orders-enrich")
	h.Press("l")
	h.MustShow("YARN containers · from their NodeManagers", "JobManager "+tuitest.AMID, "jobmanager.err", "TaskManager "+tuitest.TMID, "taskmanager.out")
	h.MustNotShow("enter copies the link")
	// The Flink list has 5 sources; the containers' files follow.
	for range 5 {
		h.Press("j")
	}
	h.Press("enter")
	h.MustShow("orders-enrich · JobManager " + tuitest.AMID + " jobmanager.log")
	if !h.F.Called("ReadLog j001 {TaskManager: Name:jobmanager.log Stdout:false Container:" + tuitest.AMID) {
		t.Errorf("the viewer did not read the container's file: calls %v", h.F.Calls())
	}
}

// When the containers cannot be listed, the tab says why and still offers
// the NodeManager's page of the application master, whose link enter
// copies.
func TestLogsTabFallsBackToContainerLinks(t *testing.T) {
	h := logHarness(t, 120, 40)
	h.F.ForgetContainerLogs("j001")
	h.SelectJob("orders-enrich")
	h.Press("l")
	h.MustShow("✖ list the YARN containers' logs: container logs of job j001: not found", "enter copies the link")
	for range 5 {
		h.Press("j")
	}
	h.Press("enter")
	if !strings.Contains(h.Flash(), "copied to the clipboard: "+tuitest.AMLink) {
		t.Fatalf("flash %q", h.Flash())
	}
	if _, ok := h.Top().(*detail.Screen); !ok {
		t.Fatalf("enter on a link opened %T", h.Top())
	}

	// A job without Flink logs: the list says why.
	h.Press("esc")
	h.SelectJob("fraud-scoring")
	h.Press("l")
	h.MustShow("is FAILED: its JobManager and TaskManagers are gone")
	if n := len(h.F.Calls()); !h.F.Called("Logs j") || n == 0 {
		t.Fatal("the Logs tab did not list the logs")
	}
}

func TestLogsAreListedOnlyWhenTheTabIsShown(t *testing.T) {
	h := logHarness(t, 120, 40)
	h.OpenDetail("orders-enrich")
	if h.F.Called("Logs") {
		t.Fatal("opening the detail listed the logs")
	}
	h.Press("l")
	if !h.F.Called("Logs j001") {
		t.Fatal("showing the Logs tab did not list the logs")
	}
}

func TestExceptionsTabFoldsStackTraces(t *testing.T) {
	h := logHarness(t, 120, 40)
	h.OpenDetail("orders-enrich")
	for range 3 {
		h.Press("tab")
	}
	h.MustShow("Root cause", "java.net.SocketTimeoutException: Read timed out", "▸ cause chain of 1, stack trace of 3 lines", "History · 1 earlier failure", "org.apache.kafka.common.errors.TimeoutException")
	h.MustNotShow("JdbcLookupFunction.eval")
	h.Press("enter")
	h.MustShow("▾ cause chain", "▾ stack trace", "at org.apache.flink.connector.jdbc.JdbcLookupFunction.eval(JdbcLookupFunction.java:88)")
	h.Press("enter")
	h.MustNotShow("JdbcLookupFunction.eval")
}

func TestGoldenLogsTab(t *testing.T) {
	goldenFrame(t, "logs_tab", func(h *tuitest.Harness) {
		tuitest.WithLogs(h.F)
		h.SelectJob("orders-enrich")
		h.Press("l", "j")
	})
}

// An ended job's Logs tab: Flink's logs are gone, its containers' remain.
func TestGoldenLogsTabEnded(t *testing.T) {
	goldenFrame(t, "logs_tab_ended", func(h *tuitest.Harness) {
		tuitest.WithLogs(h.F)
		h.SelectJob("fraud-scoring")
		h.Press("l")
	})
}

func TestGoldenExceptionsExpanded(t *testing.T) {
	goldenFrame(t, "detail_exceptions_expanded", func(h *tuitest.Harness) {
		h.OpenDetail("orders-enrich")
		h.Press("tab", "tab", "tab", "enter")
	})
}

// When neither the JobManager nor palink has the failure (an application
// that died before a sync kept its exceptions), YARN's diagnostics are
// what is left.
func TestExceptionsTabShowsYARNDiagnosticsWhenFlinkIsGone(t *testing.T) {
	h := logHarness(t, 80, 24)
	h.F.ForgetExceptions("j005")
	h.F.Jobs[slices.IndexFunc(h.F.Jobs, func(j api.JobView) bool { return j.Name == "fraud-scoring" })].Diagnostics =
		"org.apache.flink.runtime.JobException: Recovery is suppressed by FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=3, backoffTimeMS=10000)\n" +
			"\tat org.apache.flink.runtime.executiongraph.failover.ExecutionFailureHandler.handleFailure(ExecutionFailureHandler.java:180)\n" +
			"Caused by: java.lang.OutOfMemoryError: Java heap space"
	h.OpenDetail("fraud-scoring")
	h.Press("tab", "tab", "tab")
	h.MustShow("Root cause", "YARN's diagnostics", "backoffTimeMS", "Caused by: java.lang.OutOfMemoryError: Java heap space")
}
