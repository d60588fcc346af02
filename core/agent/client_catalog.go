package agent

import (
	"context"
	"net/rpc"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// catalogCalls are the agent client's api.CatalogService; readOnly is the
// client's own --read-only.
type catalogCalls struct {
	rc       *rpc.Client
	readOnly bool
}

// Tables implements api.CatalogService.
func (c catalogCalls) Tables(ctx context.Context, cluster string) ([]model.CatalogTable, error) {
	return do[string, []model.CatalogTable](ctx, c.rc, "Tables", cluster)
}

// Table implements api.CatalogService.
func (c catalogCalls) Table(ctx context.Context, r api.TableRef) (api.TableDetail, error) {
	return do[api.TableRef, api.TableDetail](ctx, c.rc, "Table", r)
}

// PutTable implements api.CatalogService.
func (c catalogCalls) PutTable(ctx context.Context, r api.PutTableRequest) (api.TableChange, error) {
	what := "edit table"
	if r.Create {
		what = "add table"
	}
	if c.readOnly {
		return api.TableChange{}, api.ReadOnly(what)
	}
	return do[api.PutTableRequest, api.TableChange](ctx, c.rc, "PutTable", r)
}

// RemoveTable implements api.CatalogService.
func (c catalogCalls) RemoveTable(ctx context.Context, r api.TableRef) (api.TableChange, error) {
	if c.readOnly {
		return api.TableChange{}, api.ReadOnly("remove table")
	}
	return do[api.TableRef, api.TableChange](ctx, c.rc, "RemoveTable", r)
}

// Vars implements api.CatalogService.
func (c catalogCalls) Vars(ctx context.Context, cluster string) ([]model.Variable, error) {
	return do[string, []model.Variable](ctx, c.rc, "Vars", cluster)
}

// SetVar implements api.CatalogService.
func (c catalogCalls) SetVar(ctx context.Context, v model.Variable) (model.Variable, error) {
	if c.readOnly {
		return model.Variable{}, api.ReadOnly("set variable")
	}
	return do[model.Variable, model.Variable](ctx, c.rc, "SetVar", v)
}

// RemoveVar implements api.CatalogService.
func (c catalogCalls) RemoveVar(ctx context.Context, r api.VarRef) error {
	if c.readOnly {
		return api.ReadOnly("remove variable")
	}
	_, err := do[api.VarRef, none](ctx, c.rc, "RemoveVar", r)
	return err
}
