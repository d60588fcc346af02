package store

import (
	"fmt"
	"slices"

	bolt "go.etcd.io/bbolt"

	"github.com/palink/palink/model"
)

// bucketTeams holds the tenants (schema 9): teams <name> → model.Team,
// with what each owns and its members' roles.
var bucketTeams = []byte("teams")

// checkTeam refuses a team the store cannot keep as given.
func checkTeam(t model.Team) error {
	if !model.ValidTeamName(t.Name) {
		return fmt.Errorf("team name %q: letters, digits, '-', '_' and '.', at most 64: %w", t.Name, ErrInvalid)
	}
	for _, h := range t.Owns {
		if h.Cluster == "" {
			return fmt.Errorf("team %s owns a queue of no cluster: %w", t.Name, ErrInvalid)
		}
	}
	for i, m := range t.Members {
		switch {
		case !model.ValidUserName(m.User):
			return fmt.Errorf("team %s: member %q is no user name: %w", t.Name, m.User, ErrInvalid)
		case !slices.Contains(model.Roles(), m.Role):
			return fmt.Errorf("team %s: member %s has role %s: %w", t.Name, m.User, m.Role, ErrInvalid)
		case slices.ContainsFunc(t.Members[:i], func(o model.Member) bool { return o.User == m.User }):
			return fmt.Errorf("team %s lists %s twice: %w", t.Name, m.User, ErrInvalid)
		}
	}
	return nil
}

// Team returns the team of that name; ErrNotFound if none.
func (t teamRecords) Team(name string) (model.Team, error) {
	v, err := t.get(in(bucketTeams), []byte(name))
	if err != nil {
		return model.Team{}, fmt.Errorf("read team %s: %w", name, err)
	}
	if v == nil {
		return model.Team{}, fmt.Errorf("team %s: %w", name, ErrNotFound)
	}
	return decode[model.Team]("team", []byte(name), v)
}

// Teams returns every team, by name (none: an empty list).
func (t teamRecords) Teams() ([]model.Team, error) {
	out, err := all[model.Team](t.txn, in(bucketTeams), "team")
	if err != nil {
		return nil, fmt.Errorf("read teams: %w", err)
	}
	return out, nil
}

// PutTeam creates or replaces a team.
func (t teamRecords) PutTeam(tm model.Team) error {
	op := "store team " + tm.Name
	if err := checkTeam(tm); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	v, err := encode("team", tm.Name, tm)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if err := t.put(in(bucketTeams), []byte(tm.Name), v); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// migrateTo9 adds the teams' bucket.
func migrateTo9(tx *bolt.Tx) error {
	if _, err := tx.CreateBucketIfNotExists(bucketTeams); err != nil {
		return fmt.Errorf("create bucket %s: %w", bucketTeams, err)
	}
	return nil
}

// checkTeams verifies that every team decodes, is stored under its name
// and is one the store would take.
func checkTeams(b *bolt.Bucket, report func(string, ...any)) {
	if b == nil {
		return
	}
	_ = b.ForEach(func(k, v []byte) error {
		tm, err := decode[model.Team]("team", k, v)
		switch {
		case err != nil:
			report("%s: %w", bucketTeams, err)
		case tm.Name != string(k):
			report("%s: team %q stored under %q", bucketTeams, tm.Name, k)
		default:
			if err := checkTeam(tm); err != nil {
				report("%s: %w", bucketTeams, err)
			}
		}
		return nil
	})
}
