package config

import (
	"strings"
	"testing"
)

// TestBuildSection: build: parses; a sandbox palink does not know, root as
// the build user and a relative PATH entry are errors at their line;
// bwrap missing from this host is said at config check.
func TestBuildSection(t *testing.T) {
	t.Setenv("PATH", t.TempDir()) // no bwrap here
	const head = "clusters:\n- name: a\n  rm: [http://x:8088]\n"
	cfg, ps, err := Parse("c.yaml", []byte(head+"build:\n  user: nobody\n  sandbox: bwrap\n  path: /opt/jdk/bin:/usr/bin\n  offline: true\n"))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	want := Build{User: "nobody", Sandbox: "bwrap", Path: "/opt/jdk/bin:/usr/bin", Offline: true}
	if cfg.Build != want {
		t.Errorf("build: %+v, want %+v", cfg.Build, want)
	}
	if s := ps.Error(); !strings.Contains(s, "c.yaml:6: warning: build.sandbox is bwrap but bwrap is not on the PATH") {
		t.Errorf("bwrap missing: %q", s)
	}
	for _, c := range []struct{ yaml, want string }{
		{"build:\n  sandbox: docker\n", `c.yaml:5: error: build.sandbox "docker": use bwrap or none`},
		{"build:\n  user: root\n", "c.yaml:5: error: build.user root is root"},
		{"build:\n  path: bin:/usr/bin\n", `c.yaml:5: error: build.path: "bin" is not an absolute directory`},
	} {
		_, ps, err := Parse("c.yaml", []byte(head+c.yaml))
		got := ps.Error()
		if err != nil {
			got = err.Error()
		}
		if !strings.Contains(got, c.want) {
			t.Errorf("%q: %q, want %q", c.yaml, got, c.want)
		}
	}
}
