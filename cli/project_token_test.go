package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn/sim"
)

// TestProjectTokenIsAReference: --token-file is kept as an absolute path
// and --token-env as a name; -o json shows those, never the token; a
// password in the URL is refused without being echoed.
func TestProjectTokenIsAReference(t *testing.T) {
	e := newCLIEnv(t, sim.Options{}, nil)
	const token = "glpat-N0tForYourEyes42"
	dir := t.TempDir()
	_ = os.WriteFile(filepath.Join(dir, "token"), []byte(token), 0o600)
	t.Chdir(dir)
	t.Setenv("FRAUD_GIT_TOKEN", token)

	var p model.Project
	out := e.mustRun("project", "add", "fraud", "--repo", "https://git.acme/ml/fraud.git", "--token-file", "token",
		"--build", "gradle shadowJar", "--artifact", "build/libs/*-all.jar", "-o", "json")
	if err := decodeWire([]byte(out), &p); err != nil || p.TokenFile != filepath.Join(dir, "token") {
		t.Errorf("project add --token-file: %+v %v\n%s", p, err, out)
	}
	out = e.mustRun("project", "add", "fraud", "--repo", "https://git.acme/ml/fraud.git", "--token-env", "FRAUD_GIT_TOKEN",
		"--build", "gradle shadowJar", "--artifact", "build/libs/*-all.jar", "-o", "json")
	if !strings.Contains(out, `"token_env": "FRAUD_GIT_TOKEN"`) {
		t.Errorf("project add --token-env -o json:\n%s", out)
	}
	list := e.mustRun("project", "list", "-o", "json")
	_, err := e.run(context.Background(), "project", "add", "leak", "--repo", "https://bob:"+token+"@git.acme/x.git",
		"--build", "make", "--artifact", "*.jar")
	if err == nil || !strings.Contains(err.Error(), "holds a password") {
		t.Errorf("a password in the URL: %v", err)
	}
	for _, s := range []string{out, list, err.Error()} {
		if strings.Contains(s, token) {
			t.Errorf("the token shows:\n%s", s)
		}
	}
}
