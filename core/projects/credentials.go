package projects

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
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

// CheckCredentials refuses a project whose credentials would be stored
// or cannot work: a password in the repository URL, both a token
// variable and a token file, a token for a repository git does not reach
// over HTTP(S).
func CheckCredentials(p model.Project) error {
	if u, err := url.Parse(p.Repo); err == nil && u.User != nil {
		if _, has := u.User.Password(); has {
			return fmt.Errorf("project %s: the repository URL holds a password; palink stores no credentials: give the token with --token-env or --token-file", p.Name)
		}
	}
	if p.TokenEnv != "" && p.TokenFile != "" {
		return fmt.Errorf("project %s: give --token-env or --token-file, not both", p.Name)
	}
	if (p.TokenEnv != "" || p.TokenFile != "") && !strings.HasPrefix(p.Repo, "https://") && !strings.HasPrefix(p.Repo, "http://") {
		return fmt.Errorf("project %s: a token works for an https:// repository; %s is reached over ssh with your ssh agent", p.Name, p.Repo)
	}
	if p.TokenFile != "" && !filepath.IsAbs(p.TokenFile) {
		return fmt.Errorf("project %s: --token-file %s: give an absolute path (the palink that builds may run elsewhere)", p.Name, p.TokenFile)
	}
	return nil
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
