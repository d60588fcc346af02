package agent

import (
	"context"
	"net/rpc"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// udfCalls are the api.UDFService calls of a Client.
type udfCalls struct {
	c        *rpc.Client
	readOnly *bool // the Client's
}

// UDFs implements api.UDFService.
func (c udfCalls) UDFs(ctx context.Context) ([]api.UDFView, error) {
	return do[none, []api.UDFView](ctx, c.c, "UDFs", none{})
}

// AddUDF implements api.UDFService.
func (c udfCalls) AddUDF(ctx context.Context, r api.AddUDFRequest) (model.UDF, error) {
	if *c.readOnly {
		return model.UDF{}, api.ReadOnly("add function " + r.UDF.Name)
	}
	return do[api.AddUDFRequest, model.UDF](ctx, c.c, "AddUDF", r)
}

// RemoveUDF implements api.UDFService.
func (c udfCalls) RemoveUDF(ctx context.Context, r api.RemoveUDFRequest) (api.UDFRemoval, error) {
	if *c.readOnly {
		return api.UDFRemoval{}, api.ReadOnly("remove function " + r.Name)
	}
	return do[api.RemoveUDFRequest, api.UDFRemoval](ctx, c.c, "RemoveUDF", r)
}
