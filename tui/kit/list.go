package kit

// Clamp limits v to [lo, hi]; when hi < lo, lo wins.
func Clamp(v, lo, hi int) int {
	if v > hi {
		v = hi
	}
	if v < lo {
		v = lo
	}
	return v
}

// ScrollTo keeps cursor within the window [offset, offset+page).
func ScrollTo(cursor, offset, page, n int) int {
	if page <= 0 {
		return 0
	}
	if cursor < offset {
		offset = cursor
	}
	if cursor >= offset+page {
		offset = cursor - page + 1
	}
	return Clamp(offset, 0, max(n-page, 0))
}
