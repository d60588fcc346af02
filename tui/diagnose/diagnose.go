package diagnose

import (
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/tui/kit"
)

// Open builds the view msg asks for and the Cmd that loads it.
func Open(e *kit.Env, msg kit.OpenDiagMsg) (kit.Screen, tea.Cmd) {
	switch msg.View {
	case kit.DiagVertex:
		return NewVertex(e, msg.Job, msg.VertexID, msg.VertexName)
	case kit.DiagFlame:
		return NewFlame(e, msg.Job, msg.VertexID, msg.VertexName)
	case kit.DiagCheckpoint:
		return NewCheckpoint(e, msg.Job, msg.Checkpoint)
	case kit.DiagTaskManager:
		return NewTaskManager(e, msg.Job, msg.TaskManager)
	}
	return NewConfig(e, msg.Job)
}

// loadState is what every view shows before and around its data: the
// load in flight, and the error of the last one.
type loadState struct {
	loads kit.Refresher
	err   error
}

// done takes the answer of load seq; ok is false for one to drop.
func (l *loadState) done(seq int, err error) (ok bool, next tea.Cmd) {
	current, next := l.loads.Done(seq)
	if !current {
		return false, nil
	}
	l.err = err
	return true, next
}
