package core

import (
	"context"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// The metrics and alerts part of the agent protocol. Interest is declared
// per connection's client id; the agent's collector measures the union of
// every client's, and an interest its client stops refreshing (the TUI
// quit) expires on its own.

// SetInterest is Service.SetInterest.
func (h *rpcHandler) SetInterest(r api.InterestRequest, _ *Empty) error {
	ctx, cancel := h.call(time.Minute)
	defer cancel()
	// Client ids are the clients' own; the user keeps two users' apart.
	r.Client = h.user + "/" + r.Client
	return h.svc.SetInterest(ctx, r)
}

// JobMetrics is Service.JobMetrics.
func (h *rpcHandler) JobMetrics(ref string, out *api.MetricsSeries) (err error) {
	ctx, cancel := h.call(time.Minute)
	defer cancel()
	*out, err = h.svc.JobMetrics(ctx, ref)
	return err
}

// Alerts is Service.Alerts.
func (h *rpcHandler) Alerts(f api.AlertFilter, out *[]model.Alert) (err error) {
	ctx, cancel := h.call(time.Minute)
	defer cancel()
	*out, err = h.svc.Alerts(ctx, f)
	return err
}

// SetInterest implements Service.
func (r *Remote) SetInterest(ctx context.Context, req api.InterestRequest) error {
	return r.call(ctx, "SetInterest", req, &Empty{})
}

// JobMetrics implements Service.
func (r *Remote) JobMetrics(ctx context.Context, ref string) (out api.MetricsSeries, err error) {
	return out, r.call(ctx, "JobMetrics", ref, &out)
}

// Alerts implements Service.
func (r *Remote) Alerts(ctx context.Context, f api.AlertFilter) (out []model.Alert, err error) {
	return out, r.call(ctx, "Alerts", f, &out)
}
