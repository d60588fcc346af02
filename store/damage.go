package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// How the store meets a damaged file (doc.go, "Damaged files"): Open looks
// at the file before using it, and every transaction runs under guard.

// damageError is ErrCorrupt with its own message: the operation, the file,
// what is wrong with it, and the command that restores it from a backup.
type damageError struct {
	op, path string
	what     string // what is wrong, for `palink store check` to list
	more     string // advice after the restore command, if any
}

func (e *damageError) Error() string {
	return fmt.Sprintf("%s store %s: the file is damaged: %s; %s%s", e.op, e.path, e.what, RestoreAdvice(e.path), e.more)
}

func (e *damageError) Unwrap() error { return ErrCorrupt }

func damaged(op, path, what string) error {
	return &damageError{op: op, path: path, what: what}
}

// RestoreAdvice is the command that puts a backup in place of the store at
// path, as error messages give it. --db names the file whatever config or
// flags the damaged palink ran with, so the command works as written.
func RestoreAdvice(path string) string {
	return "restore it from a backup: palink --db " + shellQuote(path) + " store restore BACKUP"
}

// shellQuote quotes s for a POSIX shell unless it needs no quoting.
func shellQuote(s string) string {
	safe := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+:,@%=", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// guard runs fn, which reads or writes the mapped file through bbolt, and
// turns what bbolt does on a damaged page into an ErrCorrupt error: bbolt
// panics (page id and type assertions, an invalid freelist, a page above the
// high water mark) in the goroutine that runs the transaction, here; and a
// read past the end of the mapping faults, which SetPanicOnFault turns into
// a panic of this goroutine too. A panic raised outside bbolt, such as one
// in the caller's fn, is a bug, not damage, and goes on unchanged.
func guard(op, path string, fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if !fromBbolt(r) {
				panic(r)
			}
			err = damaged(op, path, "bbolt: "+panicText(r))
		}
	}()
	return fn()
}

// fromBbolt reports whether the panic being recovered (r) comes from bbolt
// reading the file: a memory fault, or a panic whose innermost frame outside
// the runtime is bbolt's. Called from guard's deferred function, while the
// panicking frames are still on the stack.
func fromBbolt(r any) bool {
	if _, ok := r.(interface{ Addr() uintptr }); ok {
		// A fault at an address (not nil): the only memory palink reads
		// through unsafe pointers is bbolt's map of the file.
		return true
	}
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs)])
	inPanic := false
	for {
		f, more := frames.Next()
		switch {
		case f.Function == "runtime.gopanic":
			inPanic = true
		case inPanic && !strings.HasPrefix(f.Function, "runtime."):
			return strings.HasPrefix(f.Function, "go.etcd.io/bbolt")
		}
		if !more {
			return false
		}
	}
}

// panicText is a recovered panic as one line of bounded length.
func panicText(r any) string {
	s := strings.Join(strings.Fields(fmt.Sprint(r)), " ")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// statStore looks at what is at path before bbolt opens it: it reports
// whether nothing is there (so a store may be created), and fails for what
// can never be a store: a directory, a device, an empty file. An empty file
// is refused rather than made into a new store, since it is most often a
// store that lost its contents.
func statStore(path string) (missing bool, err error) {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return true, nil
	case errors.Is(err, fs.ErrPermission):
		return false, permissionError(path, err, false)
	case err != nil:
		return false, fmt.Errorf("open store %s: %w", path, err)
	case fi.IsDir():
		return false, fmt.Errorf("open store %s: it is a directory, not a store file; point --db (or store: in the config) at a file, such as %s",
			path, filepath.Join(path, "palink.db"))
	case !fi.Mode().IsRegular():
		return false, fmt.Errorf("open store %s: it is not a regular file (%v)", path, fi.Mode().Type())
	case fi.Size() == 0:
		return false, emptyError(path)
	}
	return false, nil
}

// emptyError refuses an empty file, which may have lost a store or never
// held one.
func emptyError(path string) error {
	return &damageError{op: "open", path: path, what: "it is empty (0 bytes)",
		more: " (or, if it never held a store, delete it to start a new one)"}
}

