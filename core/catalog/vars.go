package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/flinksql/ast"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// Effective are the variables a cluster's jobs see: those of the cluster,
// and those of every cluster it does not override, ordered by name.
func Effective(vs []model.Variable, cluster string) []model.Variable {
	by := map[string]model.Variable{}
	for _, v := range vs {
		if v.Cluster == "" {
			if _, ok := by[v.Name]; !ok {
				by[v.Name] = v
			}
		}
	}
	for _, v := range vs {
		if v.Cluster != "" && v.Cluster == cluster {
			by[v.Name] = v
		}
	}
	out := make([]model.Variable, 0, len(by))
	for _, v := range by {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Resolved are variables with their values, secrets read.
type Resolved struct {
	Values  map[string]string
	secrets []string
}

// Resolve reads the values of vs (Effective ones): a secret from its
// environment variable, its file or its command (src). An error names
// the variable and where its value should have come from, never a value.
func Resolve(vs []model.Variable, src Sources) (Resolved, error) {
	r := Resolved{Values: map[string]string{}}
	var errs []error
	for _, v := range vs {
		switch {
		case v.SecretEnv != "":
			val := src.getenv(v.SecretEnv)
			if val == "" {
				errs = append(errs, fmt.Errorf("secret variable %s: environment variable %s is not set in palink's process", v.Name, v.SecretEnv))
				continue
			}
			r.Values[v.Name] = val
			r.secrets = append(r.secrets, val)
		case v.SecretCmd != "":
			val, err := runSecretCmd(src.Commands, v.SecretCmd)
			if err != nil {
				errs = append(errs, fmt.Errorf("secret variable %s: %v", v.Name, err))
				continue
			}
			r.Values[v.Name] = val
			r.secrets = append(r.secrets, val)
		case v.SecretFile != "":
			b, err := os.ReadFile(v.SecretFile)
			if err != nil {
				var pe *os.PathError
				if errors.As(err, &pe) {
					err = pe.Err
				}
				errs = append(errs, fmt.Errorf("secret variable %s: read %s: %v", v.Name, v.SecretFile, err))
				continue
			}
			val := strings.TrimRight(string(b), "\r\n")
			r.Values[v.Name] = val
			r.secrets = append(r.secrets, val)
		default:
			r.Values[v.Name] = v.Value
		}
	}
	return r, errors.Join(errs...)
}

// Mask replaces every secret value in s by model.Masked.
func (r Resolved) Mask(s string) string {
	for _, v := range r.secrets {
		if v != "" {
			s = strings.ReplaceAll(s, v, model.Masked)
		}
	}
	return s
}

// JSONMask masks the secrets in JSON text, as they are and as JSON escapes
// them (with < > & escaped, as encoding/json does by default, or not); nil
// when there is no secret, so that a writer keeps its fast path.
func (r Resolved) JSONMask() func(string) string {
	var forms []string
	for _, v := range r.secrets {
		if v == "" {
			continue
		}
		forms = append(forms, v)
		for _, html := range []bool{true, false} {
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(html)
			if err := enc.Encode(v); err == nil {
				j := strings.TrimSuffix(b.String(), "\n")
				if f := j[1 : len(j)-1]; !slices.Contains(forms, f) {
					forms = append(forms, f)
				}
			}
		}
	}
	if len(forms) == 0 {
		return nil
	}
	return func(s string) string {
		for _, f := range forms {
			s = strings.ReplaceAll(s, f, model.Masked)
		}
		return s
	}
}

// MaskErr is err with every secret value masked (nil stays nil).
func (r Resolved) MaskErr(err error) error {
	if err == nil || len(r.secrets) == 0 {
		return err
	}
	if m := r.Mask(err.Error()); m != err.Error() {
		return maskedError{msg: m, err: err}
	}
	return err
}

// maskedError keeps the cause for errors.Is, with a masked message.
type maskedError struct {
	msg string
	err error
}

func (e maskedError) Error() string { return e.msg }
func (e maskedError) Unwrap() error { return e.err }

// Undefined reports the first ${name} of text that r has no value for,
// with its line:col, nil if none.
func (r Resolved) Undefined(text, where string) error {
	for _, ref := range flinksql.FindVars(text) {
		if _, ok := r.Values[ref.Name]; !ok {
			return fmt.Errorf("%s %s: variable ${%s} is not defined for this cluster (palink var set %s …)", where, ref.Pos, ref.Name, ref.Name)
		}
	}
	return nil
}

// Assets are what a check of a cluster's script needs: its catalog tables
// and the names and plain values of its variables (no secret is read).
func Assets(tables []model.CatalogTable, vars []model.Variable) flinksql.Assets {
	a := flinksql.Assets{Tables: AsDefs(tables), Vars: map[string]string{}}
	for _, v := range vars {
		if v.Secret() {
			a.Secrets = append(a.Secrets, v.Name)
		} else {
			a.Vars[v.Name] = v.Value
		}
	}
	return a
}

// ClusterVars reads the variables a cluster's jobs see.
func ClusterVars(tx store.CatalogReader, cluster string) ([]model.Variable, error) {
	vs, err := tx.Vars()
	if err != nil {
		return nil, err
	}
	return Effective(vs, cluster), nil
}

// PrepareJob resolves the variables a JAR or PyFlink deploy needs: every
// ${name} of its program arguments and its Flink config must be defined,
// and every secret they use readable. The error says which and where,
// never a value. Secrets are read from src.
func PrepareJob(vs []model.Variable, args []string, config map[string]string, src Sources) (Resolved, error) {
	u := newUses(vs)
	for i, a := range args {
		if err := u.check(a, func(ast.Pos) string { return fmt.Sprintf("argument %d", i+1) }); err != nil {
			return Resolved{}, err
		}
	}
	if err := u.config(config); err != nil {
		return Resolved{}, err
	}
	return u.resolve(src)
}

// uses collects the variables a deploy's texts refer to, failing at the
// first that is not defined.
type uses struct {
	vs    []model.Variable
	names map[string]bool
	used  map[string]bool
}

func newUses(vs []model.Variable) *uses {
	u := &uses{vs: vs, names: map[string]bool{}, used: map[string]bool{}}
	for _, v := range vs {
		u.names[v.Name] = true
	}
	return u
}

func (u *uses) check(text string, where func(ast.Pos) string) error {
	for _, ref := range flinksql.FindVars(text) {
		u.used[ref.Name] = true
		if !u.names[ref.Name] {
			return fmt.Errorf("%s: variable ${%s} is not defined for this cluster (palink var set %s …)", where(ref.Pos), ref.Name, ref.Name)
		}
	}
	return nil
}

func (u *uses) config(config map[string]string) error {
	keys := make([]string, 0, len(config))
	for k := range config {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := u.check(config[k], func(ast.Pos) string { return "config " + k }); err != nil {
			return err
		}
	}
	return nil
}

// resolve reads only the variables used: a secret of another job that
// cannot be read here is none of this one's business.
func (u *uses) resolve(src Sources) (Resolved, error) {
	var need []model.Variable
	for _, v := range u.vs {
		if u.used[v.Name] {
			need = append(need, v)
		}
	}
	return Resolve(need, src)
}

// Prepare resolves the variables a SQL deploy needs: every ${name} of its
// script (at its line:col), of the catalog tables it gets and of its
// Flink config must be defined, and every secret they use readable. The error says
// which and where, never a value. Secrets are read from src.
func Prepare(vs []model.Variable, sql string, in flinksql.Injection, config map[string]string, src Sources) (Resolved, error) {
	u := newUses(vs)
	if err := u.check(sql, func(p ast.Pos) string { return "line " + p.String() }); err != nil {
		return Resolved{}, err
	}
	for _, t := range in.Tables {
		if err := u.check(t.Stmt, func(ast.Pos) string { return "catalog table " + t.Ref() }); err != nil {
			return Resolved{}, err
		}
	}
	if err := u.config(config); err != nil {
		return Resolved{}, err
	}
	return u.resolve(src)
}
