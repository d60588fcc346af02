package projects

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

const secretToken = "ghp_S3cr3tT0kenNeverToBeSeen0123456789"

// gitHTTP serves the fixture's bare repository over git's smart HTTP
// (git http-backend as a CGI), asking for basic auth with the token.
func gitHTTP(t *testing.T, f *fixture) string {
	t.Helper()
	execPath, err := exec.Command("git", "--exec-path").Output()
	if err != nil {
		t.Skip("git --exec-path:", err)
	}
	backend := filepath.Join(strings.TrimSpace(string(execPath)), "git-http-backend")
	if _, err := os.Stat(backend); err != nil {
		t.Skip("no git-http-backend")
	}
	h := &cgi.Handler{Path: backend, Root: "/", Env: []string{"GIT_PROJECT_ROOT=" + filepath.Dir(f.bare), "GIT_HTTP_EXPORT_ALL=1"}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if user, pass, ok := r.BasicAuth(); !ok || user != "x-access-token" || pass != secretToken {
			w.Header().Set("WWW-Authenticate", `Basic realm="git"`)
			http.Error(w, "authentication required", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/" + filepath.Base(f.bare)
}

// TestTokenFromEnvOrFileNeverStored: a repository behind basic auth fails
// without its token, and builds with the token named by a variable or a
// file; the token is on no git command line, and nowhere in the store
// file, the build log, an error or the project's and artifact's JSON.
func TestTokenFromEnvOrFileNeverStored(t *testing.T) {
	f := newFixture(t)
	repo := gitHTTP(t, f)
	// A git that writes down its command lines, as ps would show them.
	argv := filepath.Join(t.TempDir(), "argv.log")
	wrapper := filepath.Join(t.TempDir(), "git")
	if err := os.WriteFile(wrapper, []byte(fmt.Sprintf("#!/bin/sh\necho \"$@\" >> %s\nexec git \"$@\"\n", argv)), 0o755); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(f.dbPath, store.Options{NoSync: true, LockTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	b := New(Options{Store: st, CacheDir: f.cache, Git: wrapper, Run: policy()})
	ctx := context.Background()
	var seen []string // every text palink showed

	p := f.project(time.Minute)
	p.Repo, p.InsecureHTTP = repo, true // the test's server is plain http on loopback
	if _, err := b.Add(ctx, p, "ana"); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = b.Build(ctx, "dedup", "", "ana", nil)
	if err == nil || !strings.Contains(err.Error(), "clone") || time.Since(start) > 20*time.Second {
		t.Fatalf("a repository that needs credentials, without them: %v after %s", err, time.Since(start))
	}

	t.Setenv("DEDUP_GIT_TOKEN", secretToken)
	p.TokenEnv = "DEDUP_GIT_TOKEN"
	saved, err := b.Add(ctx, p, "ana")
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	a1, err := b.Build(ctx, "dedup", "", "ana", &log)
	if err != nil {
		t.Fatalf("build with --token-env: %v\n%s", err, log.String())
	}
	seen = append(seen, log.String(), a1.Log, jsonOf(t, saved), jsonOf(t, a1))

	tokenFile := filepath.Join(t.TempDir(), "token")
	_ = os.WriteFile(tokenFile, []byte(secretToken+"\n"), 0o600)
	p.TokenEnv, p.TokenFile = "", tokenFile
	if saved, err = b.Add(ctx, p, "ana"); err != nil {
		t.Fatal(err)
	}
	f.commit("second", "Manifest-Version: 1.0\nMain-Class: com.acme.Dedup2\n")
	git(t, f.work, "push", "--quiet", "origin", "main")
	a2, err := b.Build(ctx, "dedup", "", "ana", nil)
	if err != nil || a2.Version != 2 {
		t.Fatalf("build (fetch) with --token-file: %+v %v", a2, err)
	}
	seen = append(seen, a2.Log, jsonOf(t, saved), jsonOf(t, a2))

	// A wrong token fails; its error names the file, not what it holds.
	_ = os.WriteFile(tokenFile, []byte("wrong-"+secretToken), 0o600)
	if _, err := b.Build(ctx, "dedup", "", "ana", nil); err == nil {
		t.Error("a wrong token built")
	} else {
		seen = append(seen, err.Error())
	}
	_ = os.Remove(tokenFile)
	if _, err := b.Build(ctx, "dedup", "", "ana", nil); err == nil || !strings.Contains(err.Error(), "read the token file "+tokenFile) {
		t.Errorf("missing token file: %v", err)
	} else {
		seen = append(seen, err.Error())
	}
	p.TokenFile, p.TokenEnv = "", "NO_SUCH_TOKEN_VAR"
	if _, err := b.Add(ctx, p, "ana"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Build(ctx, "dedup", "", "ana", nil); err == nil || !strings.Contains(err.Error(), "NO_SUCH_TOKEN_VAR is not set") {
		t.Errorf("unset token variable: %v", err)
	}
	st.Close()

	raw, _ := os.ReadFile(f.dbPath)
	seen = append(seen, string(raw))
	args, _ := os.ReadFile(argv)
	if !strings.Contains(string(args), "clone") {
		t.Fatalf("the git wrapper saw no clone: %q", args)
	}
	seen = append(seen, string(args))
	logs, _ := filepath.Glob(filepath.Join(f.cache, "dedup", "logs", "*"))
	for _, l := range logs {
		raw, _ := os.ReadFile(l)
		seen = append(seen, string(raw))
	}
	helper, _ := os.ReadFile(filepath.Join(f.cache, "dedup", "askpass.sh"))
	seen = append(seen, string(helper))
	for i, s := range seen {
		if strings.Contains(s, secretToken) || strings.Contains(s, secretToken[4:20]) {
			t.Errorf("text %d shows the token:\n%s", i, s)
		}
	}
}

func jsonOf(t *testing.T, v any) string {
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// TestCredentialsRefusedWhereTheyWouldBeStored: a password or a token in
// the URL, two token sources, a token for ssh or over plain http, a
// relative token file, a repository git would take for an option, a
// secret among the build's variables.
func TestCredentialsRefusedWhereTheyWouldBeStored(t *testing.T) {
	for _, c := range []struct {
		p    model.Project
		want string
	}{
		{model.Project{Name: "a", Repo: "https://bob:" + secretToken + "@git.acme/x.git"}, "holds a password"},
		{model.Project{Name: "a", Repo: "https://git.acme/x.git", TokenEnv: "T", TokenFile: "/t"}, "not both"},
		{model.Project{Name: "a", Repo: "git@git.acme:x.git", TokenEnv: "T"}, "ssh agent"},
		{model.Project{Name: "a", Repo: "https://git.acme/x.git", TokenFile: "token"}, "absolute path"},
		{model.Project{Name: "a", Repo: "https://" + secretToken + "@git.acme/x.git"}, "not a plain user name (it looks like a token)"},
		{model.Project{Name: "a", Repo: "https://glpat-abcdefghij0123456789@gitlab.acme/x.git"}, "not a plain user name"},
		{model.Project{Name: "a", Repo: "https://0123456789abcdef0123456789abcdef01234567@git.acme/x.git"}, "not a plain user name"},
		{model.Project{Name: "a", Repo: "http://git.acme/x.git", TokenFile: "/run/token"}, "plain http: the token would cross the network in clear"},
		{model.Project{Name: "a", Repo: "http://git.acme/x.git", TokenEnv: "T"}, "--insecure-http"},
		{model.Project{Name: "a", Repo: "--upload-pack=touch /tmp/pwned"}, "starts with '-'"},
		{model.Project{Name: "a", Repo: "https://git.acme/x.git", Ref: "--output=/etc/x"}, "ref \"--output=/etc/x\" starts with '-'"},
		{model.Project{Name: "a", Repo: "https://git.acme/x.git", Env: map[string]string{"DB_PASSWORD": "x"}}, "no secret goes there"},
		{model.Project{Name: "a", Repo: "https://git.acme/x.git", Env: map[string]string{"NPM_AUTH": secretToken}}, "no secret goes there"},
		{model.Project{Name: "a", Repo: "https://git.acme/x.git", Env: map[string]string{"A B": "x"}}, "not a variable name"},
	} {
		err := Check(c.p)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), secretToken) {
			t.Errorf("%+v: %v", c.p, err)
		}
	}
	for _, p := range []model.Project{
		{Name: "a", Repo: "https://oauth2@git.acme/x.git", TokenEnv: "T"},
		{Name: "a", Repo: "https://x-access-token@github.com/x.git", TokenEnv: "T"},
		{Name: "a", Repo: "ssh://git@git.acme/x.git"},
		{Name: "a", Repo: "http://git.acme/x.git", TokenEnv: "T", InsecureHTTP: true},
		{Name: "a", Repo: "https://git.acme/x.git", Env: map[string]string{"MAVEN_OPTS": "-Xmx2g", "https_proxy": "http://proxy:3128"}},
	} {
		if err := Check(p); err != nil {
			t.Errorf("%+v: %v", p, err)
		}
	}
}

// TestTokensOfEveryHostRefused: a token of each usual git host, set as a
// build variable, is refused whatever the variable's name; a hex string
// or an opaque string too long for a user name, put where the URL's user
// name goes, is refused too. Values that merely begin like a token, too
// short to be one, and plain user names pass.
func TestTokensOfEveryHostRefused(t *testing.T) {
	tail := "A1b2C3d4E5f6G7h8J9k0" // 20 characters: a token's random part
	for _, token := range []string{
		"ghp_" + tail, "gho_" + tail, "ghu_" + tail, "ghs_" + tail, "ghr_" + tail, "github_pat_11ABCDEFG0" + tail,
		"glpat-" + tail, "gldt-" + tail, "glrt-" + tail, "glcbt-64_" + tail, "glptt-" + tail,
		"ATBB" + tail, "xoxb-1234-" + tail, "xoxp-1234-" + tail,
		"ghp_" + tail[:16], // the shortest that counts: the prefix and 16 more
	} {
		p := model.Project{Name: "a", Repo: "https://git.acme/x.git", Env: map[string]string{"NPM_AUTH": token}}
		if err := Check(p); err == nil || !strings.Contains(err.Error(), "no secret goes there") || strings.Contains(err.Error(), token) {
			t.Errorf("a build variable holding %s: %v", token, err)
		}
	}
	for _, user := range []string{
		"0123456789abcdef0123456789abcdef",         // 32 hex digits: the length of a user name, but a token
		"AbCdEfGhIjKlMnOpQrStUvWxYz0123456789wxyz", // no known shape, longer than any user name
	} {
		if err := Check(model.Project{Name: "a", Repo: "https://" + user + "@git.acme/x.git"}); err == nil || !strings.Contains(err.Error(), "not a plain user name") {
			t.Errorf("user part %s: %v", user, err)
		}
	}
	for _, v := range []string{"xoxo", "ghr_cache", "github_pat_docs", "ghp_" + tail[:15]} {
		if err := Check(model.Project{Name: "a", Repo: "https://git.acme/x.git", Env: map[string]string{"NOTE": v}}); err != nil {
			t.Errorf("a build variable %q: %v", v, err)
		}
	}
	if err := Check(model.Project{Name: "a", Repo: "https://deploy-bot.acme@git.acme/x.git"}); err != nil {
		t.Errorf("a plain user name: %v", err)
	}
}

// TestTokenFileProblemsNamed: a token file that is missing or holds
// nothing fails the build before git runs, naming the file once and
// what is wrong with it.
func TestTokenFileProblemsNamed(t *testing.T) {
	f := newFixture(t)
	st, b := f.open()
	defer st.Close()
	tokenFile := filepath.Join(t.TempDir(), "token")
	p := f.project(time.Minute)
	p.Repo, p.TokenFile = "https://git.invalid/dedup.git", tokenFile
	if _, err := b.Add(context.Background(), p, "ana"); err != nil {
		t.Fatal(err)
	}
	_, err := b.Build(context.Background(), "dedup", "", "ana", nil)
	if want := "build dedup: project dedup: read the token file " + tokenFile + ": no such file or directory"; err == nil || !strings.Contains(err.Error(), want) ||
		strings.Count(err.Error(), tokenFile) != 1 || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing token file: %v, want %q", err, want)
	}
	_ = os.WriteFile(tokenFile, []byte(" \n"), 0o600)
	_, err = b.Build(context.Background(), "dedup", "", "ana", nil)
	if want := "the token file " + tokenFile + " is empty"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("an empty token file: %v, want %q", err, want)
	}
	if _, err := os.Stat(filepath.Join(f.cache, "dedup", "src")); err == nil {
		t.Error("git ran without a token")
	}
}
