package projects

// Collecting the artifact: the one file the pattern matches, never one
// that leads out of the checkout, copied whole under its checksum.

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// matchOne finds the one regular file the pattern matches in the
// checkout work. A match that leads out of the checkout — a symlink, or a
// file under a symlinked directory, to elsewhere — is refused: the build
// user could point it at any file palink may read.
func matchOne(work, pattern string) (string, error) {
	matches, err := filepath.Glob(filepath.Join(work, pattern))
	if err != nil {
		return "", fmt.Errorf("artifact pattern %q: %w", pattern, err)
	}
	realWork, err := filepath.EvalSymlinks(work)
	if err != nil {
		return "", err
	}
	var files []string
	for _, m := range matches {
		rel, _ := filepath.Rel(work, m)
		real, err := filepath.EvalSymlinks(m)
		if err != nil {
			continue // a dangling symlink is no file
		}
		if real != realWork && !strings.HasPrefix(real, realWork+string(filepath.Separator)) {
			return "", fmt.Errorf("artifact %s leads out of the checkout (through a symlink, to %s): refused", rel, real)
		}
		if st, err := os.Stat(real); err == nil && st.Mode().IsRegular() {
			files = append(files, rel)
		}
	}
	switch len(files) {
	case 0:
		return "", fmt.Errorf("the build produced no file matching %q", pattern)
	case 1:
		return files[0], nil
	}
	return "", fmt.Errorf("%d files match %q (%s): make the pattern match exactly one", len(files), pattern, strings.Join(files, ", "))
}

// keep copies the artifact file (relative to the checkout work) into dir
// under its checksum's name, through a temporary file renamed into place
// once complete and synced: the file a record names is always whole. The
// file is opened within the checkout (os.Root), so a symlink swapped in
// after matchOne looked still cannot lead out of it.
func keep(work, file, dir, ext string) (path, sum string, size int64, err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", "", 0, err
	}
	root, err := os.OpenRoot(work)
	if err != nil {
		return "", "", 0, err
	}
	defer root.Close()
	in, err := root.Open(file)
	if err != nil {
		return "", "", 0, err
	}
	defer in.Close()
	if st, err := in.Stat(); err != nil || !st.Mode().IsRegular() {
		return "", "", 0, fmt.Errorf("%s is no regular file", file)
	}
	tmp, err := os.CreateTemp(dir, ".part-*")
	if err != nil {
		return "", "", 0, err
	}
	defer os.Remove(tmp.Name())
	h := sha256.New()
	size, err = io.Copy(io.MultiWriter(tmp, h), in)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", "", 0, err
	}
	sum = hex.EncodeToString(h.Sum(nil))
	path = filepath.Join(dir, sum+ext)
	if err := os.Rename(tmp.Name(), path); err != nil {
		return "", "", 0, err
	}
	return path, sum, size, nil
}
