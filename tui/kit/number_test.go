package kit

import "testing"

func TestNumberAndCompact(t *testing.T) {
	for _, c := range []struct {
		v             float64
		number, short string
	}{
		{0, "0", "0"},
		{0.428571, "0.4286", "0.43"},
		{12.5, "12.5", "12.5"},
		{850, "850", "850"},
		{1181116006.4, "1181116006", "1.2G"},
		{1732860099933, "1732860099933", "1732.9G"},
		{48_000, "48000", "48.0k"},
		{-3.25, "-3.25", "-3.2"},
	} {
		if got := Number(c.v); got != c.number {
			t.Errorf("Number(%v) = %q, want %q", c.v, got, c.number)
		}
		if got := Compact(c.v); got != c.short {
			t.Errorf("Compact(%v) = %q, want %q", c.v, got, c.short)
		}
	}
}
