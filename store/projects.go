package store

import (
	"encoding/binary"
	"fmt"
	"strings"

	bolt "go.etcd.io/bbolt"

	"github.com/palink/palink/model"
)

// Projects and their artifacts (schema 5):
//
//	projects                <name> → model.Project
//	artifacts/<project>     <version> → model.Artifact   bucket sequence = last version

var (
	bucketProjects  = []byte("projects")
	bucketArtifacts = []byte("artifacts")
)

func checkProject(p model.Project) error {
	switch {
	case p.Name == "" || strings.ContainsAny(p.Name, "/ \t\n"):
		return fmt.Errorf("project name %q is empty or holds '/' or a space: %w", p.Name, ErrInvalid)
	case p.Repo == "":
		return fmt.Errorf("project %s has no repository: %w", p.Name, ErrInvalid)
	case p.Build == "":
		return fmt.Errorf("project %s has no build command: %w", p.Name, ErrInvalid)
	case p.Artifact == "":
		return fmt.Errorf("project %s has no artifact pattern: %w", p.Name, ErrInvalid)
	}
	return nil
}

// Project returns the project of that name; ErrNotFound if none.
func (t projectRecords) Project(name string) (model.Project, error) {
	v, err := t.get(in(bucketProjects), []byte(name))
	if err != nil {
		return model.Project{}, fmt.Errorf("read project %s: %w", name, err)
	}
	if v == nil {
		return model.Project{}, fmt.Errorf("project %s: %w", name, ErrNotFound)
	}
	return decode[model.Project]("project", []byte(name), v)
}

// Projects returns every project, by name (none: nil).
func (t projectRecords) Projects() ([]model.Project, error) {
	var out []model.Project
	err := each(t.txn, in(bucketProjects), "project", func(_ []byte, p model.Project) error {
		out = append(out, p)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read projects: %w", err)
	}
	return out, nil
}

// PutProject creates or replaces a project.
func (t projectRecords) PutProject(p model.Project) error {
	op := "store project " + p.Name
	if err := checkProject(p); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	v, err := encode("project", p.Name, p)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if err := t.put(in(bucketProjects), []byte(p.Name), v); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// AddArtifact records the project's next artifact and returns it with its
// Version; ErrNotFound if the project does not exist.
func (t projectRecords) AddArtifact(a model.Artifact) (model.Artifact, error) {
	op := "record artifact of project " + a.Project
	if _, err := t.Project(a.Project); err != nil {
		return a, fmt.Errorf("%s: %w", op, err)
	}
	if a.SHA256 == "" || a.Path == "" {
		return a, fmt.Errorf("%s: no file or checksum: %w", op, ErrInvalid)
	}
	b := in(bucketArtifacts, a.Project)
	seq, err := t.nextSeq(b)
	if err != nil {
		return a, fmt.Errorf("%s: %w", op, err)
	}
	a.Version = int(seq)
	v, err := encode("artifact", a.Project, a)
	if err != nil {
		return a, fmt.Errorf("%s: %w", op, err)
	}
	if err := t.put(b, u64Key(seq), v); err != nil {
		return a, fmt.Errorf("%s: %w", op, err)
	}
	return a, nil
}

// Artifacts returns the project's artifacts, oldest first (none: nil);
// ErrNotFound if the project does not exist.
func (t projectRecords) Artifacts(project string) ([]model.Artifact, error) {
	if _, err := t.Project(project); err != nil {
		return nil, err
	}
	var out []model.Artifact
	err := each(t.txn, in(bucketArtifacts, project), "artifact", func(k []byte, a model.Artifact) error {
		if uint64(a.Version) != binary.BigEndian.Uint64(k) {
			return fmt.Errorf("artifact %s v%d stored under key %x: %w", project, a.Version, k, ErrCorrupt)
		}
		out = append(out, a)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read artifacts of %s: %w", project, err)
	}
	return out, nil
}

// migrateTo5 adds the projects and artifacts buckets.
func migrateTo5(tx *bolt.Tx) error {
	for _, name := range [][]byte{bucketProjects, bucketArtifacts} {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return fmt.Errorf("create bucket %s: %w", name, err)
		}
	}
	return nil
}
