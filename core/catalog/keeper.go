package catalog

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// Keeper is core's api.CatalogService: it keeps the table catalog in the
// store, validates each definition and says which jobs a change touches.
type Keeper struct {
	st       store.Store
	clusters []string
	now      func() time.Time
	user     string
	readOnly bool
}

var _ api.CatalogService = (*Keeper)(nil)

// NewKeeper keeps the catalog of the named clusters in st; user is the
// author of changes that name none.
func NewKeeper(st store.Store, clusters []string, now func() time.Time, user string, readOnly bool) *Keeper {
	return &Keeper{st: st, clusters: clusters, now: now, user: user, readOnly: readOnly}
}

// knownCluster fails unless cluster is configured.
func (l *Keeper) knownCluster(op, cluster string) error {
	if cluster == "" {
		return fmt.Errorf("%s: no cluster given: %w", op, model.ErrNotFound)
	}
	if slices.Contains(l.clusters, cluster) {
		return nil
	}
	return fmt.Errorf("%s: cluster %q is not configured: %w", op, cluster, model.ErrNotFound)
}

// Tables implements api.CatalogService.
func (l *Keeper) Tables(ctx context.Context, cluster string) ([]model.CatalogTable, error) {
	var out []model.CatalogTable
	err := l.st.View(ctx, func(tx store.ReadTx) (err error) {
		out, err = tx.CatalogTables(cluster)
		return err
	})
	return out, err
}

// Table implements api.CatalogService.
func (l *Keeper) Table(ctx context.Context, r api.TableRef) (api.TableDetail, error) {
	var d api.TableDetail
	err := l.st.View(ctx, func(tx store.ReadTx) (err error) {
		if d.Versions, err = tx.CatalogVersions(r.Cluster, r.Name); err != nil {
			return err
		}
		d.Table = d.Versions[len(d.Versions)-1]
		d.Jobs, err = tableUses(tx, d.Table)
		return err
	})
	if err != nil {
		return api.TableDetail{}, fmt.Errorf("table %s of cluster %s: %w", r.Name, r.Cluster, err)
	}
	if _, err := flinksql.ParseCatalogTable(d.Table.Name, d.Table.SQL, flinksql.Options{}); err != nil {
		d.Error = err.Error()
	}
	return d, nil
}

// tableUses lists the jobs that use t, and whether their next deploy
// would change.
func tableUses(tx jobsAndCatalog, t model.CatalogTable) ([]api.TableUse, error) {
	uses, err := Users(tx, t.Cluster, t.Name)
	if err != nil {
		return nil, err
	}
	out := []api.TableUse{}
	for _, u := range uses {
		out = append(out, api.TableUse{JobID: u.Job.ID, JobName: u.Job.Name, State: u.Job.State, Deployed: u.Deployed, Own: u.Own,
			Changes: !u.Own && u.Job.State != model.StateNone && u.Deployed != t.Version})
	}
	return out, nil
}

// PutTable implements api.CatalogService.
func (l *Keeper) PutTable(ctx context.Context, r api.PutTableRequest) (api.TableChange, error) {
	op := "edit table " + r.Name
	if r.Create {
		op = "add table " + r.Name
	}
	if l.readOnly {
		return api.TableChange{}, api.ReadOnly(op)
	}
	if err := l.knownCluster(op, r.Cluster); err != nil {
		return api.TableChange{}, err
	}
	if !model.ValidCatalogName(r.Name) {
		return api.TableChange{}, fmt.Errorf("%s: %q is not a table name (letters, digits and _, not starting with a digit)", op, r.Name)
	}
	if _, err := flinksql.ParseCatalogTable(r.Name, r.SQL, flinksql.Options{File: r.Name}); err != nil {
		return api.TableChange{}, fmt.Errorf("%s: %w", op, err)
	}
	if r.Author == "" {
		r.Author = l.user
	}
	var ch api.TableChange
	err := l.st.Update(ctx, func(tx store.Tx) error {
		_, err := tx.CatalogTable(r.Cluster, r.Name, 0)
		switch {
		case err == nil && r.Create:
			return fmt.Errorf("%s: cluster %s has it already (palink table edit changes it): %w", op, r.Cluster, model.ErrExists)
		case errors.Is(err, store.ErrNotFound) && !r.Create:
			return fmt.Errorf("%s: cluster %s has no such table (palink table add adds it): %w", op, r.Cluster, model.ErrNotFound)
		case err != nil && !errors.Is(err, store.ErrNotFound):
			return err
		}
		t, err := tx.PutCatalogTable(model.CatalogTable{Cluster: r.Cluster, Name: r.Name, SQL: r.SQL, Note: r.Note, Author: r.Author, CreatedAt: l.now()})
		if err != nil {
			return err
		}
		ch.Table = t
		if ch.Affected, err = tableUses(tx, t); err != nil {
			return err
		}
		_, err = tx.AppendAudit(model.AuditEntry{Time: l.now(), User: r.Author, Action: "table " + map[bool]string{true: "add", false: "edit"}[r.Create],
			Outcome: fmt.Sprintf("%s of cluster %s", t.Ref(), t.Cluster)})
		return err
	})
	return ch, err
}

// RemoveTable implements api.CatalogService.
func (l *Keeper) RemoveTable(ctx context.Context, r api.TableRef) (api.TableChange, error) {
	op := "remove table " + r.Name
	if l.readOnly {
		return api.TableChange{}, api.ReadOnly(op)
	}
	if r.Issuer == "" {
		r.Issuer = l.user
	}
	var ch api.TableChange
	err := l.st.Update(ctx, func(tx store.Tx) error {
		t, err := tx.CatalogTable(r.Cluster, r.Name, 0)
		if err != nil {
			return fmt.Errorf("%s of cluster %s: %w", op, r.Cluster, err)
		}
		ch.Table, ch.Removed = t, true
		if ch.Affected, err = tableUses(tx, t); err != nil {
			return err
		}
		for i := range ch.Affected {
			ch.Affected[i].Changes = !ch.Affected[i].Own
		}
		if err := tx.DeleteCatalogTable(r.Cluster, r.Name); err != nil {
			return err
		}
		_, err = tx.AppendAudit(model.AuditEntry{Time: l.now(), User: r.Issuer, Action: "table rm", Outcome: fmt.Sprintf("%s of cluster %s", t.Ref(), t.Cluster)})
		return err
	})
	return ch, err
}
