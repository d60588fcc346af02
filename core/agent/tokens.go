package agent

import (
	"bufio"
	"bytes"
	"context"
	"crypto/subtle"
	"fmt"
	"os"
	"strings"

	"github.com/palink/palink/model"
)

// Tokens are automation's static tokens (a CI job, a cron script): each
// names the user it acts as, the way an OS user is named by the socket. An
// agent reads them from a file of lines `TOKEN USER` (# comments), which
// must be its user's alone; a client presents one from a file of its own
// (ReadToken), held to the same rule.
type Tokens map[string]string

// LoadTokens reads an agent's token file.
func LoadTokens(path string) (Tokens, error) {
	b, err := readPrivate(path)
	if err != nil {
		return nil, err
	}
	out := Tokens{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		switch {
		case len(f) != 2:
			return nil, fmt.Errorf("token file %s line %d: want `TOKEN USER`", path, n)
		case len(f[0]) < 16:
			return nil, fmt.Errorf("token file %s line %d: a token of fewer than 16 characters is guessable", path, n)
		case !model.ValidUserName(f[1]):
			return nil, fmt.Errorf("token file %s line %d: %q is no user name", path, n, f[1])
		}
		out[f[0]] = f[1]
	}
	return out, sc.Err()
}

// ReadToken reads a client's token file: the token on its first line.
func ReadToken(path string) (string, error) {
	b, err := readPrivate(path)
	if err != nil {
		return "", err
	}
	tok, _, _ := strings.Cut(strings.TrimSpace(string(b)), "\n")
	if tok = strings.TrimSpace(tok); tok == "" {
		return "", fmt.Errorf("token file %s is empty", path)
	}
	return tok, nil
}

// readPrivate reads a file only its owner may read or change: a token is a
// password, and one that others could read is refused before it is used.
func readPrivate(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("token file: %w", err)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return nil, fmt.Errorf("token file %s is readable or writable by group or others (mode %04o): a token is a password; refusing it (chmod 600 %s)", path, perm, path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("token file: %w", err)
	}
	return b, nil
}

// user is the user of tok ("" for none), compared in constant time.
func (t Tokens) user(tok string) string {
	found := ""
	for k, u := range t {
		if subtle.ConstantTimeCompare([]byte(k), []byte(tok)) == 1 {
			found = u
		}
	}
	return found
}

// token makes the session its token's user: the protocol's Token call,
// which must come before any other.
func (h *session) token(args []byte) error {
	a, err := decode[box[string]](args)
	if err != nil {
		return err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.started {
		return fmt.Errorf("token: a token must come before any call: %w", model.ErrRefused)
	}
	user := h.opts.Tokens.user(a.V)
	if user == "" {
		return fmt.Errorf("token: this agent knows no such token: %w", model.ErrForbidden)
	}
	h.as(user)
	return nil
}

// presentToken sends tok as the session's first call.
func presentToken(ctx context.Context, w *wire, tok string) error {
	_, err := do[string, none](ctx, w, "Token", tok)
	return err
}
