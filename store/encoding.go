package store

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/palink/palink/model"
)

// Top-level bucket names; doc.go describes what each holds.
var (
	bucketMeta              = []byte("meta")
	bucketJobs              = []byte("jobs")
	bucketJobNames          = []byte("job_names")
	bucketSpecs             = []byte("specs")
	bucketCommands          = []byte("commands")
	bucketCommandsByState   = []byte("commands_by_state")
	bucketCommandsByJob     = []byte("commands_by_job")
	bucketEvents            = []byte("events")
	bucketRestorePoints     = []byte("restore_points")
	bucketRestorePointPaths = []byte("restore_point_paths")
	bucketAudit             = []byte("audit")

	keyVersion = []byte("version")
	keyStoreID = []byte("store_id")
)

// commandIDDigits is the zero-padded width of a command id's number: wide
// enough that ids keep sorting as numbers for a billion commands.
const commandIDDigits = 9

// randomIDBytes is the randomness of a store id and of a command id's
// suffix: 6 bytes, 12 hex characters.
const randomIDBytes = 6

// CommandID is "c" and seq zero-padded: the id of a command created before
// schema 3, and the prefix of every newer command's id (newCommandID), so
// that ids sort in creation order and a cursor finds a command by its seq.
func CommandID(seq int64) string {
	return fmt.Sprintf("c%0*d", commandIDDigits, seq)
}

// newCommandID is the id of a new command with sequence number seq:
// CommandID(seq), "-" and 12 random lowercase hex characters, such as
// c000000042-3f9a1b2c4d5e. Seqs are per store, and a store restored from a
// backup hands out again the seqs used after the backup was taken; the
// random part keeps ids unique across stores and across such a restore,
// so that a YARN application tagged with one (lowercase, under YARN's 100
// characters) is never taken for another store's command.
func newCommandID(seq int64) string {
	return CommandID(seq) + "-" + randomHex()
}

// commandIDHasSeq reports whether id is an id of the command with seq: the
// old form, CommandID(seq), or the new one, with its random suffix.
func commandIDHasSeq(id []byte, seq int64) bool {
	prefix := CommandID(seq)
	if !bytes.HasPrefix(id, []byte(prefix)) {
		return false
	}
	rest := id[len(prefix):]
	return len(rest) == 0 || rest[0] == '-' && isLowerHex(rest[1:], 2*randomIDBytes)
}

// newStoreID mints a store id: 12 random lowercase hex characters.
func newStoreID() string { return randomHex() }

// validStoreID reports whether id has the form newStoreID gives.
func validStoreID(id string) bool { return isLowerHex([]byte(id), 2*randomIDBytes) }

func randomHex() string {
	b := make([]byte, randomIDBytes)
	_, _ = rand.Read(b) // crypto/rand: never fails, or the program dies
	return hex.EncodeToString(b)
}

