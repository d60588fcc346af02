package tui

import (
	"context"
	"fmt"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
)

// Every function here makes a tea.Cmd that calls the service. They take
// values (a call, ids, sequence numbers) and never a model, so the Cmd's
// goroutine shares nothing with the event loop.

func loadClustersCmd(c kit.Call[appService], seq int) tea.Cmd {
	return func() tea.Msg {
		var cs []api.ClusterStatus
		err := c.With(func(ctx context.Context) (err error) {
			cs, err = c.Service.Clusters(ctx)
			return err
		})
		if err != nil {
			err = fmt.Errorf("read cluster status: %w", err)
		}
		return clustersLoadedMsg{seq: seq, clusters: cs, err: err}
	}
}

func loadLeadCmd(c kit.Call[appService], seq int) tea.Cmd {
	return func() tea.Msg {
		var l api.Leadership
		err := c.With(func(ctx context.Context) (err error) {
			l, err = c.Service.Leadership(ctx)
			return err
		})
		return leadLoadedMsg{seq: seq, lead: l, err: err}
	}
}

// startWatchCmd opens the change stream. It lives as long as ctx (the
// program), not the request timeout.
func startWatchCmd(ctx context.Context, svc api.FleetService, gen int) tea.Cmd {
	return func() tea.Msg {
		ch, err := svc.Watch(ctx)
		if err != nil {
			err = fmt.Errorf("watch changes: %w", err)
		}
		return watchStartedMsg{gen: gen, ch: ch, err: err}
	}
}

// A burst of changes (a fleet created or deployed, a sync cycle over
// thousands of jobs) is read as one message, so that the program draws a
// frame for the burst rather than for each change: after a change, the
// read takes what follows within changeWindow, up to maxChanges.
const (
	changeWindow = 10 * time.Millisecond // under a frame at 60 per second
	maxChanges   = 4096                  // the service's pending bound (core's hub)
)

// nextChangeCmd reads the next change and those that follow it at once;
// the root re-issues it after each message, so exactly one read is
// pending at any time. One change is a kit.ChangeMsg; more, a changesMsg.
func nextChangeCmd(ctx context.Context, ch <-chan api.Change, gen int) tea.Cmd {
	return func() tea.Msg {
		var first api.Change
		select {
		case c, ok := <-ch:
			if !ok {
				return watchEndedMsg{gen: gen}
			}
			first = c
		case <-ctx.Done():
			return watchEndedMsg{gen: gen}
		}
		batch := []api.Change{first}
		window := time.NewTimer(changeWindow)
		defer window.Stop()
	read:
		for len(batch) < maxChanges {
			select {
			case c, ok := <-ch:
				if !ok {
					break read // the next read tells the end
				}
				batch = append(batch, c)
			case <-window.C:
				break read
			case <-ctx.Done():
				return watchEndedMsg{gen: gen}
			}
		}
		if len(batch) == 1 {
			return kit.ChangeMsg{Gen: gen, Change: first}
		}
		return changesMsg{gen: gen, changes: batch}
	}
}

func watchRetryCmd(after kit.TimerFunc, gen int, d time.Duration) tea.Cmd {
	return after(d, func(time.Time) tea.Msg { return watchRetryMsg{gen: gen} })
}

func tickCmd(after kit.TimerFunc, clock, wall func() time.Time) tea.Cmd {
	return after(time.Second, func(time.Time) tea.Msg { return tickMsg{now: clock(), wall: wall()} })
}

// parallelCalls bounds how many plan or act calls of a bulk action run at
// once: enough to hide latency, few enough not to flood the service.
const parallelCalls = 8

// each runs fn for every index with at most parallelCalls at once.
func each(n int, fn func(i int)) {
	var wg sync.WaitGroup
	sem := make(chan struct{}, parallelCalls)
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			fn(i)
		}()
	}
	wg.Wait()
}

// planCmd asks Plan for every item that no local check has skipped.
func planCmd(c kit.Call[appService], seq int, items []planItem) tea.Cmd {
	items = append([]planItem(nil), items...)
	return func() tea.Msg {
		each(len(items), func(i int) {
			it := &items[i]
			if it.skipped != "" {
				return
			}
			it.err = c.With(func(ctx context.Context) (err error) {
				it.plan, err = c.Service.Plan(ctx, it.req)
				return err
			})
			if it.err != nil {
				it.err = fmt.Errorf("plan %s of %s: %w", verb(it.req.Kind), it.job.Name, it.err)
			}
		})
		return plannedMsg{seq: seq, items: items}
	}
}

// actCmd records the allowed items as commands.
func actCmd(c kit.Call[appService], seq int, items []planItem) tea.Cmd {
	var todo []planItem
	for _, it := range items {
		if it.allowed() {
			todo = append(todo, it)
		}
	}
	return func() tea.Msg {
		res := make([]kit.ActResult, len(todo))
		each(len(todo), func(i int) {
			r := &res[i]
			r.Job = todo[i].job
			r.Err = c.With(func(ctx context.Context) (err error) {
				r.Cmd, err = c.Service.Act(ctx, todo[i].req)
				return err
			})
			if r.Err != nil {
				r.Err = fmt.Errorf("%s %s: %w", verb(todo[i].req.Kind), todo[i].job.Name, r.Err)
			}
		})
		return kit.ActedMsg{Seq: seq, Results: res}
	}
}
