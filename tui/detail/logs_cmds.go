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

// containersListedMsg is the answer of ContainerLogs for the Logs tab.
type containersListedMsg struct {
	jobID string
	seq   int
	list  api.ContainerLogList
	err   error
}

// listContainersCmd lists the YARN containers of the job's application
// and their log files: from their NodeManagers while it runs, from the
// log server once it ended (which may take a few requests per container).
func listContainersCmd(c kit.Call[Service], jobID string, seq int) tea.Cmd {
	return func() tea.Msg {
		var l api.ContainerLogList
		err := c.With(func(ctx context.Context) (err error) {
			l, err = c.Service.ContainerLogs(ctx, jobID)
			return err
		})
		if err != nil {
			err = fmt.Errorf("list the YARN containers' logs: %w", err)
		}
		return containersListedMsg{jobID: jobID, seq: seq, list: l, err: err}
	}
}
