package store

import (
	"bytes"
	"slices"
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
