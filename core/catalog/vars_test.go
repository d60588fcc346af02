package catalog

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/model"
)

func TestEffectiveResolveAndMask(t *testing.T) {
	file := filepath.Join(t.TempDir(), "pass")
	if err := os.WriteFile(file, []byte("from-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	vs := []model.Variable{
		{Name: "url", Value: "global"},
		{Name: "pass", SecretEnv: "P"},
		{Cluster: "prod", Name: "url", Value: "prod"},
		{Cluster: "prod", Name: "key", SecretFile: file},
		{Cluster: "test", Name: "url", Value: "test"},
	}
	eff := Effective(vs, "prod")
	var names []string
	for _, v := range eff {
		names = append(names, v.Name+"="+v.Shown())
	}
	if strings.Join(names, " ") != "key=•••• (file "+file+") pass=•••• (env P) url=prod" {
		t.Errorf("Effective(prod) = %v", names)
	}
	env := map[string]string{"P": "hunter2"}
	r, err := Resolve(eff, Sources{Getenv: func(k string) string { return env[k] }})
	if err != nil || r.Values["key"] != "from-file" || r.Values["pass"] != "hunter2" || r.Values["url"] != "prod" {
		t.Fatalf("Resolve = %v, %v", r.Values, err)
	}
	if got := r.Mask("jdbc:x?password=hunter2&k=from-file"); got != "jdbc:x?password=••••&k=••••" {
		t.Errorf("Mask = %q", got)
	}
	cause := errors.New("connect jdbc:x?password=hunter2: refused")
	if err := r.MaskErr(cause); strings.Contains(err.Error(), "hunter2") || !errors.Is(err, cause) {
		t.Errorf("MaskErr = %v (is the cause: %t)", err, errors.Is(err, cause))
	}
	// An unreadable secret names the variable and its source, no value.
	_, err = Resolve(append(eff, model.Variable{Name: "gone", SecretFile: filepath.Join(t.TempDir(), "nope")}, model.Variable{Name: "unset", SecretEnv: "UNSET"}),
		Sources{Getenv: func(k string) string { return env[k] }})
	if err == nil || !strings.Contains(err.Error(), "secret variable gone: read ") || !strings.Contains(err.Error(), "secret variable unset: environment variable UNSET is not set") ||
		strings.Contains(err.Error(), "hunter2") {
		t.Errorf("Resolve of unreadable secrets: %v", err)
	}
	// Prepare finds the undefined references of the script, the catalog
	// tables and the config, at their place.
	in := flinksql.Injection{Tables: []flinksql.InjectedTable{{CatalogDef: flinksql.CatalogDef{Name: "dim", Version: 2}, Stmt: "CREATE TEMPORARY TABLE dim (x INT) WITH ('url' = '${dim_url}')"}}}
	for _, c := range []struct {
		sql    string
		in     flinksql.Injection
		config map[string]string
		want   string
	}{
		{"SELECT 1;\nINSERT INTO t SELECT '${nope}';", flinksql.Injection{}, nil, "line 2:23: variable ${nope}"},
		{"INSERT INTO t SELECT '${url}';", in, nil, "catalog table dim@v2: variable ${dim_url}"},
		{"INSERT INTO t SELECT '${url}';", flinksql.Injection{}, map[string]string{"state.backend": "${backend}"}, "config state.backend: variable ${backend}"},
	} {
		if _, err := Prepare(eff, c.sql, c.in, c.config, Sources{}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Prepare(%q) = %v, want %q", c.sql, err, c.want)
		}
	}
}

// TestJSONMaskMasksEveryWrittenForm: a secret with characters JSON escapes
// is masked as it is, as encoding/json writes it (< > & escaped too) and
// as an encoder that leaves HTML alone writes it; no secret, no mask.
func TestJSONMaskMasksEveryWrittenForm(t *testing.T) {
	const secret = `a<b>&"c"\d`
	r, err := Resolve([]model.Variable{{Name: "s", SecretEnv: "S"}}, Sources{Getenv: func(string) string { return secret }})
	if err != nil {
		t.Fatal(err)
	}
	mask := r.JSONMask()
	for _, form := range []string{secret, `a\u003cb\u003e\u0026\"c\"\\d`, `a<b>&\"c\"\\d`} {
		if got := mask("x " + form + " y"); got != "x "+model.Masked+" y" {
			t.Errorf("%s masked as %s", form, got)
		}
	}
	if (Resolved{}).JSONMask() != nil {
		t.Error("a mask without secrets")
	}
}

// TestMaskOfNothing: no error stays no error, with or without secrets; a
// secret that is empty (an empty file) masks nothing, and the others still.
func TestMaskOfNothing(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty")
	if err := os.WriteFile(empty, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	none, err := Resolve([]model.Variable{{Name: "e", SecretFile: empty}}, Sources{})
	if err != nil {
		t.Fatal(err)
	}
	if none.JSONMask() != nil || none.Mask("abc") != "abc" || none.MaskErr(nil) != nil {
		t.Errorf("an empty secret masks: %v %q %v", none.JSONMask() != nil, none.Mask("abc"), none.MaskErr(nil))
	}
	some, err := Resolve([]model.Variable{{Name: "e", SecretFile: empty}, {Name: "s", SecretEnv: "S"}}, Sources{Getenv: func(string) string { return "pw" }})
	if err != nil {
		t.Fatal(err)
	}
	if got := some.JSONMask()("a pw b"); got != "a "+model.Masked+" b" {
		t.Errorf("after an empty secret: %q", got)
	}
	if some.MaskErr(nil) != nil || (Resolved{}).MaskErr(nil) != nil {
		t.Error("no error became one")
	}
	plain := errors.New("no secret here")
	if some.MaskErr(plain) != plain {
		t.Error("an error without a secret was wrapped")
	}
}
