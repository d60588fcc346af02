package projects

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestArtifactPatternEdges: the artifact is the one regular file the
// pattern matches: a dangling symlink beside it is no file, a symlink to
// the checkout itself is no file either (and does not lead out of it),
// and a pattern that is no pattern is named as such.
func TestArtifactPatternEdges(t *testing.T) {
	f := newFixture(t)
	st, b := f.open()
	defer st.Close()
	p := f.project(time.Minute)
	for _, c := range []struct{ build, artifact, want string }{
		// out/a.jar comes first: a dangling link must not end the search.
		{"mkdir -p out && ln -s nowhere.jar out/a.jar && echo real > out/b.jar", "out/*.jar", ""},
		{"mkdir -p out && ln -s .. out/app.jar", "out/*.jar", `the build produced no file matching "out/*.jar"`},
		{"mkdir -p out && echo real > out/app.jar", "out/[.jar", `artifact pattern "out/[.jar": syntax error in pattern`},
	} {
		p.Build, p.Artifact = c.build, c.artifact
		a, raw, err := buildOnce(t, b, p)
		switch {
		case c.want == "" && (err != nil || raw != "real\n" || a.File != "out/b.jar"):
			t.Errorf("%s: %+v %q %v", c.build, a, raw, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want %q", c.build, err, c.want)
		}
	}
}

// TestKeepStaysInTheCheckout: the copy of the artifact opens it within
// the checkout, so a symlink swapped in after the match was checked (to
// a file of palink's, or to a directory) is refused, and nothing is kept.
func TestKeepStaysInTheCheckout(t *testing.T) {
	work, kept := t.TempDir(), filepath.Join(t.TempDir(), "artifacts")
	secret := filepath.Join(t.TempDir(), "palink.db")
	if err := os.WriteFile(secret, []byte("palink's own"), 0o600); err != nil {
		t.Fatal(err)
	}
	_ = os.MkdirAll(filepath.Join(work, "out", "classes"), 0o755)
	for _, c := range []struct{ target, want string }{
		{secret, "out/app.jar: path escapes from parent"},
		{"classes", "out/app.jar is no regular file"},
	} {
		link := filepath.Join(work, "out", "app.jar")
		_ = os.Remove(link)
		if err := os.Symlink(c.target, link); err != nil {
			t.Fatal(err)
		}
		if path, _, _, err := keep(work, "out/app.jar", kept, ".jar"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("a symlink to %s: kept %q, %v, want %q", c.target, path, err, c.want)
		}
	}
	if left, _ := os.ReadDir(kept); len(left) != 0 {
		t.Errorf("%d files kept", len(left))
	}
}

// TestKeepOfAVanishedCheckout: a checkout removed between the match and
// the copy (by a process the build left outside its group) fails the
// copy with the reason; palink goes on.
func TestKeepOfAVanishedCheckout(t *testing.T) {
	work := filepath.Join(t.TempDir(), "work")
	if _, _, _, err := keep(work, "out/app.jar", filepath.Join(t.TempDir(), "artifacts"), ".jar"); err == nil || !strings.Contains(err.Error(), "no such file or directory") {
		t.Errorf("keep from a checkout that is gone: %v", err)
	}
}
