package api

import (
	"context"

	"github.com/palink/palink/model"
)

// CatalogService keeps the table catalog: named, versioned CREATE TABLE
// definitions per cluster that a SQL job of the cluster gets injected (as
// CREATE TEMPORARY TABLE) when it uses a table without defining it.
type CatalogService interface {
	// Tables lists the newest version of each catalog table of a cluster.
	//palink:api role=viewer on=cluster(cluster)
	Tables(ctx context.Context, cluster string) ([]model.CatalogTable, error)
	// Table returns one table with its versions and the jobs that use it.
	//palink:api role=viewer on=cluster(r.Cluster)
	Table(ctx context.Context, r TableRef) (TableDetail, error)
	// PutTable validates a definition and stores it as the table's next
	// version (the first with Create). It fails with model.ErrExists when
	// Create finds the table, model.ErrNotFound when an edit does not,
	// and with the reason when the definition does not validate.
	//palink:api role=admin writes what="change the table catalog" caller=Author on=cluster(r.Cluster)
	PutTable(ctx context.Context, r PutTableRequest) (TableChange, error)
	// RemoveTable removes a table with its versions; the jobs that use it
	// are refused on their next deploy.
	//palink:api role=admin writes what="change the table catalog" caller=Issuer on=cluster(r.Cluster)
	RemoveTable(ctx context.Context, r TableRef) (TableChange, error)

	// Vars lists the variables a cluster's jobs see (a cluster's own
	// override those of every cluster); cluster "" lists every variable.
	// A secret comes with where its value is read from, never the value.
	//palink:api role=viewer on=cluster(cluster)
	Vars(ctx context.Context, cluster string) ([]model.Variable, error)
	// SetVar stores a variable (Cluster "": of every cluster), replacing
	// the one of its cluster and name. A secret carries no value.
	//palink:api role=admin writes what="set a variable" caller=Author on=cluster(v.Cluster)
	SetVar(ctx context.Context, v model.Variable) (model.Variable, error)
	// RemoveVar removes the variable of (Cluster, Name).
	//palink:api role=admin writes what="remove a variable" caller=Issuer on=cluster(r.Cluster)
	RemoveVar(ctx context.Context, r VarRef) error
}

// VarRef names a variable: Cluster "" for every cluster's.
type VarRef struct {
	Cluster, Name string
	Issuer        string // filled by the service when empty
}

// TableRef names a catalog table.
type TableRef struct {
	Cluster, Name string
	Issuer        string // who removes it; filled by the service when empty
}

// PutTableRequest adds or edits a catalog table.
type PutTableRequest struct {
	Cluster, Name string
	SQL           string // one CREATE TABLE statement named Name
	Note          string
	Create        bool   // add: refuse a table that exists
	Author        string // filled by the service when empty
}

// TableDetail is a catalog table in depth, for `palink table show`.
type TableDetail struct {
	Table    model.CatalogTable
	Versions []model.CatalogTable // oldest first
	// Jobs are the SQL jobs of the cluster that use the table.
	Jobs []TableUse
	// Error says why the newest version no longer validates.
	Error string
}

// TableUse is one job that uses a catalog table.
type TableUse struct {
	JobID   string
	JobName string
	State   model.JobState
	// Deployed is the version the job's last deploy injected (0: none
	// recorded one).
	Deployed int
	// Own is true when the job defines the table itself: its own DDL wins
	// and a catalog change does not touch it.
	Own bool
	// Changes is true when the job's next restart or resubmit would deploy
	// with a different definition than its last deploy.
	Changes bool
}

// TableChange is what a catalog change did, and which jobs it would change
// on their next restart.
type TableChange struct {
	Table    model.CatalogTable
	Removed  bool
	Affected []TableUse
}

// ImportRequest asks for the Flink DDL of a database table (palink table
// import).
type ImportRequest struct {
	// Name is the catalog table's name.
	Name string
	// JDBC is the database's JDBC URL, as Flink's 'url' option names it;
	// its user and password parameters are the credentials to read with.
	JDBC string
	// SourceTable is the table in the database ("users", "public.users").
	SourceTable string
}

// KafkaImportRequest asks for the DDL of a Kafka topic, inferred from its
// newest records (palink table import --kafka).
type KafkaImportRequest struct {
	Name    string // the catalog table's name
	Brokers string // host:port,host:port
	Topic   string
	Format  string // json (default) or csv
	Records int    // how many of the newest records to read; 0: DefaultImportRecords
	// BrokersVar, when set, is the variable the DDL names the brokers by
	// (${BrokersVar}), so that each cluster reads its own Kafka.
	BrokersVar string
}

// DefaultImportRecords is how many records an import from Kafka reads when
// not told.
const DefaultImportRecords = 200

// ImportedTable is the DDL an import wrote, with what it could not map.
type ImportedTable struct {
	SQL      string
	Warnings []string
	// PasswordVar is the variable the DDL's 'password' names, "" when the
	// URL carried none: its value is never written into the DDL.
	PasswordVar string
	// Records (Kafka) are the records the schema was inferred from;
	// Undecodable those left out, FirstError why the first was.
	Records, Undecodable int
	FirstError           string
}
