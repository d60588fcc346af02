package projects

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/palink/palink/model"
)

// askpassScript answers git's prompts for an HTTPS repository: the user
// name (asked only when the URL names none) and the token, both from the
// environment git passes on, so the token is never on a command line
// (which ps shows) nor in a file palink writes.
const askpassScript = `#!/bin/sh
case "$1" in
[Uu]sername*) printf '%s\n' "${PALINK_GIT_USER:-x-access-token}" ;;
*) printf '%s\n' "$PALINK_GIT_TOKEN" ;;
esac
`

// Check refuses a project palink must not store or run: credentials
// that would be stored (a password or a token in the URL) or that would
// cross the network in clear, a repository git could take for an option,
// and build variables that are not names or hold a secret.
func Check(p model.Project) error {
	if strings.HasPrefix(p.Repo, "-") {
		return fmt.Errorf("project %s: repository %q starts with '-': git would read it as an option", p.Name, p.Repo)
	}
	if strings.HasPrefix(p.Ref, "-") {
		return fmt.Errorf("project %s: ref %q starts with '-': git would read it as an option", p.Name, p.Ref)
	}
	if err := checkCredentials(p); err != nil {
		return err
	}
	return checkEnv(p)
}

// checkCredentials refuses credentials that would be stored or cannot
// work: a password or a token in the repository URL, both a token
// variable and a token file, a token for a repository git does not reach
// over HTTP(S), or over plain HTTP unless the project says it may.
func checkCredentials(p model.Project) error {
	if u, err := url.Parse(p.Repo); err == nil && u.User != nil {
		if _, has := u.User.Password(); has {
			return fmt.Errorf("project %s: the repository URL holds a password; palink stores no credentials: give the token with --token-env or --token-file", p.Name)
		}
		if !plainUserName(u.User.Username()) {
			return fmt.Errorf("project %s: the repository URL's user part is not a plain user name (it looks like a token); palink stores no credentials: "+
				"give the token with --token-env or --token-file, and at most a user name such as git or x-access-token in the URL", p.Name)
		}
	}
	if p.TokenEnv != "" && p.TokenFile != "" {
		return fmt.Errorf("project %s: give --token-env or --token-file, not both", p.Name)
	}
	token := p.TokenEnv != "" || p.TokenFile != ""
	if token && !strings.HasPrefix(p.Repo, "https://") && !strings.HasPrefix(p.Repo, "http://") {
		return fmt.Errorf("project %s: a token works for an https:// repository; %s is reached over ssh with your ssh agent", p.Name, p.Repo)
	}
	if token && strings.HasPrefix(p.Repo, "http://") && !p.InsecureHTTP {
		return fmt.Errorf("project %s: %s is plain http: the token would cross the network in clear; use https, or --insecure-http if the network is yours", p.Name, p.Repo)
	}
	if p.TokenFile != "" && !filepath.IsAbs(p.TokenFile) {
		return fmt.Errorf("project %s: --token-file %s: give an absolute path (the palink that builds may run elsewhere)", p.Name, p.TokenFile)
	}
	return nil
}

// userNameRE is a plain user name: what git hosts put in a URL's user
// part (git, x-access-token, oauth2, gitlab-ci-token, a login).
var userNameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$`)

// tokenPrefixes begin the tokens of the usual git hosts: GitHub's
// (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_), GitLab's (glpat-, gldt-,
// glrt-, glcbt-…), Bitbucket's (ATBB) and Slack-style ones (xox).
var tokenPrefixes = []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "gldt-", "glrt-", "glcbt-", "glptt-", "atbb", "xox"}

// hexTokenRE is an old-style token: 20 or more hex digits.
var hexTokenRE = regexp.MustCompile(`^[0-9a-fA-F]{20,}$`)

// plainUserName reports whether a URL's user part is a user name rather
// than a token: short, letters, digits, '.', '_' and '-', with no token
// prefix and not a long hex string. The rule is simple on purpose: a
// login longer than 32 characters goes in the credential helper instead.
func plainUserName(s string) bool {
	if !userNameRE.MatchString(s) || hexTokenRE.MatchString(s) {
		return false
	}
	low := strings.ToLower(s)
	for _, p := range tokenPrefixes {
		if strings.HasPrefix(low, p) {
			return false
		}
	}
	return true
}

// envNameRE is an environment variable's name.
var envNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// secretNameRE names variables that hold secrets by convention.
var secretNameRE = regexp.MustCompile(`(?i)(PASSWORD|PASSWD|SECRET|TOKEN|CREDENTIAL|PRIVATE_KEY|API_KEY|ACCESS_KEY)`)

// checkEnv refuses build variables that are no names, or that hold a
// secret: a project's variables are stored and listed in clear.
func checkEnv(p model.Project) error {
	for k, v := range p.Env {
		if !envNameRE.MatchString(k) {
			return fmt.Errorf("project %s: --env %s: not a variable name", p.Name, k)
		}
		if secretNameRE.MatchString(k) || looksLikeToken(v) {
			return fmt.Errorf("project %s: --env %s: a project's variables are stored and shown in clear, so no secret goes there; "+
				"a build that needs one reads it from a file its user may read", p.Name, k)
		}
	}
	return nil
}

// looksLikeToken reports whether a value looks like a git host's token.
func looksLikeToken(v string) bool {
	low := strings.ToLower(v)
	for _, p := range tokenPrefixes {
		if strings.HasPrefix(low, p) && len(v) >= len(p)+16 {
			return true
		}
	}
	return false
}

// gitAuth is the environment that lets git fetch p with its token: the
// askpass helper (written into dir) and the token, read now. It is nil
// for a project without one (ssh agent, credential helper).
func gitAuth(p model.Project, dir string) ([]string, error) {
	var token string
	switch {
	case p.TokenEnv != "":
		token = strings.TrimSpace(os.Getenv(p.TokenEnv))
		if token == "" {
			return nil, fmt.Errorf("project %s: the token variable %s is not set for the palink that builds (the agent's environment, when one runs)", p.Name, p.TokenEnv)
		}
	case p.TokenFile != "":
		raw, err := os.ReadFile(p.TokenFile)
		if err != nil {
			var pe *os.PathError
			if errors.As(err, &pe) {
				err = pe.Err // the path is named below; the error adds nothing of the file
			}
			return nil, fmt.Errorf("project %s: read the token file %s: %w", p.Name, p.TokenFile, err)
		}
		if token = strings.TrimSpace(string(raw)); token == "" {
			return nil, fmt.Errorf("project %s: the token file %s is empty", p.Name, p.TokenFile)
		}
	default:
		return nil, nil
	}
	helper := filepath.Join(dir, "askpass.sh")
	if err := os.WriteFile(helper, []byte(askpassScript), 0o700); err != nil {
		return nil, fmt.Errorf("project %s: write the askpass helper: %w", p.Name, err)
	}
	_ = os.Chmod(helper, 0o700) // WriteFile keeps the mode of a file that exists
	return []string{"GIT_ASKPASS=" + helper, "PALINK_GIT_TOKEN=" + token}, nil
}
