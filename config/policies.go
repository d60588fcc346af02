package config

// The platform's policies: restarts of FAILED jobs and restore points
// over time.

// RestartPolicy configures the platform's restarts of FAILED jobs.
type RestartPolicy struct {
	Enabled     *bool    `yaml:"enabled"`      // default true
	MaxAttempts int      `yaml:"max_attempts"` // within Window; default 3
	Window      Duration `yaml:"window"`       // default 30m
	Backoff     Duration `yaml:"backoff"`      // first delay; default 10s
	MaxBackoff  Duration `yaml:"max_backoff"`  // default 5m
	Multiplier  float64  `yaml:"multiplier"`   // default 2
}

// Savepoints configures periodic savepoints of RUNNING jobs, their
// retention (disposed of through Flink's savepoint-disposal), and the guard
// against restoring from an old one. Zero values turn each part off.
type Savepoints struct {
	Interval Duration `yaml:"interval"` // e.g. 6h; 0: no periodic savepoints
	// Jitter spreads jobs over up to this much after the interval; default
	// a tenth of the interval.
	Jitter        Duration `yaml:"jitter"`
	MaxCount      int      `yaml:"max_count"`       // completed savepoints kept per job
	MaxAge        Duration `yaml:"max_age"`         // older ones are disposed of
	MaxRestoreAge Duration `yaml:"max_restore_age"` // older restore points need --force
}

// check reports negative settings through add (Config.Check's).
func (s Savepoints) check(add func(path string, warn bool, format string, args ...any)) {
	for _, d := range []struct {
		key string
		v   Duration
	}{{"interval", s.Interval}, {"jitter", s.Jitter}, {"max_age", s.MaxAge}, {"max_restore_age", s.MaxRestoreAge}} {
		if d.v < 0 {
			add("savepoints."+d.key, false, "savepoints.%s %s is negative: give a duration such as 6h", d.key, d.v.D())
		}
	}
	if s.MaxCount < 0 {
		add("savepoints.max_count", false, "savepoints.max_count must not be negative")
	}
}
