package api

// StoreReport is what `palink store check` found in a store file.
type StoreReport struct {
	Path   string
	Size   int64 // bytes
	Schema int   // the file's schema version (-1: unreadable)
	// Current is the schema this palink writes: records and indexes are
	// checked at that schema only.
	Current int
	ID      string
	// Jobs and Commands count the records, when they could be read.
	Jobs, Commands int
	// Problems lists what is wrong, in the order found; empty for a sound store.
	Problems []string
}

// StoreMigration is what `palink store migrate` copied and compared.
type StoreMigration struct {
	From, To string
	// Records and Sequences count the entries copied and found equal in
	// both stores: every record and index entry, every bucket sequence.
	Records, Sequences int
	// Revision is the etcd revision a store on etcd was copied at (0 for
	// a file).
	Revision int64
}
