package tuitest

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// catalogPart is the fake's table catalog: tables by cluster, newest
// version of each, in the order added.
type catalogPart struct {
	f       *Fake
	Catalog map[string][]model.CatalogTable
	// Variables are every cluster's variables (Cluster "": of all).
	Variables []model.Variable
}

// Tables lists a cluster's catalog tables.
func (p *catalogPart) Tables(ctx context.Context, cluster string) ([]model.CatalogTable, error) {
	p.f.record("Tables %s", cluster)
	if err := p.f.wait(ctx); err != nil {
		return nil, err
	}
	p.f.Mu.Lock()
	defer p.f.Mu.Unlock()
	return append([]model.CatalogTable{}, p.Catalog[cluster]...), nil
}

// Table returns one catalog table.
func (p *catalogPart) Table(ctx context.Context, r api.TableRef) (api.TableDetail, error) {
	p.f.record("Table %s %s", r.Cluster, r.Name)
	p.f.Mu.Lock()
	defer p.f.Mu.Unlock()
	for _, t := range p.Catalog[r.Cluster] {
		if t.Name == r.Name {
			return api.TableDetail{Table: t, Versions: []model.CatalogTable{t}}, nil
		}
	}
	return api.TableDetail{}, fmt.Errorf("table %s: %w", r.Name, model.ErrNotFound)
}

// PutTable stores a new version.
func (p *catalogPart) PutTable(ctx context.Context, r api.PutTableRequest) (api.TableChange, error) {
	p.f.record("PutTable %s %s", r.Cluster, r.Name)
	if err := p.f.wait(ctx); err != nil {
		return api.TableChange{}, err
	}
	p.f.Mu.Lock()
	defer p.f.Mu.Unlock()
	if p.Catalog == nil {
		p.Catalog = map[string][]model.CatalogTable{}
	}
	ts := p.Catalog[r.Cluster]
	for i, t := range ts {
		if t.Name == r.Name {
			t.SQL, t.Version = r.SQL, t.Version+1
			ts[i] = t
			return api.TableChange{Table: t}, nil
		}
	}
	t := model.CatalogTable{Cluster: r.Cluster, Name: r.Name, Version: 1, SQL: r.SQL, Author: r.Author, CreatedAt: p.f.now}
	p.Catalog[r.Cluster] = append(ts, t)
	return api.TableChange{Table: t}, nil
}

// RemoveTable drops a table.
func (p *catalogPart) RemoveTable(ctx context.Context, r api.TableRef) (api.TableChange, error) {
	p.f.record("RemoveTable %s %s", r.Cluster, r.Name)
	p.f.Mu.Lock()
	defer p.f.Mu.Unlock()
	ts := p.Catalog[r.Cluster]
	for i, t := range ts {
		if t.Name == r.Name {
			p.Catalog[r.Cluster] = append(ts[:i:i], ts[i+1:]...)
			return api.TableChange{Table: t, Removed: true}, nil
		}
	}
	return api.TableChange{}, fmt.Errorf("table %s: %w", r.Name, model.ErrNotFound)
}

// Vars lists the variables a cluster's jobs see (all with cluster "");
// one of the cluster overrides the one of every cluster.
func (p *catalogPart) Vars(ctx context.Context, cluster string) ([]model.Variable, error) {
	p.f.record("Vars %s", cluster)
	p.f.Mu.Lock()
	defer p.f.Mu.Unlock()
	out := []model.Variable{}
	for _, v := range p.Variables {
		if cluster != "" && v.Cluster != "" && v.Cluster != cluster {
			continue
		}
		if cluster != "" && v.Cluster == "" && slices.ContainsFunc(p.Variables, func(o model.Variable) bool { return o.Cluster == cluster && o.Name == v.Name }) {
			continue
		}
		out = append(out, v)
	}
	return out, nil
}

// SetVar stores the variable in place of the one of its cluster and
// name, as core does: a secret without a value, by the fake's user.
func (p *catalogPart) SetVar(ctx context.Context, v model.Variable) (model.Variable, error) {
	p.f.record("SetVar %s %s %s", orStar(v.Cluster), v.Name, v.Shown())
	if err := p.f.wait(ctx); err != nil {
		return model.Variable{}, err
	}
	if v.Secret() {
		v.Value = ""
	}
	v.Author, v.UpdatedAt = "ops", p.f.now
	p.f.Mu.Lock()
	defer p.f.Mu.Unlock()
	p.Variables = slices.DeleteFunc(p.Variables, func(o model.Variable) bool { return o.Cluster == v.Cluster && o.Name == v.Name })
	p.Variables = append(p.Variables, v)
	return v, nil
}

