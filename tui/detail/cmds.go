package detail

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
)

// Load asks for a job's detail (Service.Job, which syncs it); the answer
// is a LoadedMsg with seq, the request's identity.
func Load(c kit.Call[Service], jobID string, seq int) tea.Cmd {
	return func() tea.Msg {
		var d api.JobDetail
		err := c.With(func(ctx context.Context) (err error) {
			d, err = c.Service.Job(ctx, jobID)
			return err
		})
		if err != nil {
			err = fmt.Errorf("load job %s: %w", jobID, err)
		}
		return LoadedMsg{JobID: jobID, Seq: seq, Detail: d, Err: err}
	}
}

// LoadedMsg is Load's answer.
type LoadedMsg struct {
	JobID  string
	Seq    int
	Detail api.JobDetail
	Err    error
}
