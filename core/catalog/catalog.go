// Package catalog is the table catalog's logic in core: which catalog
// tables a SQL job gets injected (DDL injection), whether they still
// validate, and which jobs a catalog change touches. It reads the store;
// the parsing and validation are flinksql's. It must not import yarn,
// the scheduler or the syncer: they use it.
package catalog

import (
	"fmt"
	"slices"

	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// jobsAndCatalog reads jobs with their specs, and the catalog: who uses a
// table, and whether a job's tables still match.
type jobsAndCatalog interface {
	store.JobsReader
	store.CommandsReader
	store.CatalogReader
}

// Defs are the newest versions of the cluster's catalog tables, as
// flinksql takes them.
func Defs(tx store.CatalogReader, cluster string) ([]flinksql.CatalogDef, error) {
	ts, err := tx.CatalogTables(cluster)
	if err != nil {
		return nil, err
	}
	return AsDefs(ts), nil
}

// AsDefs turns stored catalog tables into flinksql's definitions.
func AsDefs(ts []model.CatalogTable) []flinksql.CatalogDef {
	out := make([]flinksql.CatalogDef, len(ts))
	for i, t := range ts {
		out[i] = flinksql.CatalogDef{Name: t.Name, Version: t.Version, SQL: t.SQL}
	}
	return out
}

// ForScript works out the injection of a SQL script run on cluster.
func ForScript(tx store.CatalogReader, cluster, sql string) (flinksql.Injection, error) {
	defs, err := Defs(tx, cluster)
	if err != nil {
		return flinksql.Injection{}, err
	}
	if len(defs) == 0 {
		return flinksql.Injection{}, nil
	}
	script, _ := flinksql.ParseScript(sql)
	return flinksql.InjectCatalog(script, defs, flinksql.Options{}), nil
}

// Refs are the catalog versions an injection uses.
func Refs(in flinksql.Injection) []model.CatalogRef {
	var out []model.CatalogRef
	for _, t := range in.Tables {
		out = append(out, model.CatalogRef{Name: t.Name, Version: t.Version})
	}
	return out
}

// Refusal says why a deploy of job j (at its current spec) must be
// refused for its catalog tables, "" when it need not be.
func Refusal(tx jobsAndCatalog, j model.Job) (string, error) {
	spec, err := tx.Spec(j.ID, j.SpecVersion)
	if err != nil {
		return "", err
	}
	if j.Kind != model.KindSQL {
		vs, err := ClusterVars(tx, j.Cluster)
		if err != nil {
			return "", err
		}
		if _, err := PrepareJob(withoutCommands(vs), spec.Args, j.Config, Sources{}); err != nil {
			return err.Error(), nil
		}
		return "", nil
	}
	in, err := ForScript(tx, j.Cluster, spec.SQL)
	if err != nil {
		return "", err
	}
	if err := in.Err(); err != nil {
		return err.Error(), nil
	}
	vs, err := ClusterVars(tx, j.Cluster)
	if err != nil {
		return "", err
	}
	if _, err := Prepare(withoutCommands(vs), spec.SQL, in, j.Config, Sources{}); err != nil {
		return err.Error(), nil
	}
	return "", nil
}

// withoutCommands are vs with the secrets read by a command taken as
// defined, unread: a refusal is decided inside a store transaction, which
// must not wait on a command (the deploy runs it, outside any).
func withoutCommands(vs []model.Variable) []model.Variable {
	out := make([]model.Variable, len(vs))
	for i, v := range vs {
		if v.SecretCmd != "" {
			v = model.Variable{Cluster: v.Cluster, Name: v.Name}
		}
		out[i] = v
	}
	return out
}

// Use is how one job uses one catalog table.
type Use struct {
	Job model.Job
	// Deployed is the version of the table the job's last deploy
	// injected, 0 if none recorded it.
	Deployed int
	// Own is true when the job defines the table itself (its DDL wins, so
	// a catalog change does not touch it).
	Own bool
}

// Users are the SQL jobs of cluster whose current spec uses table name,
// with the version each last deployed with.
func Users(tx jobsAndCatalog, cluster, name string) ([]Use, error) {
	jobs, err := tx.Jobs()
	if err != nil {
		return nil, err
	}
	var out []Use
	for _, j := range jobs {
		if j.Kind != model.KindSQL || j.Cluster != cluster {
			continue
		}
		spec, err := tx.Spec(j.ID, j.SpecVersion)
		if err != nil {
			return nil, fmt.Errorf("job %s: %w", j.Name, err)
		}
		script, _ := flinksql.ParseScript(spec.SQL)
		if script == nil {
			continue
		}
		defined, used := flinksql.ScriptTables(script)
		u := Use{Job: j, Own: defined[name]}
		if !u.Own && !slices.Contains(used, name) {
			continue
		}
		u.Deployed, err = deployedVersion(tx, j.ID, name)
		if err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, nil
}

// deployedVersion is the version of table name the job's newest deploy
// command recorded, 0 if none did.
func deployedVersion(tx jobsAndCatalog, jobID, name string) (int, error) {
	cs, err := tx.Commands(store.CommandFilter{JobID: jobID, Kinds: []model.CommandKind{model.CmdSubmit, model.CmdRestart, model.CmdResubmit}})
	if err != nil {
		return 0, err
	}
	for i := len(cs) - 1; i >= 0; i-- {
		for _, r := range cs[i].Params.Catalog {
			if r.Name == name {
				return r.Version, nil
			}
		}
		if len(cs[i].Params.Catalog) > 0 {
			return 0, nil
		}
	}
	return 0, nil
}
