package udfs

import (
	"fmt"
	"slices"
	"strings"

	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/flinksql/builtin"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// usingJarSince is the first Flink release whose CREATE FUNCTION takes
// USING JAR; before it the jar goes on the session's pipeline.jars and
// pipeline.classpaths.
var usingJarSince = builtin.Version{Major: 1, Minor: 16}

// Shipped is one registered function as a deploy creates it: the file it
// lives in, as a path the SQL Gateway reads.
type Shipped struct {
	UDF  model.UDF
	Path string
	Ref  model.UDFRef
}

// Plan is what a SQL deploy adds for the registered functions its script
// calls without creating them: session properties (the jars or Python
// files), then CREATE TEMPORARY FUNCTION statements, run before the
// script's own DDL.
type Plan struct {
	Functions  []Shipped
	Properties map[string]string
	Statements []string
}

// Refs are what the plan injects, "mask@udfs:v3".
func (p Plan) Refs() []model.UDFRef {
	out := make([]model.UDFRef, len(p.Functions))
	for i, f := range p.Functions {
		out[i] = f.Ref
	}
	return out
}

// udfsAndProjects reads the registry and the projects whose artifacts
// hold its functions.
type udfsAndProjects interface {
	store.UDFsReader
	store.ProjectsReader
}

// ForScript plans the functions of a SQL script for a cluster that runs
// Flink v (zero: unknown, taken as a release with USING JAR). Functions
// the script calls that the registry does not know are left alone: the
// validator reports them.
func ForScript(tx udfsAndProjects, sql string, v builtin.Version) (Plan, error) {
	script, _ := flinksql.ParseScript(sql)
	calls := flinksql.UserFunctionCalls(script)
	p := Plan{Properties: map[string]string{}}
	if len(calls) == 0 {
		return p, nil
	}
	seen := map[string]bool{}
	for _, c := range calls {
		up := strings.ToUpper(c.Name)
		if seen[up] {
			continue
		}
		seen[up] = true
		u, err := lookup(tx, c.Name)
		if err != nil {
			return p, err
		}
		if u == nil {
			continue
		}
		s, err := ship(tx, *u)
		if err == nil {
			err = checkClass(s)
		}
		if err != nil {
			return p, fmt.Errorf("function %s (line %d): %w", u.Name, c.Pos.Line, err)
		}
		p.Functions = append(p.Functions, s)
	}
	p.build(v)
	return p, nil
}

// lookup finds a registered function by the name a script calls it by
// (SQL names of functions are case-insensitive); nil if none.
func lookup(tx store.UDFsReader, name string) (*model.UDF, error) {
	if u, err := tx.UDF(name); err == nil {
		return &u, nil
	}
	us, err := tx.UDFs()
	if err != nil {
		return nil, err
	}
	if i := slices.IndexFunc(us, func(u model.UDF) bool { return strings.EqualFold(u.Name, name) }); i >= 0 {
		return &us[i], nil
	}
	return nil, nil
}

// ship resolves where a function's file is: a project's artifact (the
// pinned version, or the newest), the jar, or the Python file.
func ship(tx store.ProjectsReader, u model.UDF) (Shipped, error) {
	switch {
	case u.Project != "":
		a, err := artifactOf(tx, u)
		if err != nil {
			return Shipped{}, err
		}
		return Shipped{UDF: u, Path: a.Path, Ref: model.UDFRef{Name: u.Name, Artifact: fmt.Sprintf("%s:v%d", u.Project, a.Version)}}, nil
	case u.Jar != "":
		return Shipped{UDF: u, Path: u.Jar, Ref: model.UDFRef{Name: u.Name, Artifact: u.Jar}}, nil
	}
	return Shipped{UDF: u, Path: u.PyFile, Ref: model.UDFRef{Name: u.Name, Artifact: u.PyFile}}, nil
}

// artifactOf is the artifact a function of a project lives in.
func artifactOf(tx store.ProjectsReader, u model.UDF) (model.Artifact, error) {
	arts, err := tx.Artifacts(u.Project)
	if err != nil {
		return model.Artifact{}, err
	}
	if len(arts) == 0 {
		return model.Artifact{}, fmt.Errorf("project %s has no artifact yet (palink project build %s): %w", u.Project, u.Project, model.ErrNotFound)
	}
	if u.ArtifactVersion == 0 {
		return arts[len(arts)-1], nil
	}
	i := slices.IndexFunc(arts, func(a model.Artifact) bool { return a.Version == u.ArtifactVersion })
	if i < 0 {
		return model.Artifact{}, fmt.Errorf("project %s has no artifact v%d (newest: v%d): %w", u.Project, u.ArtifactVersion, arts[len(arts)-1].Version, model.ErrNotFound)
	}
	return arts[i], nil
}

// build writes the plan's properties and statements for Flink v.
func (p *Plan) build(v builtin.Version) {
	using := v.IsZero() || v.AtLeast(usingJarSince)
	var jars, pyFiles []string
	for _, f := range p.Functions {
		u := f.UDF
		stmt := fmt.Sprintf("CREATE TEMPORARY FUNCTION `%s` AS '%s' LANGUAGE %s", u.Name, quote(u.Class), u.Language.SQL())
		switch {
		case u.Language == model.UDFPython:
			pyFiles = appendNew(pyFiles, f.Path)
		case using:
			stmt += fmt.Sprintf(" USING JAR '%s'", quote(fileURL(f.Path)))
		default:
			jars = appendNew(jars, fileURL(f.Path))
		}
		p.Statements = append(p.Statements, stmt)
	}
	if len(jars) > 0 {
		p.Properties["pipeline.jars"] = strings.Join(jars, ";")
		p.Properties["pipeline.classpaths"] = strings.Join(jars, ";")
	}
	if len(pyFiles) > 0 {
		p.Properties["python.files"] = strings.Join(pyFiles, ",")
	}
}

// fileURL is a local path as Flink's resource URIs take it.
func fileURL(path string) string {
	if strings.Contains(path, "://") {
		return path
	}
	return "file://" + path
}

func quote(s string) string { return strings.ReplaceAll(s, "'", "''") }

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// AddProperties puts the plan's session properties into props; a list the
// cluster or job sets already (pipeline.jars, python.files) is extended.
func (p Plan) AddProperties(props map[string]string) {
	for k, v := range p.Properties {
		sep := ";"
		if k == "python.files" {
			sep = ","
		}
		if prev := props[k]; prev != "" {
			v = prev + sep + v
		}
		props[k] = v
	}
}

// ForAnyRelease is ForScript for a cluster whose Flink release is not
// known: a release with USING JAR.
func ForAnyRelease(tx udfsAndProjects, sql string) (Plan, error) {
	return ForScript(tx, sql, builtin.Version{})
}
