package builtin

import (
	"fmt"
	"strconv"
	"strings"
)

// Version is a Flink release as major.minor: the patch level never changes
// the grammar, the built-in functions or the connectors' options, so it is
// dropped. The zero Version means "the newest palink knows" (Latest).
type Version struct {
	Major, Minor int
}

// The releases palink knows the SQL of, oldest and newest. A script for a
// release outside them is checked as the nearest one would be.
var (
	Oldest = Version{1, 16}
	Latest = Version{2, 3}
)

// Versions lists the releases palink knows, oldest first.
func Versions() []Version {
	return []Version{{1, 16}, {1, 17}, {1, 18}, {1, 19}, {1, 20}, {2, 0}, {2, 1}, {2, 2}, {2, 3}}
}

// ParseVersion reads a Flink version as a cluster or a user writes it:
// "1.18", "1.18.1", "v2.0", "2.1-SNAPSHOT", "2.0.0-rc1".
func ParseVersion(s string) (Version, error) {
	t := strings.TrimPrefix(strings.TrimSpace(s), "v")
	if i := strings.IndexAny(t, "-_ "); i >= 0 {
		t = t[:i]
	}
	parts := strings.Split(t, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return Version{}, fmt.Errorf("flink version %q: want major.minor, like 1.18 or 2.0.1", s)
	}
	var n [3]int
	for i, p := range parts {
		v, err := strconv.Atoi(p)
		if err != nil || v < 0 || v > 999 {
			return Version{}, fmt.Errorf("flink version %q: want major.minor, like 1.18 or 2.0.1", s)
		}
		n[i] = v
	}
	if n[0] == 0 {
		return Version{}, fmt.Errorf("flink version %q: there is no Flink 0.x", s)
	}
	return Version{n[0], n[1]}, nil
}

// String renders the version as major.minor, "latest" for the zero one.
func (v Version) String() string {
	if v.IsZero() {
		return "latest"
	}
	return strconv.Itoa(v.Major) + "." + strconv.Itoa(v.Minor)
}

// IsZero reports whether v is unset, which means Latest.
func (v Version) IsZero() bool { return v.Major == 0 && v.Minor == 0 }

// Before reports whether v is an older release than o; the zero version
// stands for Latest.
func (v Version) Before(o Version) bool {
	v, o = v.orLatest(), o.orLatest()
	return v.Major < o.Major || v.Major == o.Major && v.Minor < o.Minor
}

// AtLeast reports whether v is o or newer.
func (v Version) AtLeast(o Version) bool { return !v.Before(o) }

func (v Version) orLatest() Version {
	if v.IsZero() {
		return Latest
	}
	return v
}

// Known reports whether v is one of the releases palink knows the SQL of.
func (v Version) Known() bool {
	return !v.Before(Oldest) && !Latest.Before(v)
}
