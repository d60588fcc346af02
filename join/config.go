package join

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// ParseFlinkDuration reads a duration as Flink's configuration does
// (TimeUtils.parseDuration): a number and a unit, "10 s", "500ms", "3min",
// "1 h", "2 days"; without a unit, milliseconds.
func ParseFlinkDuration(s string) (time.Duration, error) {
	t := strings.TrimSpace(s)
	i := strings.IndexFunc(t, func(r rune) bool { return !unicode.IsDigit(r) })
	num, unit := t, ""
	if i >= 0 {
		num, unit = t[:i], strings.ToLower(strings.TrimSpace(t[i:]))
	}
	if num == "" {
		return 0, fmt.Errorf("duration %q: no number", s)
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("duration %q: %w", s, err)
	}
	var u time.Duration
	switch unit {
	case "d", "day", "days":
		u = 24 * time.Hour
	case "h", "hour", "hours":
		u = time.Hour
	case "m", "min", "mins", "minute", "minutes":
		u = time.Minute
	case "s", "sec", "secs", "second", "seconds":
		u = time.Second
	case "", "ms", "milli", "millis", "millisecond", "milliseconds":
		u = time.Millisecond
	case "µs", "us", "micro", "micros", "microsecond", "microseconds":
		u = time.Microsecond
	case "ns", "nano", "nanos", "nanosecond", "nanoseconds":
		u = time.Nanosecond
	default:
		return 0, fmt.Errorf("duration %q: unknown unit %q", s, unit)
	}
	if n > int64(1<<63-1)/int64(u) {
		return 0, fmt.Errorf("duration %q: too long", s)
	}
	return time.Duration(n) * u, nil
}

// Settings of Flink's table config that shape lookup joins.
const (
	SetAsyncLookupCapacity   = "table.exec.async-lookup.buffer-capacity"
	SetAsyncLookupTimeout    = "table.exec.async-lookup.timeout"
	SetAsyncLookupOutputMode = "table.exec.async-lookup.output-mode"
)

// LookupConfig is how one lookup join runs: the operator's options, from the
// job's SET statements and the join's LOOKUP hint (the hint wins).
type LookupConfig struct {
	// Async is false for a hint 'async' = 'false': one lookup at a time, in
	// order (Options then has Capacity 1 and Mode Ordered). palink looks up
	// asynchronously by default, whatever the connector offers to Flink.
	Async   bool
	Options Options
	// MissRetry is the hint's 'retry-predicate' = 'lookup_miss': the table is
	// looked up again while no row matches, within Options.Timeout. nil: none.
	MissRetry *Retry
}

// ParseLookupConfig reads the lookup settings of a job's SET statements (set;
// other keys are ignored) and of a LOOKUP hint's options (hint; nil without
// a hint), with Flink's defaults and checks.
func ParseLookupConfig(set, hint map[string]string) (LookupConfig, error) {
	c := LookupConfig{Async: true, Options: Options{Mode: Ordered, Capacity: DefaultCapacity, Timeout: DefaultTimeout}}
	for k, v := range set {
		var err error
		switch k {
		case SetAsyncLookupCapacity:
			c.Options.Capacity, err = positive(v)
		case SetAsyncLookupTimeout:
			c.Options.Timeout, err = positiveDuration(v)
		case SetAsyncLookupOutputMode:
			c.Options.Mode, err = parseMode(v)
		}
		if err != nil {
			return c, fmt.Errorf("SET '%s' = '%s': %w", k, v, err)
		}
	}
	var retry struct {
		predicate, strategy string
		delay               time.Duration
		attempts            int
		given               []string
	}
	for k, v := range hint {
		var err error
		switch strings.ToLower(k) {
		case "table":
		case "async":
			c.Async, err = strconv.ParseBool(v)
		case "output-mode":
			c.Options.Mode, err = parseMode(v)
		case "capacity":
			c.Options.Capacity, err = positive(v)
		case "timeout":
			c.Options.Timeout, err = positiveDuration(v)
		case "retry-predicate":
			retry.predicate = strings.ToLower(v)
			retry.given = append(retry.given, k)
			if retry.predicate != "lookup_miss" {
				err = errors.New("want 'lookup_miss'")
			}
		case "retry-strategy":
			retry.strategy = strings.ToLower(v)
			retry.given = append(retry.given, k)
			if retry.strategy != "fixed_delay" {
				err = errors.New("want 'fixed_delay'")
			}
		case "fixed-delay":
			retry.delay, err = positiveDuration(v)
			retry.given = append(retry.given, k)
		case "max-attempts":
			retry.attempts, err = positive(v)
			retry.given = append(retry.given, k)
		default:
			err = errors.New("unknown LOOKUP hint option")
		}
		if err != nil {
			return c, fmt.Errorf("LOOKUP hint '%s' = '%s': %w", k, v, err)
		}
	}
	if len(retry.given) > 0 {
		if len(retry.given) < 4 {
			return c, fmt.Errorf("LOOKUP hint: a retry needs 'retry-predicate', 'retry-strategy', 'fixed-delay' and 'max-attempts' (got %s)",
				strings.Join(retry.given, ", "))
		}
		// Flink's max-attempts counts the attempts after the first.
		c.MissRetry = &Retry{MaxAttempts: retry.attempts + 1, Backoff: FixedDelay(retry.delay), IfEmpty: true}
	}
	if !c.Async {
		c.Options.Capacity, c.Options.Mode = 1, Ordered
	}
	return c, nil
}

func parseMode(v string) (Mode, error) {
	switch strings.ToUpper(v) {
	case "ORDERED":
		return Ordered, nil
	case "ALLOW_UNORDERED", "UNORDERED":
		return Unordered, nil
	}
	return 0, errors.New("want ORDERED or ALLOW_UNORDERED")
}

func positive(v string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err == nil && n <= 0 {
		err = errors.New("must be positive")
	}
	return n, err
}

func positiveDuration(v string) (time.Duration, error) {
	d, err := ParseFlinkDuration(v)
	if err == nil && d <= 0 {
		err = errors.New("must be positive")
	}
	return d, err
}
