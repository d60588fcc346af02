package core

import (
	"archive/zip"
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/palink/palink/model"
)

// maxManifest bounds the manifest read from a jar.
const maxManifest = 1 << 20

// withEntryClass fills a JAR spec's entry class, when none was given, from
// its jar's manifest as `flink run` and the JobManager's /jars/:id/run do:
// Flink's program-class, else Main-Class. EntryClassFrom says which.
func withEntryClass(s model.Spec) (model.Spec, error) {
	if s.EntryClass != "" || s.JarPath == "" {
		return s, nil
	}
	class, attr, err := manifestClass(s.JarPath)
	if err != nil {
		return s, fmt.Errorf("no --class given, and the jar's manifest cannot say it: %w", err)
	}
	if class == "" {
		return s, fmt.Errorf("no --class given, and the manifest of %s names no program-class or Main-Class: give --class", s.JarPath)
	}
	s.EntryClass, s.EntryClassFrom = class, attr
	return s, nil
}

// manifestClass reads a jar's META-INF/MANIFEST.MF main section: the
// value of program-class, else Main-Class, and the attribute's name.
func manifestClass(path string) (class, attr string, err error) {
	z, err := zip.OpenReader(path)
	if err != nil {
		return "", "", fmt.Errorf("read jar %s: %w", path, err)
	}
	defer z.Close()
	for _, f := range z.File {
		if !strings.EqualFold(f.Name, "META-INF/MANIFEST.MF") {
			continue
		}
		r, err := f.Open()
		if err != nil {
			return "", "", fmt.Errorf("read the manifest of %s: %w", path, err)
		}
		defer r.Close()
		b, err := io.ReadAll(io.LimitReader(r, maxManifest))
		if err != nil {
			return "", "", fmt.Errorf("read the manifest of %s: %w", path, err)
		}
		main := manifestMain(b)
		for _, name := range []string{"program-class", "Main-Class"} {
			if v := main[strings.ToLower(name)]; v != "" {
				return v, name, nil
			}
		}
		return "", "", nil
	}
	return "", "", errors.New("the jar " + path + " has no META-INF/MANIFEST.MF")
}

// manifestMain parses a manifest's main section (up to its first blank
// line) into attributes by lower-cased name; a line that starts with a
// space continues the one before (the JAR spec's 72-byte lines).
func manifestMain(b []byte) map[string]string {
	out := map[string]string{}
	var name string
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 4096), maxManifest)
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		switch {
		case line == "":
			return out
		case strings.HasPrefix(line, " ") && name != "":
			out[name] += line[1:]
		default:
			k, v, ok := strings.Cut(line, ":")
			if !ok {
				name = ""
				continue
			}
			name = strings.ToLower(strings.TrimSpace(k))
			out[name] = strings.TrimSpace(v)
		}
	}
	return out
}
