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