// permissionError explains a store file this user may not open.
func permissionError(path string, err error, readOnly bool) error {
	why := "permission denied"
	if owner := describeOwner(path); owner != "" {
		why += " (" + owner + ")"
	}
	advice := "run palink as the file's owner or fix its mode, or let one `palink agent` own the store: every palink started without --db then talks to it"
	if !readOnly && canRead(path) {
		advice += "; to only look, add --read-only"
	}
	return &sentinelError{msg: fmt.Sprintf("open store %s: %s; %s", path, why, advice), is: err}
}

// lockWait turns Options.LockTimeout into bbolt's Timeout.
func lockWait(d time.Duration) time.Duration {
	switch {
	case d == 0:
		return DefaultLockTimeout
	case d < 0:
		// bbolt's 0 means "wait forever"; the smallest wait tries once.
		return time.Nanosecond
	}
	return d
}

// openBolt opens an existing store file with bbolt, never creating one, and
// names what went wrong in the store's terms.
func openBolt(path string, readOnly, noSync bool, timeout time.Duration) (*bolt.DB, error) {
	var file *os.File
	opts := &bolt.Options{
		Timeout:  timeout,
		ReadOnly: readOnly,
		NoSync:   noSync,
		OpenFile: func(name string, flag int, perm os.FileMode) (*os.File, error) {
			// A store comes into being only through create: a file that
			// vanished, or emptied, since statStore is not made anew.
			f, err := os.OpenFile(name, flag&^os.O_CREATE, perm)
			if err != nil {
				return nil, err
			}
			if fi, err := f.Stat(); err == nil && fi.Size() == 0 {
				_ = f.Close()
				return nil, errEmptyFile
			}
			file = f
			return f, nil
		},
	}
	var db *bolt.DB
	err := guard("open", path, func() (err error) {
		db, err = bolt.Open(path, 0o600, opts)
		return err
	})
	var dmg *damageError
	switch {
	case err == nil:
		return db, nil
	case errors.As(err, &dmg):
		// bbolt panicked inside Open, leaving its file open and locked.
		if file != nil {
			_ = file.Close()
		}
		return nil, err
	case errors.Is(err, bolterrors.ErrTimeout):
		return nil, lockedError(path, readOnly, timeout)
	case errors.Is(err, errEmptyFile):
		return nil, emptyError(path)
	case errors.Is(err, fs.ErrPermission):
		return nil, permissionError(path, err, readOnly)
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("open store %s: %w (it went away while palink opened it)", path, err)
	case errors.Is(err, bolterrors.ErrInvalid):
		return nil, damaged("open", path, "no bbolt header (neither meta page has bbolt's magic number): it was overwritten, or it is not a palink store")
	case errors.Is(err, bolterrors.ErrChecksum):
		return nil, damaged("open", path, "both of bbolt's meta pages fail their checksum")
	case errors.Is(err, bolterrors.ErrVersionMismatch):
		return nil, damaged("open", path, "bbolt's meta pages have an unknown format version")
	case strings.Contains(err.Error(), "file size too small"):
		// bbolt's own wording, without a sentinel: shorter than two pages.
		size := "too few bytes"
		if fi, serr := os.Stat(path); serr == nil {
			size = fmt.Sprintf("%d bytes", fi.Size())
		}
		return nil, damaged("open", path, "it is truncated: "+size+", less than bbolt's two meta pages")
	}
	return nil, fmt.Errorf("open store %s: %w", path, err)
}

var errEmptyFile = errors.New("empty file")

// pageProblems checks bbolt's structure in tx, whose file has size bytes:
// that the file holds every page its meta page counts (a truncated file is
// read no further), then bbolt's own check, every page reachable or free
// and none both. tx must see the file alone: bbolt's check reads the shared
// freelist, which a concurrent writer of this process changes.
func pageProblems(tx *bolt.Tx, size int64) []string {
	if need := tx.Size(); need > size {
		return []string{fmt.Sprintf("it is truncated: %d bytes, but its meta page counts %d", size, need)}
	}
	var problems []string
	for err := range tx.Check() {
		// bbolt's check recovers its own panics on broken pages and
		// reports them as "panic: <assertion>"; the assertion is the news.
		problems = append(problems, "bbolt: "+strings.TrimPrefix(err.Error(), "panic: "))
	}
	return problems
}

