package join

import (
	"strconv"
	"strings"
	"testing"
)

// A custom query's `?` outside quotes and comments become the dialect's
// placeholders; nothing else changes.
func FuzzPlaceholders(f *testing.F) {
	for _, s := range []string{"SELECT a FROM t WHERE k = ?", "SELECT '?' -- ?\n, ? FROM t", `SELECT "a?" , ? , ?`, "'", "--"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		n := 0
		for k := 0; k <= 3; k++ {
			out, err := placeholders(q, postgres, k)
			if err == nil {
				n++
				back, err := placeholders(q, mysqlDB, k)
				if err != nil || back != q {
					t.Fatalf("%q: MySQL form %q, %v", q, back, err)
				}
				for i := 1; i <= k; i++ {
					if !strings.Contains(out, "$"+string(rune('0'+i))) {
						t.Fatalf("%q: %q lacks $%d", q, out, i)
					}
				}
			}
		}
		if n > 1 {
			t.Fatalf("%q accepted for two key counts", q)
		}
	})
}

func FuzzParseFlinkDuration(f *testing.F) {
	for _, s := range []string{"10 s", "5min", "100", "2 days", "1ns", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseFlinkDuration(s)
		if err != nil {
			return
		}
		if d < 0 {
			t.Fatalf("%q: negative %v", s, d)
		}
		if back, err := ParseFlinkDuration(strconv.FormatInt(d.Nanoseconds(), 10) + " ns"); err != nil || back != d {
			t.Fatalf("%q is %v, but %d ns reads as %v, %v", s, d, d.Nanoseconds(), back, err)
		}
	})
}