func isLowerHex(b []byte, n int) bool {
	if len(b) != n {
		return false
	}
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// ParseCommandID reads the forms users type to name a command by its Seq:
// "42", "#42", and the old id form "c000000042" (CommandID). A full id with
// its random suffix is not a seq: look it up with ReadTx.Command.
func ParseCommandID(s string) (int64, error) {
	digits := strings.TrimPrefix(strings.TrimPrefix(s, "#"), "c")
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || n <= 0 || digits[0] == '+' {
		return 0, fmt.Errorf("parse command id %q: want c%0*d, #42 or 42", s, commandIDDigits, 42)
	}
	return n, nil
}

// u64Key encodes a sequence number as a big-endian key, so that keys order
// as numbers.
func u64Key(n uint64) []byte {
	return binary.BigEndian.AppendUint64(make([]byte, 0, 8), n)
}

// keyU64 decodes u64Key; a key of another length is a corrupt store.
func keyU64(k []byte) (uint64, error) {
	if len(k) != 8 {
		return 0, fmt.Errorf("sequence key %x is %d bytes, want 8", k, len(k))
	}
	return binary.BigEndian.Uint64(k), nil
}

// decode unmarshals a stored record. json.Unmarshal copies what it keeps,
// so the result outlives the transaction that owned v.
func decode[T any](what string, key []byte, v []byte) (T, error) {
	var rec T
	if err := json.Unmarshal(v, &rec); err != nil {
		return rec, fmt.Errorf("decode %s %q: %w", what, key, err)
	}
	return rec, nil
}

// decodeCommand decodes a stored command and checks its enums, since the
// indexes are named after its state (a record from a bug or an older
// palink without one must fail here, not as a bad index name).
func decodeCommand(key, v []byte) (model.Command, error) {
	c, err := decode[model.Command]("command", key, v)
	if err == nil {
		if err = checkCommand(c); err != nil {
			err = fmt.Errorf("decode command %q: %w", key, err)
		}
	}
	return c, err
}

// encode marshals a record for storage.
func encode(what, id string, rec any) ([]byte, error) {
	b, err := json.Marshal(rec)
	if err != nil {
		return nil, fmt.Errorf("encode %s %q: %w", what, id, err)
	}
	return b, nil
}

// cloneBytes copies a bbolt slice that must outlive its transaction or a
// later write in the same one.
func cloneBytes(b []byte) []byte {
	return append([]byte(nil), b...)
}

// The enum values a record may hold. One without a name would be stored as
// "JobKind(0)" and fail to decode, making a whole list unreadable; and
// model's String of such a value does not return (it formats itself with
// %v), so values are checked against these lists before any String call.
var (
	jobKinds          = []model.JobKind{model.KindSQL, model.KindJAR, model.KindPython}
	restorePointKinds = []model.RestorePointKind{model.Checkpoint, model.Savepoint}
	commandKinds      = []model.CommandKind{model.CmdSubmit, model.CmdRestart, model.CmdResubmit,
		model.CmdPause, model.CmdKill, model.CmdSavepoint}
	commandStates  = model.CommandStates()
	restoreChoices = []model.RestoreChoice{model.RestoreLatest, model.RestoreSavepoint,
		model.RestoreCheckpoint, model.RestoreNone, model.RestorePath}
)

// validEnum fails with ErrInvalid unless v is one of valid.
func validEnum[E ~int](what string, v E, valid []E) error {
	if slices.Contains(valid, v) {
		return nil
	}
	return fmt.Errorf("%s %d is out of range: %w", what, int(v), ErrInvalid)
}

func checkJob(j model.Job) error {
	if j.ID == "" {
		return fmt.Errorf("job %q has no id: %w", j.Name, ErrInvalid)
	}
	if j.Name == "" {
		return fmt.Errorf("job %s has no name: %w", j.ID, ErrInvalid)
	}
	if err := validEnum("kind", j.Kind, jobKinds); err != nil {
		return err
	}
	if err := validEnum("state", j.State, model.JobStates()); err != nil {
		return err
	}
	for _, rp := range []*model.RestorePoint{j.LatestCheckpoint, j.LatestSavepoint} {
		if rp != nil {
			if err := validEnum("restore point kind", rp.Kind, restorePointKinds); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkCommand(c model.Command) error {
	if c.JobID == "" {
		return fmt.Errorf("command has no job id: %w", ErrInvalid)
	}
	if err := validEnum("kind", c.Kind, commandKinds); err != nil {
		return err
	}
	if err := validEnum("state", c.State, commandStates); err != nil {
		return err
	}
	if c.Params.Restore != 0 {
		if err := validEnum("restore choice", c.Params.Restore, restoreChoices); err != nil {
			return err
		}
	}
	return nil
}

func checkEvent(e model.Event) error {
	if e.JobID == "" {
		return fmt.Errorf("event has no job id: %w", ErrInvalid)
	}
	if err := validEnum("from state", e.From, model.JobStates()); err != nil {
		return err
	}
	return validEnum("to state", e.To, model.JobStates())
}

func checkRestorePoint(rp model.RestorePoint) error {
	if rp.JobID == "" {
		return fmt.Errorf("restore point %q has no job id: %w", rp.Path, ErrInvalid)
	}
	if rp.Path == "" {
		return fmt.Errorf("restore point of job %s has no path: %w", rp.JobID, ErrInvalid)
	}
	if err := validEnum("restore point kind", rp.Kind, restorePointKinds); err != nil {
		return err
	}
	return validEnum("savepoint status", rp.Status, model.SavepointStatuses())
}
