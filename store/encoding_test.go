package store

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

func TestCommandIDsSortAsNumbers(t *testing.T) {
	seqs := []int64{1, 9, 10, 99, 100, 12345, 999999999}
	var ids []string
	for _, s := range seqs {
		ids = append(ids, CommandID(s))
	}
	if !slices.IsSorted(ids) {
		t.Errorf("ids %v do not sort like their seqs", ids)
	}
	if CommandID(42) != "c000000042" {
		t.Errorf("CommandID(42) = %q", CommandID(42))
	}
	for _, s := range seqs {
		if got, err := ParseCommandID(CommandID(s)); err != nil || got != s {
			t.Errorf("ParseCommandID(CommandID(%d)) = %d, %v", s, got, err)
		}
	}
}

// TestNewCommandIDs: new ids keep sorting by seq, among themselves and
// with the old ids of a migrated store, and fit a YARN application tag.
func TestNewCommandIDs(t *testing.T) {
	var ids []string
	for i, s := range []int64{1, 9, 10, 99, 100, 12345, 999999999} {
		id := newCommandID(s)
		if i%2 == 0 {
			id = CommandID(s) // an old command's id
		}
		ids = append(ids, id)
		if !commandIDHasSeq([]byte(id), s) {
			t.Errorf("%s is not an id of #%d", id, s)
		}
		if commandIDHasSeq([]byte(id), s+1) || commandIDHasSeq([]byte(id+"0"), s) {
			t.Errorf("%s passes for another seq's id", id)
		}
	}
	if !slices.IsSorted(ids) {
		t.Errorf("ids %v do not sort like their seqs", ids)
	}
	id := newCommandID(42)
	if len(id) != len("c000000042-3f9a1b2c4d5e") || id != strings.ToLower(id) || len(id) >= 100 {
		t.Errorf("newCommandID(42) = %q, want c000000042-<12 lowercase hex>", id)
	}
	if newCommandID(42) == id || newStoreID() == newStoreID() {
		t.Error("two new ids came out the same")
	}
	for _, bad := range []string{"c000000042-3F9A1B2C4D5E", "c000000042-3f9a1b2c4d5", "c000000042-", "c000000042x"} {
		if commandIDHasSeq([]byte(bad), 42) {
			t.Errorf("%q passes for an id of #42", bad)
		}
	}
}

func TestParseCommandIDForms(t *testing.T) {
	for in, want := range map[string]int64{"#42": 42, "42": 42, "c000000042": 42, "c42": 42} {
		if got, err := ParseCommandID(in); err != nil || got != want {
			t.Errorf("ParseCommandID(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "c", "#", "x42", "c-1", "0", "+5", "42a"} {
		if got, err := ParseCommandID(in); err == nil {
			t.Errorf("ParseCommandID(%q) = %d, want an error", in, got)
		}
	}
}

func TestSeqKeysSortAsNumbers(t *testing.T) {
	prev := u64Key(0)
	for _, n := range []uint64{1, 255, 256, 65536, 1 << 40} {
		k := u64Key(n)
		if bytes.Compare(prev, k) >= 0 {
			t.Errorf("key of %d does not sort after the previous one", n)
		}
		if back, err := keyU64(k); err != nil || back != n {
			t.Errorf("keyU64(u64Key(%d)) = %d, %v", n, back, err)
		}
		prev = k
	}
	if _, err := keyU64([]byte("abc")); err == nil {
		t.Error("keyU64 accepted a 3-byte key")
	}
}
