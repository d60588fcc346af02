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
)

func logHarness(t *testing.T, w, ht int) *tuitest.Harness {
	return apptest.New(t, tuitest.WithLogs(tuitest.NewFixture()), w, ht, tui.Options{Context: "test"})
}

func goldenFrame(t *testing.T, name string, setup func(h *tuitest.Harness)) {
	t.Helper()
	apptest.GoldenFrame(t, name, nil, tui.Options{}, setup)
}

func TestLogsTabCopiesContainerLinksAndShowsWhyFlinkLogsAreMissing(t *testing.T) {
	h := logHarness(t, 120, 40)
	h.SelectJob("orders-enrich")
	h.Press("l")
	for range 6 {
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
