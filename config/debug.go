package config

import (
	"path/filepath"
	"strings"
)

// Debug configures debug runs (the editor's ctrl-d and `palink debug`).
type Debug struct {
	// Samples are directories of sample data, TABLE.jsonl, TABLE.json or
	// TABLE.csv: a source table a run is given no file for is read from the
	// first that has one. Relative paths are from the config file.
	Samples []string `yaml:"samples"`
	// Databases redirect lookup tables in debug runs: a table's JDBC url →
	// the url to query instead (a staging copy, a local SQLite file), so
	// that trying a job never touches production's database.
	Databases map[string]string `yaml:"databases"`
}

// DebugSamples are the sample directories, relative ones resolved from
// the config file's directory.
func (c *Config) DebugSamples() []string {
	out := make([]string, 0, len(c.Debug.Samples))
	for _, d := range c.Debug.Samples {
		if !filepath.IsAbs(d) && c.path != "" {
			d = filepath.Join(filepath.Dir(c.path), d)
		}
		out = append(out, d)
	}
	return out
}

func (c *Config) checkDebug(add func(path string, warn bool, format string, args ...any)) {
	for i, d := range c.Debug.Samples {
		if strings.TrimSpace(d) == "" {
			add("debug.samples", false, "debug.samples[%d] is empty: name a directory", i)
		}
	}
	for from, to := range c.Debug.Databases {
		for _, u := range []string{from, to} {
			if !strings.HasPrefix(u, "jdbc:") {
				add("debug.databases", false, "debug.databases: %q is not a JDBC url (jdbc:mysql://…, jdbc:postgresql://…, jdbc:sqlite:PATH)", redactURL(u))
			}
		}
	}
}

// redactURL hides a password in a url's user info or query, for messages.
func redactURL(u string) string {
	if at := strings.LastIndex(u, "@"); at > 0 {
		if scheme := strings.Index(u, "://"); scheme >= 0 && scheme < at {
			u = u[:scheme+3] + "…" + u[at:]
		}
	}
	if q := strings.Index(u, "?"); q >= 0 && strings.Contains(strings.ToLower(u[q:]), "password") {
		u = u[:q] + "?…"
	}
	return u
}
