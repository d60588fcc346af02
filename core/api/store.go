package api

import "time"

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

// Leadership is who runs the background of a store — the scheduler, state
// sync, the restart policy, periodic savepoints and the alert rules — and
// who stands ready to (FleetService.Leadership).
type Leadership struct {
	// Store names the store.
	Store string
	// Shared: the store is on etcd, shared by palinks on several hosts,
	// which elect one leader among them. On a file, the palink that holds
	// the store (an agent, a TUI, `palink sync`) leads it alone.
	Shared bool
	// Leader leads; nil when none does (no palink runs the background, or
	// the last leader's lease is running out).
	Leader *Member
	// Term is the leader's term on etcd: the create revision of its
	// election key, which fences its writes.
	Term int64
	// Members are the palinks that run or stand ready to run the
	// background, the leader among them, the longest running first.
	Members []Member
	// Self is the ID of the palink that answered, when it is a member.
	Self string
	// Unreachable says why etcd could not be read ("" when it could): the
	// palink that answered serves what it read last and acknowledges no
	// action it could not write.
	Unreachable string
}

// Member is one palink that runs, or stands ready to run, the background
// of a store.
type Member struct {
	// ID is unique to the process: its host, pid and a random part.
	ID   string
	Host string
	PID  int
	// What runs it: agent, tui, sync or cli.
	What    string
	Version string
	Started time.Time
	// Leads: this member leads, since Since.
	Leads bool
	Since time.Time
	// Terms it led and, of their writes, how many the fence refused
	// because the term had ended (a deposed leader's), as of its last
	// term.
	Terms  int
	Fenced int64
}
