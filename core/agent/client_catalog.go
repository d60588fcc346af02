package agent

import (
	"context"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// catalogCalls are the agent client's api.CatalogService.
type catalogCalls struct{ w *wire }

// Tables implements api.CatalogService.
func (c catalogCalls) Tables(ctx context.Context, cluster string) ([]model.CatalogTable, error) {
	return do[string, []model.CatalogTable](ctx, c.w, "Tables", cluster)
}

// Table implements api.CatalogService.
func (c catalogCalls) Table(ctx context.Context, r api.TableRef) (api.TableDetail, error) {
	return do[api.TableRef, api.TableDetail](ctx, c.w, "Table", r)
}

// PutTable implements api.CatalogService.
func (c catalogCalls) PutTable(ctx context.Context, r api.PutTableRequest) (api.TableChange, error) {
	return do[api.PutTableRequest, api.TableChange](ctx, c.w, "PutTable", r)
}

// RemoveTable implements api.CatalogService.
func (c catalogCalls) RemoveTable(ctx context.Context, r api.TableRef) (api.TableChange, error) {
	return do[api.TableRef, api.TableChange](ctx, c.w, "RemoveTable", r)
}

// Vars implements api.CatalogService.
func (c catalogCalls) Vars(ctx context.Context, cluster string) ([]model.Variable, error) {
	return do[string, []model.Variable](ctx, c.w, "Vars", cluster)
}

// SetVar implements api.CatalogService.
func (c catalogCalls) SetVar(ctx context.Context, v model.Variable) (model.Variable, error) {
	return do[model.Variable, model.Variable](ctx, c.w, "SetVar", v)
}

// RemoveVar implements api.CatalogService.
func (c catalogCalls) RemoveVar(ctx context.Context, r api.VarRef) error {
	_, err := do[api.VarRef, none](ctx, c.w, "RemoveVar", r)
	return err
}
