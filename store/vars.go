package store

import (
	"fmt"
	"slices"

	bolt "go.etcd.io/bbolt"

	"github.com/palink/palink/model"
)

// varsScope is the nested bucket of a variable's cluster: "*" holds the
// variables of every cluster (a cluster name cannot be "*").
func varsScope(cluster string) string {
	if cluster == "" {
		return "*"
	}
	return cluster
}

func checkVar(v model.Variable) error {
	switch {
	case !model.ValidCatalogName(v.Name):
		return fmt.Errorf("variable name %q is not an identifier: %w", v.Name, ErrInvalid)
	case v.Secret() && v.Value != "":
		return fmt.Errorf("secret variable %s carries a value; the store keeps only where it comes from: %w", v.Name, ErrInvalid)
	case (v.SecretEnv != "") && (v.SecretFile != "" || v.SecretCmd != "") || v.SecretFile != "" && v.SecretCmd != "":
		return fmt.Errorf("secret variable %s names more than one of an env, a file and a command: %w", v.Name, ErrInvalid)
	}
	return nil
}

// Vars returns every variable, those of every cluster first, then by
// cluster and name.
func (t catalogRecords) Vars() ([]model.Variable, error) {
	scopes, err := t.children(in(bucketVars))
	if err != nil {
		return nil, fmt.Errorf("list variables: %w", err)
	}
	// "*" sorts before letters and digits but not before every byte.
	if i := slices.Index(scopes, "*"); i > 0 {
		scopes = append([]string{"*"}, slices.Delete(scopes, i, i+1)...)
	}
	out := []model.Variable{}
	for _, scope := range scopes {
		err := each(t.txn, in(bucketVars, scope), "variable", func(_ []byte, v model.Variable) error {
			out = append(out, v)
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("list variables: %w", err)
		}
	}
	return out, nil
}

// PutVar stores a variable, replacing the one of its cluster and name.
func (t catalogRecords) PutVar(v model.Variable) error {
	op := fmt.Sprintf("store variable %s", v.Name)
	if err := checkVar(v); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	raw, err := encode("variable", v.Name, v)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if err := t.put(in(bucketVars, varsScope(v.Cluster)), []byte(v.Name), raw); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// DeleteVar removes a variable of a cluster ("": of every cluster).
func (t catalogRecords) DeleteVar(cluster, name string) error {
	op := fmt.Sprintf("remove variable %s", name)
	b := in(bucketVars, varsScope(cluster))
	v, err := t.get(b, []byte(name))
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if v == nil {
		return fmt.Errorf("%s: %w", op, ErrNotFound)
	}
	if err := t.del(b, []byte(name)); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// checkVars verifies vars/<scope>: every record decodes, under its name
// and scope, and no secret carries a value.
func checkVars(vars *bolt.Bucket, report func(string, ...any)) {
	if vars == nil {
		return
	}
	_ = vars.ForEachBucket(func(scope []byte) error {
		return vars.Bucket(scope).ForEach(func(k, v []byte) error {
			x, err := decode[model.Variable]("variable", k, v)
			switch {
			case err != nil:
				report("%s/%s: %v", bucketVars, scope, err)
			case x.Name != string(k) || varsScope(x.Cluster) != string(scope):
				report("%s/%s/%s: holds variable %s of cluster %q", bucketVars, scope, k, x.Name, x.Cluster)
			case checkVar(x) != nil:
				report("%s/%s/%s: %v", bucketVars, scope, k, checkVar(x))
			}
			return nil
		})
	})
}
