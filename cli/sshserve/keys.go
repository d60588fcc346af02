package sshserve

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	gossh "golang.org/x/crypto/ssh"

	"github.com/palink/palink/model"
)

// ReadOnlyOption is the authorized keys option that makes a key's sessions
// read-only, whatever its user's roles: `read-only ssh-ed25519 AAAA… bob`.
const ReadOnlyOption = "read-only"

// holder is who a key is, from its line in the authorized keys file.
type holder struct {
	user     string
	readOnly bool
}

// entry is one line of the authorized keys: a key and its holder.
type entry struct {
	key []byte // the key's wire form
	holder
}

// readAuthorized reads the authorized keys file at path. Each line is
// OpenSSH's form with the key's user as its comment (`ssh-ed25519 AAAA…
// alice`); a line without a user palink can name is skipped, and said so
// in skipped.
func readAuthorized(path string) (es []entry, skipped []string, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("read the authorized keys: %w", err)
	}
	for n, line := range bytes.Split(b, []byte("\n")) {
		text := strings.TrimSpace(string(line))
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		k, comment, options, _, err := gossh.ParseAuthorizedKey(line)
		switch {
		case err != nil:
			skipped = append(skipped, fmt.Sprintf("%s line %d: %v", path, n+1, err))
		case !model.ValidUserName(comment):
			skipped = append(skipped, fmt.Sprintf("%s line %d: the key's user (its comment) %q is no user name", path, n+1, comment))
		default:
			es = append(es, entry{key: k.Marshal(), holder: holder{user: comment, readOnly: slices.Contains(options, ReadOnlyOption)}})
		}
	}
	return es, skipped, nil
}

// authorized finds key in the authorized keys file at path, read afresh:
// a line removed takes effect at once.
func authorized(path string, key gossh.PublicKey) (h holder, ok bool, skipped []string, err error) {
	es, skipped, err := readAuthorized(path)
	want := key.Marshal()
	for _, e := range es {
		if bytes.Equal(e.key, want) {
			return e.holder, true, skipped, err
		}
	}
	return holder{}, false, skipped, err
}

// hostKey is the server's private key in PEM: the file at path, made once
// (ed25519, mode 0600) when there is none, so that clients that trusted
// the host once keep trusting it. A key others may read is refused.
func hostKey(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return newHostKey(path)
	}
	if err != nil {
		return nil, fmt.Errorf("host key: %w", err)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return nil, fmt.Errorf("host key %s is readable or writable by group or others (mode %04o): refusing it (chmod 600 %s)", path, perm, path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("host key: %w", err)
	}
	if _, err := gossh.ParsePrivateKey(b); err != nil {
		return nil, fmt.Errorf("host key %s: %w", path, err)
	}
	return b, nil
}

func newHostKey(path string) ([]byte, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("generate a host key: %w", err)
	}
	block, err := gossh.MarshalPrivateKey(priv, "palink host key")
	if err != nil {
		return nil, fmt.Errorf("generate a host key: %w", err)
	}
	b := pem.EncodeToMemory(block)
	// O_EXCL: two servers started at once keep one key, the first's.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return hostKey(path)
	}
	if err != nil {
		return nil, fmt.Errorf("write the host key: %w", err)
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		os.Remove(path)
		return nil, fmt.Errorf("write the host key %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("write the host key %s: %w", path, err)
	}
	return b, nil
}
