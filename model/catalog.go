package model

import (
	"fmt"
	"strings"
	"time"
)

// CatalogTable is one version of a shared table definition: the CREATE
// TABLE text a SQL job of the cluster gets injected (as CREATE TEMPORARY
// TABLE) when it uses the table without defining it. Every saved edit is
// a new version; the store keeps them all.
type CatalogTable struct {
	Cluster string
	Name    string
	Version int
	// SQL is the CREATE TABLE statement, as the user wrote it.
	SQL       string
	Note      string
	Author    string
	CreatedAt time.Time
}

// Ref names this version.
func (t CatalogTable) Ref() CatalogRef { return CatalogRef{Name: t.Name, Version: t.Version} }

// CatalogRef names one version of a catalog table: what a command records
// of the tables it deployed with.
type CatalogRef struct {
	Name    string
	Version int
}

// String is "name@v3".
func (r CatalogRef) String() string { return fmt.Sprintf("%s@v%d", r.Name, r.Version) }

// CatalogRefs formats refs as "orders@v2, users@v1" ("" for none).
func CatalogRefs(refs []CatalogRef) string {
	s := make([]string, len(refs))
	for i, r := range refs {
		s[i] = r.String()
	}
	return strings.Join(s, ", ")
}

// ValidCatalogName reports whether name can name a catalog table: a plain
// SQL identifier (letters, digits, '_', not starting with a digit), which
// is what a job's script refers to it by.
func ValidCatalogName(name string) bool {
	if name == "" || len(name) > 128 {
		return false
	}
	for i, r := range name {
		switch {
		case r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
		case r >= '0' && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// Variable is a value a SQL job refers to as ${name}, in its SQL (the
// catalog's tables too) and its Flink config, resolved per cluster: one
// of a cluster overrides the one of every cluster (Cluster ""). A secret
// variable keeps only where its value comes from, never the value: it is
// read when a deploy or a debug run needs it, in that process.
type Variable struct {
	Cluster string // "" for every cluster
	Name    string
	Value   string // a plain variable's value; "" for a secret
	// SecretEnv, SecretFile or SecretCmd says where a secret's value comes
	// from: an environment variable of the process that deploys (the
	// agent), a file it reads, or a command it runs (sh -c, with a
	// timeout) whose standard output is the value; trailing newlines are
	// dropped.
	SecretEnv  string `json:",omitempty"`
	SecretFile string `json:",omitempty"`
	SecretCmd  string `json:",omitempty"`
	Author     string
	UpdatedAt  time.Time
}

// Secret reports whether the variable's value is a secret.
func (v Variable) Secret() bool { return v.SecretEnv != "" || v.SecretFile != "" || v.SecretCmd != "" }

// Masked is how a secret is shown, anywhere.
const Masked = "••••"

// Shown is the value as it may be shown: a secret masked, with where it
// comes from.
func (v Variable) Shown() string {
	switch {
	case v.SecretEnv != "":
		return Masked + " (env " + v.SecretEnv + ")"
	case v.SecretFile != "":
		return Masked + " (file " + v.SecretFile + ")"
	case v.SecretCmd != "":
		// Only the program: a command line may carry a token of its own.
		return Masked + " (command " + firstField(v.SecretCmd) + ")"
	}
	return v.Value
}

// firstField is the program of a command line.
func firstField(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return ""
}
