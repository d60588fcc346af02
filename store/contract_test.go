package store

// The contract every Store backend must meet. A backend's test calls
// runContract with a constructor; nothing here knows about bbolt.

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/model"
)

// opener opens the store under test. Called again after the store was
// closed, it reopens the same data, for close-and-reopen checks.
type opener func(t *testing.T) Store

// backend makes the stores of the contract tests.
type backend struct {
	// fresh prepares one new, empty store for a test and returns its opener.
	fresh func(t *testing.T) opener
	// restore makes a new store from what a store's Backup wrote, the way
	// the backend restores backups, and returns its opener.
	restore func(t *testing.T, backup []byte) opener
}

// t0 is the fixed clock of the tests: stored times must come back Equal
// and, in UTC, DeepEqual.
var t0 = time.Date(2025, 11, 30, 12, 0, 0, 0, time.UTC)

func runContract(t *testing.T, b backend) {
	cases := []struct {
		name string
		fn   func(t *testing.T, open opener)
	}{
		{"JobsRoundTripAndOrder", contractJobs},
		{"UniqueIDsAndNames", contractUniqueNames},
		{"RenameCollisions", contractRename},
		{"SpecVersions", contractSpecs},
		{"CommandSeqAndIDs", contractCommandSeq},
		{"CommandReplaceRules", contractCommandReplace},
		{"CommandFilters", contractCommandFilters},
		{"Pages", contractPages},
		{"EventsAppendOnlyPerJobSeq", contractEvents},
		{"RestorePointDedup", contractRestorePoints},
		{"RestorePointStatus", contractRestorePointStatus},
		{"PruneCheckpoints", contractPruneCheckpoints},
		{"ProjectsAndArtifacts", contractProjects},
		{"AuditOrder", contractAudit},
		{"AtomicUpdate", contractAtomic},
		{"InvalidRecordsRefused", contractInvalid},
		{"CancelledContext", contractContext},
		{"ReturnedValuesAreCopies", contractCopies},
		{"ConcurrentUpdates", contractConcurrent},
		{"SerializableUpdates", contractSerializable},
		{"AlertsPerRuleAndJob", contractAlerts},
		{"ExceptionsBoundedAndDeduplicated", contractExceptions},
		{"CatalogTablesVersioned", contractCatalog},
		{"UDFRegistry", contractUDFs},
		{"VariablesPerCluster", contractVars},
		{"Teams", contractTeams},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { c.fn(t, b.fresh(t)) })
	}
	// Cases about more than one store.
	for _, c := range []struct {
		name string
		fn   func(t *testing.T, b backend)
	}{
		{"StoreIDs", contractStoreIDs},
		{"CommandIDsUniqueAcrossStores", contractCommandIDsAcrossStores},
		{"CommandIDsUniqueAcrossRestore", contractCommandIDsAcrossRestore},
	} {
		t.Run(c.name, func(t *testing.T) { c.fn(t, b) })
	}
}

// update runs fn in an Update that must succeed.
func update(t testing.TB, s Store, fn func(Tx) error) {
	t.Helper()
	if err := s.Update(context.Background(), fn); err != nil {
		t.Fatalf("update: %v", err)
	}
}

// view runs fn in a View that must succeed.
func view(t testing.TB, s Store, fn func(ReadTx) error) {
	t.Helper()
	if err := s.View(context.Background(), fn); err != nil {
		t.Fatalf("view: %v", err)
	}
}

// reopen closes s and opens the same store again.
func reopen(t *testing.T, s Store, open opener) Store {
	t.Helper()
	if err := s.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	return open(t)
}

// wantErr fails unless err matches target and its text names every entity.
func wantErr(t testing.TB, err, target error, names ...string) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("error = %v, want %v", err, target)
	}
	for _, n := range names {
		if !strings.Contains(err.Error(), n) {
			t.Errorf("error %q does not name %q", err, n)
		}
	}
}

func sampleJob(id, name string) model.Job {
	return model.Job{
		ID: id, Name: name, Kind: model.KindSQL, Cluster: "prod", SpecVersion: 1,
		Parallelism: 4, Config: map[string]string{"state.backend": "rocksdb"},
		CreatedAt: t0, UpdatedAt: t0,
	}
}

func sampleCommand(jobID string, kind model.CommandKind, state model.CommandState) model.Command {
	return model.Command{
		JobID: jobID, Kind: kind, State: state, Issuer: "ops", CreatedAt: t0,
		Params: model.CommandParams{Restore: model.RestoreLatest},
	}
}
