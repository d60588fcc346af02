package join_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/palink/palink/join"
)

// The operator's API is a contract (issue 6): these assignments stop the
// build if a signature drifts.
var (
	_ join.Mode                                                                                                       = join.Ordered
	_ join.Mode                                                                                                       = join.Unordered
	_ func(time.Duration) func(int) time.Duration                                                                     = join.FixedDelay
	_ func(time.Duration, time.Duration, float64) func(int) time.Duration                                             = join.ExponentialDelay
	_ error                                                                                                           = join.ErrTimeout
	_ func(join.Func[int, string], join.Options) *join.Operator[int, string]                                          = join.New[int, string]
	_ func(*join.Operator[int, string], func(int) ([]string, error)) *join.Operator[int, string]                      = (*join.Operator[int, string]).WithTimeoutHandler
	_ func(*join.Operator[int, string], context.Context, <-chan join.Element[int], chan<- join.Element[string]) error = (*join.Operator[int, string]).Run
	_                                                                                                                 = join.Element[int]{Value: 1, Timestamp: 2, Watermark: false}
	_                                                                                                                 = join.Options{Mode: join.Ordered, Capacity: 0, Timeout: 0, Retry: &join.Retry{
		MaxAttempts: 1, Backoff: func(int) time.Duration { return 0 }, IfEmpty: true, IfError: func(error) bool { return true }}}
)

// The row/type API is a contract too: the local SQL runtime (join/debug)
// computes with it.
var (
	_ join.Row                          = join.Row{int64(1), "12.50", nil}
	_ join.Column                       = join.Column{Name: "id", Type: "BIGINT"}
	_ join.Type                         = join.Type{Kind: join.KindDecimal, Scale: 2}
	_                                   = []join.Kind{join.KindAny, join.KindBool, join.KindInt, join.KindFloat, join.KindDecimal, join.KindString, join.KindBytes, join.KindDate, join.KindTime, join.KindTimestamp}
	_ func(string) (join.Type, error)   = join.ParseType
	_ func(any, join.Type) (any, error) = join.Canonical
	_ func(any) (time.Time, error)      = join.ParseTime
	_ func([]join.Column, string) int   = join.ColumnIndex
)

// Example: enrich order ids with a lookup, in input order, retrying misses.
func Example() {
	names := map[int]string{1: "ann", 2: "bob"}
	lookup := func(ctx context.Context, id int) ([]string, error) {
		if n, ok := names[id]; ok {
			return []string{n}, nil
		}
		return nil, nil // no match: emits nothing
	}
	op := join.New(lookup, join.Options{Mode: join.Ordered, Capacity: 10, Timeout: time.Second,
		Retry: &join.Retry{MaxAttempts: 2, Backoff: join.FixedDelay(time.Millisecond), IfEmpty: true}})
	in := make(chan join.Element[int])
	out := make(chan join.Element[string])
	go func() {
		defer close(in)
		for i, id := range []int{2, 3, 1} {
			in <- join.Element[int]{Value: id, Timestamp: int64(i)}
		}
		in <- join.Element[int]{Timestamp: 3, Watermark: true}
	}()
	errc := make(chan error, 1)
	go func() { errc <- op.Run(context.Background(), in, out) }()
	for e := range out {
		if e.Watermark {
			fmt.Println("watermark", e.Timestamp)
			continue
		}
		fmt.Println(e.Timestamp, e.Value)
	}
	if err := <-errc; errors.Is(err, join.ErrTimeout) {
		fmt.Println("timed out")
	}
	// Output:
	// 0 bob
	// 2 ann
	// watermark 3
}
