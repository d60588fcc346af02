package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/palink/palink/core/api"
)

// followRemoteBuild copies, to w, the log of a project's build that runs
// in the agent, whose log does not stream over the socket: it asks the
// agent how the build stands every interval until ctx ends, and prints
// what was added since. The returned func stops it and prints what the
// finished build's own log adds.
func followRemoteBuild(ctx context.Context, svc api.Service, project string, w io.Writer, interval time.Duration) (stop func(finalLog string)) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	var shown string
	go func() {
		defer close(done)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			st, err := svc.BuildStatus(ctx, project)
			if err != nil || !st.Running {
				continue
			}
			fmt.Fprint(w, logDelta(shown, st.Log))
			shown = st.Log
		}
	}()
	return func(finalLog string) {
		cancel()
		<-done
		if finalLog != "" {
			fmt.Fprint(w, logDelta(shown, finalLog))
		}
	}
}

// logDelta is what next, a tail of a log, adds to shown, an earlier tail
// of it: next is shown grown at the end, or shifted once the tail is full.
func logDelta(shown, next string) string {
	if strings.HasPrefix(next, shown) {
		return next[len(shown):]
	}
	// The window moved: find where shown's end is in next.
	const anchor = 256
	end := shown[max(len(shown)-anchor, 0):]
	if i := strings.LastIndex(next, end); i >= 0 && end != "" {
		return next[i+len(end):]
	}
	return next
}
