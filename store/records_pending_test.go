package store

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/palink/palink/model"
)

// countingKV counts the command records a transaction reads.
type countingKV struct {
	kv
	commands int
}

func (c *countingKV) get(b bucket, k []byte) ([]byte, error) {
	if b[0] == string(bucketCommands) {
		c.commands++
	}
	return c.kv.get(b, k)
}

func (c *countingKV) getMany(b bucket, keys [][]byte) ([][]byte, error) {
	if b[0] == string(bucketCommands) {
		c.commands += len(keys)
	}
	return c.kv.getMany(b, keys)
}

// TestAJobsPendingCommandAmongAFleets: a job's queued command is found
// through the state index without reading the queued commands of every
// other job (a mass restart queues hundreds, and every action asks for
// its job's): the index names each command's job. An entry written before
// it did (empty) is still read, and counted.
func TestAJobsPendingCommandAmongAFleets(t *testing.T) {
	s := openT(t, filepath.Join(t.TempDir(), "palink.db"), Options{NoSync: true})
	var mine model.Command
	update(t, s, func(tx Tx) error {
		for i := range 100 {
			id := fmt.Sprintf("j%03d", i)
			if err := tx.CreateJob(sampleJob(id, "job-"+id)); err != nil {
				return err
			}
			c, err := tx.PutCommand(sampleCommand(id, model.CmdRestart, model.CmdUndo))
			if err != nil {
				return err
			}
			if i == 42 {
				mine = c
			}
		}
		return nil
	})
	pending := func() ([]model.Command, int) {
		var got []model.Command
		var n int
		err := s.db.View(func(btx *bolt.Tx) error {
			k := &countingKV{kv: boltKV{btx}}
			r := newRecords(k)
			defer r.close()
			var err error
			got, err = r.Commands(CommandFilter{JobID: "j042", States: []model.CommandState{model.CmdUndo, model.CmdDoing}})
			n = k.commands
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return got, n
	}
	got, read := pending()
	if len(got) != 1 || got[0].ID != mine.ID || read != 1 {
		t.Errorf("j042's pending commands = %v, reading %d command records; want %s, reading 1", got, read, mine.ID)
	}
	// An index entry of an older palink names no job: read to be sure.
	if err := s.db.Update(func(btx *bolt.Tx) error {
		return boltKV{btx}.put(in(bucketCommandsByState, model.CmdUndo.String()), []byte(mine.ID), nil)
	}); err != nil {
		t.Fatal(err)
	}
	if got, read := pending(); len(got) != 1 || got[0].ID != mine.ID || read != 1 {
		t.Errorf("with its index entry empty: %v, reading %d records; want %s, reading 1", got, read, mine.ID)
	}
	if err := s.Check(context.Background()); err != nil {
		t.Errorf("a store with an empty state index entry: %v", err)
	}
	// One that names another job is damage, which the check names.
	if err := s.db.Update(func(btx *bolt.Tx) error {
		return boltKV{btx}.put(in(bucketCommandsByState, model.CmdUndo.String()), []byte(mine.ID), []byte("j007"))
	}); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("commands_by_state/UNDO lists command %s as one of job j007; it is of job j042", mine.ID)
	if err := s.Check(context.Background()); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("check of a state index entry naming another job = %v, want %q", err, want)
	}
}
