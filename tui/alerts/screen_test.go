package alerts_test

import (
	"testing"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/alerts"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/tuitest"
)

func TestAlertsViewListsAndOpensTheJob(t *testing.T) {
	f := tuitest.NewFixture()
	f.SetAlerts(tuitest.FixtureAlerts())
	h := apptest.New(t, f, 120, 40, tui.Options{})
	h.Press(":")
	h.Type("alerts")
	h.Press("enter")
	if _, ok := h.Top().(*alerts.Screen); !ok {
		t.Fatalf(":alerts opened %T", h.Top())
	}
	h.MustShow("Alerts", "2 firing · 1 resolved", "job-failed", "fraud-scoring", "backpressure 87% at Sink: hudi[5]", "RESOLVED", "30m")
	// A new alert fires while the view is open: it reloads.
	more := append(tuitest.FixtureAlerts(), model.Alert{Rule: "lag", JobID: "j001", JobName: "orders-enrich", Cluster: "prod", State: model.AlertFiring,
		Since: tuitest.Now, Severity: "warning", Value: "consumer lag 1.2M records (limit 100.0k)"})
	f.SetAlerts(more)
	h.Change(api.Change{Kind: api.AlertsChanged})
	h.MustShow("3 firing · 1 resolved", "consumer lag 1.2M records")
	h.Press("j")
	h.Press("enter")
	if h.Top().Title() != "clicks-to-hudi" {
		t.Fatalf("enter on the second alert opened %T", h.Top())
	}
}

func TestGoldenAlerts(t *testing.T) {
	for _, sz := range tuitest.Sizes {
		f := tuitest.NewFixture()
		f.SetAlerts(tuitest.FixtureAlerts())
		h := apptest.New(t, f, sz.W, sz.H, tui.Options{Context: "test"})
		h.Press(":")
		h.Type("alerts")
		h.Press("enter")
		tuitest.Golden(t, "alerts_"+tuitest.SizeName(sz.W, sz.H), tuitest.Pinned(h.Render()))
	}
}
