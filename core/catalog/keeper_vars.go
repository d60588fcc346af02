package catalog

import (
	"context"
	"fmt"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// Vars implements api.CatalogService.
func (l *Keeper) Vars(ctx context.Context, cluster string) ([]model.Variable, error) {
	var out []model.Variable
	err := l.st.View(ctx, func(tx store.ReadTx) (err error) {
		out, err = tx.Vars()
		return err
	})
	if err != nil {
		return nil, err
	}
	if cluster != "" {
		out = Effective(out, cluster)
	}
	return out, nil
}

// SetVar implements api.CatalogService.
func (l *Keeper) SetVar(ctx context.Context, v model.Variable) (model.Variable, error) {
	op := "set variable " + v.Name
	if l.readOnly {
		return model.Variable{}, api.ReadOnly(op)
	}
	if v.Cluster != "" {
		if err := l.knownCluster(op, v.Cluster); err != nil {
			return model.Variable{}, err
		}
	}
	if !model.ValidCatalogName(v.Name) {
		return model.Variable{}, fmt.Errorf("%s: %q is not a variable name (letters, digits and _, not starting with a digit)", op, v.Name)
	}
	if v.Secret() {
		v.Value = "" // never kept
	}
	if v.Author == "" {
		v.Author = l.user
	}
	v.UpdatedAt = l.now()
	err := l.st.Update(ctx, func(tx store.Tx) error {
		if err := tx.PutVar(v); err != nil {
			return err
		}
		scope := "every cluster"
		if v.Cluster != "" {
			scope = "cluster " + v.Cluster
		}
		_, err := tx.AppendAudit(model.AuditEntry{Time: v.UpdatedAt, User: v.Author, Action: "var set", Outcome: fmt.Sprintf("%s of %s = %s", v.Name, scope, v.Shown())})
		return err
	})
	if err != nil {
		return model.Variable{}, err
	}
	return v, nil
}

// RemoveVar implements api.CatalogService.
func (l *Keeper) RemoveVar(ctx context.Context, r api.VarRef) error {
	if l.readOnly {
		return api.ReadOnly("remove variable " + r.Name)
	}
	if r.Issuer == "" {
		r.Issuer = l.user
	}
	return l.st.Update(ctx, func(tx store.Tx) error {
		if err := tx.DeleteVar(r.Cluster, r.Name); err != nil {
			return err
		}
		_, err := tx.AppendAudit(model.AuditEntry{Time: l.now(), User: r.Issuer, Action: "var rm", Outcome: r.Name})
		return err
	})
}
