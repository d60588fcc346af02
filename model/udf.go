package model

import (
	"fmt"
	"strings"
	"time"
)

// UDFLanguage is the language a user-defined function is written in: what
// CREATE FUNCTION … LANGUAGE says.
type UDFLanguage string

// The languages Flink runs user functions in.
const (
	UDFJava   UDFLanguage = "java"
	UDFScala  UDFLanguage = "scala"
	UDFPython UDFLanguage = "python"
)

// ParseUDFLanguage reads a language as a user types it (any case).
func ParseUDFLanguage(s string) (UDFLanguage, error) {
	switch l := UDFLanguage(strings.ToLower(strings.TrimSpace(s))); l {
	case UDFJava, UDFScala, UDFPython:
		return l, nil
	}
	return "", fmt.Errorf("language %q: want java, scala or python", s)
}

// SQL is the language as Flink's DDL spells it: JAVA, SCALA, PYTHON.
func (l UDFLanguage) SQL() string { return strings.ToUpper(string(l)) }

// UDF is a user-defined function of the registry: a SQL job that calls it
// without creating it gets it as CREATE TEMPORARY FUNCTION at deploy. It
// lives in exactly one place: a project's artifact (Project, and
// ArtifactVersion, 0 for the newest at each deploy), a jar file (Jar), or
// a Python file (PyFile, for a python function).
type UDF struct {
	Name     string
	Class    string // the JVM class, or the Python "module.function"
	Language UDFLanguage

	Project         string `json:",omitempty"`
	ArtifactVersion int    `json:",omitempty"`
	Jar             string `json:",omitempty"`
	PyFile          string `json:",omitempty"`

	// Signature is the SQL signature when given, "(STRING, INT) -> STRING":
	// the validator checks the number of arguments of each call against it.
	Signature string `json:",omitempty"`
	Author    string
	CreatedAt time.Time
}

// Where says where the function lives, for lists: "project udfs (newest
// artifact)", "project udfs v3", the jar or the Python file.
func (u UDF) Where() string {
	switch {
	case u.Project != "" && u.ArtifactVersion > 0:
		return fmt.Sprintf("project %s v%d", u.Project, u.ArtifactVersion)
	case u.Project != "":
		return "project " + u.Project + " (newest)"
	case u.Jar != "":
		return u.Jar
	}
	return u.PyFile
}

// UDFRef names what a deploy injected of one function: the function and
// the artifact it came from ("proj:v3", or the file's path).
type UDFRef struct {
	Name     string
	Artifact string
}

// String is "mask@udfs:v3".
func (r UDFRef) String() string { return r.Name + "@" + r.Artifact }

// UDFRefs formats refs as "mask@udfs:v3, geo@/opt/geo.jar" ("" for none).
func UDFRefs(refs []UDFRef) string {
	s := make([]string, len(refs))
	for i, r := range refs {
		s[i] = r.String()
	}
	return strings.Join(s, ", ")
}
