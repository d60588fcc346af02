package api

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/palink/palink/core/api/internal/methodgen"
	"github.com/palink/palink/model"
)

var update = flag.Bool("update", false, "rewrite testdata/roles.txt from the declarations")

// apiInterfaces are the interfaces whose methods the declarations cover.
var apiInterfaces = []reflect.Type{
	reflect.TypeFor[Service](),
	reflect.TypeFor[DiagnoseService](),
	reflect.TypeFor[Debugger](),
	reflect.TypeFor[Importer](),
}

// TestEveryMethodIsDeclared: every method of the API's interfaces has one
// declaration, and every declaration names a method of theirs.
func TestEveryMethodIsDeclared(t *testing.T) {
	have := map[string]bool{}
	for _, it := range apiInterfaces {
		for i := range it.NumMethod() {
			name := it.Method(i).Name
			have[name] = true
			if _, ok := MethodOf(name); !ok {
				t.Errorf("%s.%s has no declaration in core/api/methods.go: add one with its role", it.Name(), name)
			}
		}
	}
	seen := map[string]bool{}
	for _, m := range Methods() {
		switch {
		case seen[m.Name]:
			t.Errorf("%s is declared twice", m.Name)
		case !have[m.Name]:
			t.Errorf("%s is declared but no API interface has it", m.Name)
		case m.Role < model.Viewer || m.Role > model.Admin:
			t.Errorf("%s: role %v", m.Name, m.Role)
		case (m.Writes || m.Role > model.Viewer) && m.What == "":
			t.Errorf("%s can be refused, but its declaration names no action (What) for the refusal", m.Name)
		case m.Writes && m.Role == model.Viewer:
			t.Errorf("%s writes, yet viewers may call it", m.Name)
		case m.Writes && m.Caller == "":
			t.Errorf("%s writes, but names no field the agent fills with its caller (Caller): the client would say who acted", m.Name)
		case m.Caller != "" && !hasField(lastArg(m.Name), m.Caller):
			t.Errorf("%s: Caller %q is no string field of its last argument %v", m.Name, m.Caller, lastArg(m.Name))
		}
		seen[m.Name] = true
	}
}

// TestRoleTable pins who may call what: a role lowered (or raised) shows
// in review as a change to testdata/roles.txt, never silently (go test
// ./core/api -run TestRoleTable -update rewrites it).
func TestRoleTable(t *testing.T) {
	var b strings.Builder
	fmt.Fprintln(&b, "# method  role  on  writes — the API's role table (the //palink:api lines); on: what a call acts on, whose team's role counts (docs/ssh.md, \"Teams and roles\")")
	for _, m := range Methods() {
		w := "reads"
		if m.Writes {
			w = "writes"
		}
		if m.Local {
			w += " (in the caller's process)"
		}
		fmt.Fprintf(&b, "%-16s %-8s %-7s %s\n", m.Name, m.Role, m.On, w)
	}
	path := filepath.Join("testdata", "roles.txt")
	if *update {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != b.String() {
		t.Errorf("the role table changed; if on purpose, rerun with -update and say why in the commit.\nwant:\n%s\ngot:\n%s", want, b.String())
	}
}

// TestRefusal: the messages say who, what role they have, and what to do.
func TestRefusal(t *testing.T) {
	add, _ := MethodOf("AddProject")
	bk, _ := MethodOf("Backup")
	list, _ := MethodOf("ListJobs")
	act, _ := MethodOf("Act")
	for _, c := range []struct {
		m        Method
		role     model.Role
		readOnly bool
		is       error
		text     string
	}{
		{add, model.Admin, false, nil, ""},
		{add, model.Admin, true, model.ErrReadOnly, "add project: palink is read-only"},
		{add, model.Operator, false, model.ErrForbidden, "add project: user bob is an operator on this agent; it needs an admin (admins: in the config)"},
		{add, model.Viewer, false, model.ErrReadOnly, "add project: user bob is a viewer on this agent; it needs an admin"},
		{bk, model.Viewer, false, model.ErrForbidden, "back up the store: user bob is a viewer on this agent; ask an operator"},
		{bk, model.Operator, true, nil, ""},
		{list, model.Viewer, true, nil, ""},
		{act, model.Viewer, false, model.ErrReadOnly, "act on a job: user bob is a viewer on this agent"},
		{act, model.Operator, false, nil, ""},
	} {
		err := c.m.Refusal(c.role, c.readOnly, "user bob", " on this agent")
		switch {
		case c.is == nil && err != nil:
			t.Errorf("%s as %s (read-only %v): refused: %v", c.m.Name, c.role, c.readOnly, err)
		case c.is != nil && (!errors.Is(err, c.is) || !strings.HasPrefix(err.Error(), c.text)):
			t.Errorf("%s as %s (read-only %v): %v, want %v starting %q", c.m.Name, c.role, c.readOnly, err, c.is, c.text)
		case c.is == model.ErrReadOnly && c.m.Role == model.Operator && err.Error() != c.text:
			// A viewer's write needs no more advice than its role.
			t.Errorf("%s as %s (read-only %v): %q, want exactly %q", c.m.Name, c.role, c.readOnly, err, c.text)
		}
	}
}

// lastArg is the type of the last argument of the API method called name.
func lastArg(name string) reflect.Type {
	for _, it := range apiInterfaces {
		if m, ok := it.MethodByName(name); ok && m.Type.NumIn() > 0 {
			return m.Type.In(m.Type.NumIn() - 1)
		}
	}
	return nil
}

// hasField reports whether t has the string field at path ("UDF.Author").
func hasField(t reflect.Type, path string) bool {
	for _, name := range strings.Split(path, ".") {
		if t == nil || t.Kind() != reflect.Struct {
			return false
		}
		f, ok := t.FieldByName(name)
		if !ok {
			return false
		}
		t = f.Type
	}
	return t != nil && t.Kind() == reflect.String
}

// TestMethodTableIsCurrent: methods_gen.go is what the //palink:api lines
// say today (go generate ./core/api).
func TestMethodTableIsCurrent(t *testing.T) {
	want, err := methodgen.Generate(".")
	if err != nil {
		t.Fatal(err)
	}
	have, err := os.ReadFile("methods_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if string(have) != string(want) {
		t.Error("methods_gen.go is out of date: run go generate ./core/api")
	}
}

// TestGuardIsCurrent: guard_gen.go is what the //palink:api lines say
// today (go generate ./core/api).
func TestGuardIsCurrent(t *testing.T) {
	want, err := methodgen.GenerateGuard(".")
	if err != nil {
		t.Fatal(err)
	}
	have, err := os.ReadFile("guard_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if string(have) != string(want) {
		t.Error("guard_gen.go is out of date: run go generate ./core/api")
	}
}
