package detail

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
)

type logsListedMsg struct {
	jobID string
	seq   int
	list  api.LogList
	err   error
}

func listLogsCmd(c kit.Call[Service], jobID string, seq int) tea.Cmd {
	return func() tea.Msg {
		var l api.LogList
		err := c.With(func(ctx context.Context) (err error) {
			l, err = c.Service.Logs(ctx, jobID)
			return err
		})
		if err != nil {
			err = fmt.Errorf("list logs: %w", err)
		}
		return logsListedMsg{jobID: jobID, seq: seq, list: l, err: err}
	}
}
