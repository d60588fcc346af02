package core

import (
	"strings"
	"testing"
)

func TestJobNames(t *testing.T) {
	for name, want := range map[string]string{
		"orders-enrich":          "",
		"7day.rollup_v2":         "",
		"--yes":                  "must start with a letter or a digit",
		"-x":                     "must start with a letter or a digit",
		".hidden":                "must start with a letter or a digit",
		"_private":               "must start with a letter or a digit",
		"orders enrich":          "use letters, digits",
		"orders/enrich":          "use letters, digits",
		"":                       "a name is required",
		strings.Repeat("a", 101): "longer than 100",
	} {
		err := checkJobName(name)
		switch {
		case want == "" && err != nil:
			t.Errorf("%q refused: %v", name, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%q: %v, want %q", name, err, want)
		}
	}
}
