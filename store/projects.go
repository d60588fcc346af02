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

// projectTx is the project part of a transaction, embedded in boltTx
// (newBoltTx links the two).
type projectTx struct{ *boltTx }

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
func (t projectTx) Project(name string) (model.Project, error) {
	b, err := t.bucket(bucketProjects)
	if err != nil {
		return model.Project{}, fmt.Errorf("read project %s: %w", name, err)
	}
	v := b.Get([]byte(name))
	if v == nil {
		return model.Project{}, fmt.Errorf("project %s: %w", name, ErrNotFound)
	}
	return decode[model.Project]("project", []byte(name), v)
}

// Projects returns every project, by name.
func (t projectTx) Projects() ([]model.Project, error) {
	b, err := t.bucket(bucketProjects)
	if err != nil {
		return nil, fmt.Errorf("read projects: %w", err)
	}
	var out []model.Project
	err = b.ForEach(func(k, v []byte) error {
		p, err := decode[model.Project]("project", k, v)
		out = append(out, p)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("read projects: %w", err)
	}
	return out, nil
}

// PutProject creates or replaces a project.
func (t projectTx) PutProject(p model.Project) error {
	op := "store project " + p.Name
	if err := checkProject(p); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	b, err := t.bucket(bucketProjects)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	v, err := encode("project", p.Name, p)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if err := b.Put([]byte(p.Name), v); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// AddArtifact records the project's next artifact and returns it with its
// Version; ErrNotFound if the project does not exist.
func (t projectTx) AddArtifact(a model.Artifact) (model.Artifact, error) {
	op := "record artifact of project " + a.Project
	if _, err := t.Project(a.Project); err != nil {
		return a, fmt.Errorf("%s: %w", op, err)
	}
	if a.SHA256 == "" || a.Path == "" {
		return a, fmt.Errorf("%s: no file or checksum: %w", op, ErrInvalid)
	}
	b, err := t.childForWrite(bucketArtifacts, a.Project)
	if err != nil {
		return a, fmt.Errorf("%s: %w", op, err)
	}
	seq, err := b.NextSequence()
	if err != nil {
		return a, fmt.Errorf("%s: %w", op, err)
	}
	a.Version = int(seq)
	v, err := encode("artifact", a.Project, a)
	if err != nil {
		return a, fmt.Errorf("%s: %w", op, err)
	}
	if err := b.Put(u64Key(seq), v); err != nil {
		return a, fmt.Errorf("%s: %w", op, err)
	}
	return a, nil
}

// Artifacts returns the project's artifacts, oldest first; ErrNotFound if
// the project does not exist.
func (t projectTx) Artifacts(project string) ([]model.Artifact, error) {
	if _, err := t.Project(project); err != nil {
		return nil, err
	}
	b, err := t.child(bucketArtifacts, project)
	if err != nil {
		return nil, fmt.Errorf("read artifacts of %s: %w", project, err)
	}
	if b == nil {
		return nil, nil
	}
	var out []model.Artifact
	err = b.ForEach(func(k, v []byte) error {
		a, err := decode[model.Artifact]("artifact", k, v)
		if err == nil && uint64(a.Version) != binary.BigEndian.Uint64(k) {
			err = fmt.Errorf("artifact %s v%d stored under key %x: %w", project, a.Version, k, ErrCorrupt)
		}
		out = append(out, a)
		return err
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
