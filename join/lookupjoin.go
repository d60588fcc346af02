package join

import (
	"context"
	"fmt"
	"time"
)

// JoinKind is the kind of a lookup join.
type JoinKind int

const (
	// InnerJoin drops an input that matches no row.
	InnerJoin JoinKind = iota
	// LeftJoin emits an input that matches no row once, with NULLs for the table's columns.
	LeftJoin
)

// String names the kind as SQL does.
func (k JoinKind) String() string {
	if k == LeftJoin {
		return "LEFT JOIN"
	}
	return "JOIN"
}

// LookupJoin is `input [LEFT] JOIN table FOR SYSTEM_TIME AS OF input.proc ON …`
// with Flink's semantics: each matching row gives one output, the input's
// values followed by the row's.
type LookupJoin struct {
	Source Source
	Kind   JoinKind
	// Keys are the positions in the input row of the values that the ON
	// clause's equalities compare to the table's key columns, in that order.
	Keys []int
	// KeyOf, if set, computes the key values from the input instead of Keys
	// (the ON clause compares the table's columns to expressions).
	KeyOf func(in Row) ([]any, error)
	// Condition is the rest of the ON clause, if any: a matching row joins
	// only when it holds (for a LEFT JOIN, an input none passes gets NULLs).
	Condition func(in, dim Row) (bool, error)
	// MissRetry looks the table up again while no row matches (the LOOKUP
	// hint's 'lookup_miss'); nil: once.
	MissRetry *Retry
}

// Func is the join as the operator's lookup function.
func (j *LookupJoin) Func() Func[Row, Row] {
	width := len(j.Source.Columns())
	return func(ctx context.Context, in Row) ([]Row, error) {
		key, err := j.key(in)
		if err != nil {
			return nil, err
		}
		dims, err := j.lookup(ctx, key)
		if err != nil {
			return nil, err
		}
		var out []Row
		for _, d := range dims {
			if j.Condition != nil {
				ok, err := j.Condition(in, d)
				if err != nil {
					return nil, fmt.Errorf("join condition: %w", err)
				}
				if !ok {
					continue
				}
			}
			out = append(out, concat(in, d, width))
		}
		if len(out) == 0 && j.Kind == LeftJoin {
			out = append(out, concat(in, nil, width))
		}
		return out, nil
	}
}

func (j *LookupJoin) key(in Row) ([]any, error) {
	if j.KeyOf != nil {
		return j.KeyOf(in)
	}
	key := make([]any, len(j.Keys))
	for i, at := range j.Keys {
		if at < 0 || at >= len(in) {
			return nil, fmt.Errorf("join key %d: input has %d columns", at, len(in))
		}
		key[i] = in[at]
	}
	return key, nil
}

// lookup asks the source, again after a miss while MissRetry allows.
func (j *LookupJoin) lookup(ctx context.Context, key []any) ([]Row, error) {
	for attempt := 1; ; attempt++ {
		rows, err := j.Source.Lookup(ctx, key)
		if err != nil || len(rows) > 0 || j.MissRetry == nil || attempt >= j.MissRetry.MaxAttempts {
			return rows, err
		}
		if j.MissRetry.Backoff != nil {
			t := time.NewTimer(j.MissRetry.Backoff(attempt))
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
				return nil, ctx.Err()
			}
		}
	}
}

// concat is the joined row; dim nil gives NULLs.
func concat(in, dim Row, width int) Row {
	out := make(Row, len(in)+width)
	copy(out, in)
	copy(out[len(in):], dim)
	return out
}
