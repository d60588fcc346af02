package value

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestDecimalStringIsFloatString: the fast DECIMAL printing writes what
// big.Rat.FloatString writes, for exact values, values that need rounding,
// negative ones, ones near 64 bits and scales up to 20.
func TestDecimalStringIsFloatString(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	dens := []int64{1, 2, 4, 5, 8, 10, 16, 20, 25, 100, 3, 7, 1000, 1_000_000_000_000_000_000 / 10}
	nums := []int64{0, 1, -1, 5, -5, 9, 10, 99, -100, 12345, math.MaxInt64, math.MinInt64 + 1, math.MaxInt64 / 10}
	for range 2000 {
		nums = append(nums, r.Int64N(1<<62)-1<<61, r.Int64N(20000)-10000)
	}
	for _, n := range nums {
		for _, d := range dens {
			x := new(big.Rat).SetFrac64(n, d)
			for _, scale := range []int{0, 1, 2, 3, 5, 18, 20} {
				if got, want := DecimalString(x, scale), x.FloatString(scale); got != want {
					t.Fatalf("%d/%d at scale %d: %s, FloatString %s", n, d, scale, got, want)
				}
			}
		}
	}
}
