package config

import (
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
)

// Build says how palink runs the commands it does not write: project
// builds and secret variables' commands. They never get palink's
// environment (cluster passwords, tokens): theirs is built from nothing —
// PATH, HOME and TMPDIR in a fresh directory, LANG, and what a project
// declares.
type Build struct {
	// User is who the commands run as where palink runs as root; as root
	// without it palink refuses to build or run a secret command. An
	// unprivileged user of their own (palink-build), never root. Where
	// palink is not root: unset, or palink's own user.
	User string `yaml:"user,omitempty"`
	// Sandbox is "bwrap" (builds run inside bubblewrap: the system
	// read-only, the build's own directory the only path written) or
	// "none" (the default).
	Sandbox string `yaml:"sandbox,omitempty"`
	// Path is the commands' PATH; default /usr/local/bin:/usr/bin:/bin.
	Path string `yaml:"path,omitempty"`
	// Offline takes the network away from builds in bubblewrap; by
	// default they keep it, for Maven and Gradle fetch dependencies.
	Offline bool `yaml:"offline,omitempty"`
}

// checkBuild checks the build: section. What this host lacks (bwrap, the
// user) is a warning: a config shared by a team is also read where
// nothing is built, and a build there says the same as an error.
func (c *Config) checkBuild(add func(path string, warn bool, format string, args ...any)) {
	b := c.Build
	switch b.Sandbox {
	case "", "none":
	case "bwrap":
		if _, err := exec.LookPath("bwrap"); err != nil {
			add("build.sandbox", true, "build.sandbox is bwrap but bwrap is not on the PATH: builds here are refused; install bubblewrap (Debian: apt-get install bubblewrap)")
		}
	default:
		add("build.sandbox", false, "build.sandbox %q: use bwrap or none", b.Sandbox)
	}
	if b.User != "" {
		u, err := user.Lookup(b.User)
		switch {
		case err != nil:
			add("build.user", true, "build.user %s: no such user on this host: builds and secret commands here are refused", b.User)
		case u.Uid == "0":
			add("build.user", false, "build.user %s is root: give an unprivileged user (builds never run as root)", b.User)
		}
	}
	for _, dir := range filepath.SplitList(b.Path) {
		if !filepath.IsAbs(dir) {
			add("build.path", false, "build.path: %q is not an absolute directory", dir)
		}
	}
	if strings.TrimSpace(b.Path) == "" && b.Path != "" {
		add("build.path", false, "build.path is blank")
	}
}