// rootProblems is Open's look at the pages every read starts from, in tx,
// whose file has size bytes: that the file holds every page its meta page
// counts (a truncated file is read no further); that the freelist reads
// (a freelist page, naming itself, no page freed twice: what a writer's
// bbolt reads as it opens the file, and then allocates pages from); that
// the tree's root page reads; and that each top-level bucket's root page is
// within the file, a branch or a leaf page that names itself, in use (not
// free too). bbolt checked the meta pages as it opened the file. The work
// is the same for a store of any size: a page deeper in is checked by the
// transaction that first reads it (guard) and by the full check
// (pageProblems: CheckPages, `palink store check`).
func rootProblems(tx *bolt.Tx, size int64) []string {
	if need := tx.Size(); need > size {
		return []string{fmt.Sprintf("it is truncated: %d bytes, but its meta page counts %d", size, need)}
	}
	var problems []string
	// bbolt's check of the subtree under page 1 loads the freelist and
	// checks it, then refuses page 1 (a meta page) as out of its range, the
	// one way its API offers to read the freelist of a read-only file
	// (where Open itself would panic in bbolt, keeping the file mapped and
	// locked). Tx.Page answers "free" from then on.
	for err := range tx.Check(bolt.WithPageId(1)) {
		if msg := err.Error(); !strings.HasPrefix(msg, "page ID (1) out of range") {
			problems = append(problems, "bbolt: "+strings.TrimPrefix(msg, "panic: "))
		}
	}
	if len(problems) > 0 {
		return problems
	}
	_ = tx.ForEach(func(name []byte, b *bolt.Bucket) error {
		root := int(b.Root())
		if root == 0 {
			return nil // an inline bucket, inside the tree's root page
		}
		what := ""
		switch p, err := tx.Page(root); {
		case err != nil:
			what = err.Error()
		case p == nil:
			what = "past the last page the meta page counts"
		case p.Type == "free":
			what = "listed as free too"
		case p.Type != "branch" && p.Type != "leaf":
			what = "not a branch or leaf page but " + p.Type
		default:
			if last, _ := tx.Page(root + p.OverflowCount); last == nil {
				what = fmt.Sprintf("%d pages long, past the last page the meta page counts", 1+p.OverflowCount)
			}
		}
		if what != "" {
			problems = append(problems, fmt.Sprintf("page %d, the root of bucket %s, is %s", root, name, what))
			return nil
		}
		b.Cursor().First() // the page as every read reads it: bbolt asserts it names itself
		return nil
	})
	return problems
}

// inspect is Open's look at a file before it is used (rootProblems): a
// few pages, whatever the store's size.
func inspect(db *bolt.DB, path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("open store %s: %w", path, err)
	}
	var problems []string
	err = guard("open", path, func() error {
		return db.View(func(tx *bolt.Tx) error {
			problems = rootProblems(tx, fi.Size())
			return nil
		})
	})
	if err != nil {
		return err
	}
	if d := problemsError("open", path, problems); d != nil {
		return d
	}
	return nil
}

// problemsError is nil for no problems, else damage that names the first
// and counts the others.
func problemsError(op, path string, problems []string) *damageError {
	switch {
	case len(problems) == 1:
		return &damageError{op: op, path: path, what: problems[0]}
	case len(problems) > 1:
		return &damageError{op: op, path: path, what: fmt.Sprintf("%s (and %d more problems; `palink --db %s store check` lists them)",
			problems[0], len(problems)-1, shellQuote(path))}
	}
	return nil
}

// create makes a new store at path, where there is no file: it is written
// whole (bbolt's first pages, the buckets, the store id) to a temporary file
// beside path, then linked into place. A link never replaces a file, so a
// store another palink created meanwhile is kept (and then opened), and no
// palink ever sees a store half made.
func create(path string, opts Options) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create store %s: create its directory: %w", path, err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".new-*")
	if err != nil {
		return fmt.Errorf("create store %s: %w", path, err)
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	if err := f.Close(); err != nil {
		return fmt.Errorf("create store %s: %w", path, err)
	}
	db, err := bolt.Open(tmp, 0o600, &bolt.Options{Timeout: DefaultLockTimeout, NoSync: opts.NoSync})
	if err != nil {
		return fmt.Errorf("create store %s: %w", path, err)
	}
	b := &Bolt{db: db, path: path}
	err = b.prepareSchema()
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("create store %s: %w", path, err)
	}
	if err := os.Link(tmp, path); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("create store %s: %w", path, err)
	}
	if !opts.NoSync {
		if err := syncDir(dir); err != nil {
			return fmt.Errorf("create store %s: %w", path, err)
		}
	}
	return nil
}
