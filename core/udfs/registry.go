package udfs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// Registry is core's api.UDFService.
type Registry struct {
	st       store.Store
	now      func() time.Time
	user     string
	readOnly bool
}

var _ api.UDFService = (*Registry)(nil)

// New keeps the registry in st; user is the author of changes that name
// none.
func New(st store.Store, now func() time.Time, user string, readOnly bool) *Registry {
	return &Registry{st: st, now: now, user: user, readOnly: readOnly}
}

// UDFs implements api.UDFService.
func (r *Registry) UDFs(ctx context.Context) ([]api.UDFView, error) {
	out := []api.UDFView{}
	err := r.st.View(ctx, func(tx store.ReadTx) error {
		us, err := tx.UDFs()
		if err != nil {
			return err
		}
		uses, err := Uses(tx)
		if err != nil {
			return err
		}
		for _, u := range us {
			out = append(out, api.UDFView{UDF: u, Jobs: uses[strings.ToUpper(u.Name)]})
		}
		return nil
	})
	return out, err
}

// AddUDF implements api.UDFService.
func (r *Registry) AddUDF(ctx context.Context, req api.AddUDFRequest) (model.UDF, error) {
	u := req.UDF
	op := "add function " + u.Name
	if r.readOnly {
		return u, api.ReadOnly(op)
	}
	if err := checkRequest(u); err != nil {
		return u, fmt.Errorf("%s: %w", op, err)
	}
	if u.Author == "" {
		u.Author = r.user
	}
	u.CreatedAt = r.now()
	for _, p := range []*string{&u.Jar, &u.PyFile} {
		if *p == "" {
			continue
		}
		abs, err := filepath.Abs(*p)
		if err != nil {
			return u, fmt.Errorf("%s: %w", op, err)
		}
		if st, err := os.Stat(abs); err != nil || !st.Mode().IsRegular() {
			return u, fmt.Errorf("%s: %s is not a file: %w", op, abs, model.ErrNotFound)
		}
		*p = abs
	}
	if u.Jar != "" {
		if err := checkJar(u.Jar); err != nil {
			return u, fmt.Errorf("%s: %w", op, err)
		}
		if err := checkClass(Shipped{UDF: u, Path: u.Jar, Ref: model.UDFRef{Name: u.Name, Artifact: u.Jar}}); err != nil {
			return u, fmt.Errorf("%s: %w", op, err)
		}
	}
	err := r.st.Update(ctx, func(tx store.Tx) error {
		if _, err := tx.UDF(u.Name); err == nil && !req.Replace {
			return fmt.Errorf("%s: function %s is registered already (replace it with --replace): %w", op, u.Name, model.ErrExists)
		}
		if u.Project != "" {
			if _, err := artifactOf(tx, u); err != nil {
				return fmt.Errorf("%s: %w", op, err)
			}
		}
		if err := tx.PutUDF(u); err != nil {
			return err
		}
		_, err := tx.AppendAudit(model.AuditEntry{Time: u.CreatedAt, User: u.Author, Action: "udf add",
			Outcome: fmt.Sprintf("%s (%s %s, %s)", u.Name, u.Language, u.Class, u.Where())})
		return err
	})
	return u, err
}

// checkRequest says what a registration lacks, in the words of the CLI's
// flags.
func checkRequest(u model.UDF) error {
	places := 0
	for _, p := range []string{u.Project, u.Jar, u.PyFile} {
		if p != "" {
			places++
		}
	}
	switch {
	case !model.ValidCatalogName(u.Name):
		return fmt.Errorf("the name %q is not a SQL identifier (letters, digits and _, not starting with a digit)", u.Name)
	case strings.TrimSpace(u.Class) == "":
		return errors.New("no class: give --class (a JVM class, or module.function for python)")
	case u.Language == "":
		return errors.New("no language: give --language java, scala or python")
	case places != 1:
		return errors.New("say where it lives: exactly one of --project, --jar or --py")
	case u.PyFile != "" && u.Language != model.UDFPython:
		return fmt.Errorf("--py holds a python function, not a %s one", u.Language)
	case u.Jar != "" && u.Language == model.UDFPython:
		return errors.New("a python function lives in a Python file (--py) or a project, not a jar")
	case u.ArtifactVersion != 0 && u.Project == "":
		return errors.New("--artifact needs --project")
	case u.ArtifactVersion < 0:
		return fmt.Errorf("--artifact %d: want a version, 1 or more", u.ArtifactVersion)
	}
	if u.Signature != "" {
		if _, _, err := flinksql.ParseSignature(u.Signature); err != nil {
			return err
		}
	}
	return nil
}

