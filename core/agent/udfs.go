package agent

import (
	"context"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// udfCalls are the api.UDFService calls of a Client.
type udfCalls struct{ w *wire }

// UDFs implements api.UDFService.
func (c udfCalls) UDFs(ctx context.Context) ([]api.UDFView, error) {
	return do[none, []api.UDFView](ctx, c.w, "UDFs", none{})
}

// AddUDF implements api.UDFService.
func (c udfCalls) AddUDF(ctx context.Context, r api.AddUDFRequest) (model.UDF, error) {
	return do[api.AddUDFRequest, model.UDF](ctx, c.w, "AddUDF", r)
}

// RemoveUDF implements api.UDFService.
func (c udfCalls) RemoveUDF(ctx context.Context, r api.RemoveUDFRequest) (api.UDFRemoval, error) {
	return do[api.RemoveUDFRequest, api.UDFRemoval](ctx, c.w, "RemoveUDF", r)
}
