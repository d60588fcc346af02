package tui

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/internal/probe"
	"github.com/palink/palink/tui/kit"
)

// The root model's probe, for the test harness (internal/probe says why).
func init() { probe.Of = func(m tea.Model) probe.App { return modelProbe{m.(*Model)} } }

type modelProbe struct{ m *Model }

func (p modelProbe) Swap(after kit.TimerFunc, read func(context.Context, <-chan api.Change, int) tea.Cmd) {
	p.m.env.After, p.m.env.ReadChange = after, read
}

func (p modelProbe) Top() kit.Screen            { return p.m.top() }
func (p modelProbe) Dialog() kit.Dialog         { return p.m.dialog }
func (p modelProbe) Flash() string              { return p.m.flash.Text() }
func (p modelProbe) ClearFlash()                { p.m.flash.Clear() }
func (p modelProbe) WatchGen() int              { return p.m.stream.gen }
func (p modelProbe) Render() string             { return p.m.render() }
func (p modelProbe) Tick(now time.Time) tea.Msg { return tickMsg{now: now} }
func (p modelProbe) Table() kit.Screen          { return p.m.jobs }
func (p modelProbe) Jobs() int                  { return p.m.jobs.Len() }

func (p modelProbe) SelectedJob() string {
	if j := p.m.jobs.Selected(); j != nil {
		return j.Name
	}
	return ""
}