// RemoveUDF implements api.UDFService.
func (r *Registry) RemoveUDF(ctx context.Context, req api.RemoveUDFRequest) (api.UDFRemoval, error) {
	op := "remove function " + req.Name
	if r.readOnly {
		return api.UDFRemoval{}, api.ReadOnly(op)
	}
	if req.Issuer == "" {
		req.Issuer = r.user
	}
	var out api.UDFRemoval
	err := r.st.Update(ctx, func(tx store.Tx) error {
		u, err := tx.UDF(req.Name)
		if err != nil {
			return fmt.Errorf("%s: %w", op, err)
		}
		uses, err := Uses(tx)
		if err != nil {
			return err
		}
		out.UDF, out.Jobs = u, uses[strings.ToUpper(u.Name)]
		if len(out.Jobs) > 0 && !req.Force {
			names := make([]string, len(out.Jobs))
			for i, j := range out.Jobs {
				names[i] = j.JobName
			}
			return fmt.Errorf("%s: job%s %s call%s it (their next deploy would fail); remove it with --force: %w",
				op, map[bool]string{true: "s"}[len(names) > 1], strings.Join(names, ", "), map[bool]string{false: "s"}[len(names) > 1], model.ErrRefused)
		}
		if err := tx.DeleteUDF(u.Name); err != nil {
			return err
		}
		_, err = tx.AppendAudit(model.AuditEntry{Time: r.now(), User: req.Issuer, Action: "udf rm", Outcome: u.Name})
		return err
	})
	return out, err
}

// jobsAndUDFs reads jobs with their specs and the registry.
type jobsAndUDFs interface {
	store.JobsReader
	store.UDFsReader
}

// Uses maps each function name (upper-case) that SQL jobs call without
// creating it to those jobs, by the job's current script.
func Uses(tx jobsAndUDFs) (map[string][]api.UDFUse, error) {
	jobs, err := tx.Jobs()
	if err != nil {
		return nil, err
	}
	out := map[string][]api.UDFUse{}
	for _, j := range jobs {
		if j.Kind != model.KindSQL {
			continue
		}
		spec, err := tx.Spec(j.ID, j.SpecVersion)
		if err != nil {
			return nil, fmt.Errorf("job %s: %w", j.Name, err)
		}
		script, _ := flinksql.ParseScript(spec.SQL)
		seen := map[string]bool{}
		for _, c := range flinksql.UserFunctionCalls(script) {
			up := strings.ToUpper(c.Name)
			if !seen[up] {
				seen[up] = true
				out[up] = append(out[up], api.UDFUse{JobID: j.ID, JobName: j.Name, State: j.State})
			}
		}
	}
	for _, us := range out {
		slices.SortFunc(us, func(a, b api.UDFUse) int { return strings.Compare(a.JobName, b.JobName) })
	}
	return out, nil
}

// Functions are the registered functions as the validator takes them.
func Functions(us []model.UDF) map[string]flinksql.FunctionInfo {
	out := make(map[string]flinksql.FunctionInfo, len(us))
	for _, u := range us {
		out[strings.ToUpper(u.Name)] = flinksql.FunctionInfo{Name: u.Name, Signature: u.Signature}
	}
	return out
}