// RemoveVar removes the variable of (Cluster, Name).
func (p *catalogPart) RemoveVar(ctx context.Context, r api.VarRef) error {
	p.f.record("RemoveVar %s %s", orStar(r.Cluster), r.Name)
	if err := p.f.wait(ctx); err != nil {
		return err
	}
	p.f.Mu.Lock()
	defer p.f.Mu.Unlock()
	n := len(p.Variables)
	p.Variables = slices.DeleteFunc(p.Variables, func(o model.Variable) bool { return o.Cluster == r.Cluster && o.Name == r.Name })
	if len(p.Variables) == n {
		return fmt.Errorf("remove variable %s: %w", r.Name, model.ErrNotFound)
	}
	return nil
}

func orStar(cluster string) string {
	if cluster == "" {
		return "*"
	}
	return cluster
}

// FixtureVars are the variables of the fixture's clusters: plain ones of
// every cluster, one prod overrides, and secrets of each kind. The
// secret from env carries a value it should not (a service that leaked
// one): the TUI must mask it all the same.
func FixtureVars() []model.Variable {
	at := func(d time.Duration) time.Time { return Now.Add(-d) }
	return []model.Variable{
		{Name: "kafka", Value: "kafka-1.acme:9092,kafka-2.acme:9092", Author: "ana", UpdatedAt: at(30 * time.Hour)},
		{Cluster: "prod", Name: "kafka", Value: "kafka-prod-1.acme:9092,kafka-prod-2.acme:9092", Author: "ana", UpdatedAt: at(26 * time.Hour)},
		{Name: "rows", Value: "1000", Author: "bo", UpdatedAt: at(3 * time.Hour)},
		{Cluster: "prod", Name: "users_password", SecretEnv: "PROD_USERS_PASS", Value: "hunter2-leaked", Author: "ana", UpdatedAt: at(5 * time.Hour)},
		{Cluster: "prod", Name: "sink_token", SecretFile: "/etc/palink/sink_token", Author: "bo", UpdatedAt: at(40 * time.Minute)},
		{Cluster: "prod", Name: "vault_pw", SecretCmd: "vault kv get -field=password -token=s.XyZ secret/db", Author: "ana", UpdatedAt: at(10 * time.Minute)},
		{Cluster: "staging", Name: "rows", Value: "10", Author: "bo", UpdatedAt: at(time.Hour)},
	}
}

// SetTables replaces a cluster's catalog tables.
func (f *Fake) SetTables(cluster string, ts []model.CatalogTable) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	if f.catalogPart.Catalog == nil {
		f.catalogPart.Catalog = map[string][]model.CatalogTable{}
	}
	f.catalogPart.Catalog[cluster] = ts
}

// FixtureTables is a catalog of three tables on prod: an imported
// dimension table, a Kafka topic and a sink.
func FixtureTables() []model.CatalogTable {
	return []model.CatalogTable{
		{Cluster: "prod", Name: "orders", Version: 3, Author: "ana", CreatedAt: Now.Add(-26 * time.Hour), Note: "proc_time",
			SQL: "CREATE TABLE orders (\n  order_id BIGINT,\n  user_id BIGINT,\n  amount DECIMAL(10, 2),\n  proc_time AS PROCTIME()\n) WITH (\n  'connector' = 'kafka',\n  'topic' = 'orders',\n  'properties.bootstrap.servers' = '${kafka}',\n  'format' = 'json'\n)"},
		{Cluster: "prod", Name: "users", Version: 1, Author: "bo", CreatedAt: Now.Add(-3 * time.Hour), Note: "imported from public.users",
			SQL: "CREATE TABLE `users` (\n  `id` BIGINT NOT NULL,\n  `name` STRING,\n  PRIMARY KEY (`id`) NOT ENFORCED\n) WITH (\n  'connector' = 'jdbc',\n  'url' = 'jdbc:postgresql://dim-db:5432/app',\n  'table-name' = 'public.users',\n  'username' = 'flink_ro',\n  'password' = '${users_password}'\n)"},
		{Cluster: "prod", Name: "enriched", Version: 2, Author: "ana", CreatedAt: Now.Add(-40 * time.Minute),
			SQL: "CREATE TABLE enriched (order_id BIGINT, user_name STRING) WITH ('connector' = 'print')"},
	}
}
