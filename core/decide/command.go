package decide

import (
	"fmt"
	"time"

	"github.com/palink/palink/model"
)

// CommandEvent is a step of a command's life.
type CommandEvent int

// Command events.
const (
	CmdEvStart   CommandEvent = iota + 1 // a worker takes an UNDO command
	CmdEvReclaim                         // a worker takes over a DOING command whose lease expired
	CmdEvSucceed
	CmdEvFail
	CmdEvSupersede // a KILL ends the command, whoever runs it
)

var commandEventNames = map[CommandEvent]string{
	CmdEvStart: "start", CmdEvReclaim: "reclaim", CmdEvSucceed: "succeed", CmdEvFail: "fail", CmdEvSupersede: "supersede",
}

func (e CommandEvent) String() string {
	if s, ok := commandEventNames[e]; ok {
		return s
	}
	return fmt.Sprintf("CommandEvent(%d)", int(e))
}

// CommandEvents lists every command event, for exhaustive tests.
func CommandEvents() []CommandEvent {
	return []CommandEvent{CmdEvStart, CmdEvReclaim, CmdEvSucceed, CmdEvFail, CmdEvSupersede}
}

// StepCommand applies ev to command c at now and returns the new command.
// owner and lease apply to start and reclaim. Reclaiming requires the lease
// to have expired: a live worker's command is never taken from it.
func StepCommand(c model.Command, ev CommandEvent, owner string, lease time.Duration, now time.Time) (model.Command, error) {
	bad := func() (model.Command, error) {
		return c, fmt.Errorf("illegal command transition: %s on %s #%d (%s)", ev, c.Kind, c.Seq, c.State)
	}
	switch ev {
	case CmdEvStart:
		if c.State != model.CmdUndo {
			return bad()
		}
		c.State = model.CmdDoing
		c.StartedAt = now
	case CmdEvReclaim:
		if c.State != model.CmdDoing || now.Before(c.LeaseUntil) {
			return bad()
		}
	case CmdEvSucceed, CmdEvFail:
		if c.State != model.CmdDoing {
			return bad()
		}
		c.State = model.CmdSucceeded
		if ev == CmdEvFail {
			c.State = model.CmdFailed
		}
		c.EndedAt = now
		c.LeaseOwner, c.LeaseUntil = "", time.Time{}
		return c, nil
	case CmdEvSupersede:
		// Whoever holds the lease loses it: its next save fails, and a
		// deploy that finds itself superseded undoes what it created.
		if c.State.Final() {
			return bad()
		}
		c.State, c.EndedAt = model.CmdFailed, now
		c.LeaseOwner, c.LeaseUntil = "", time.Time{}
		return c, nil
	default:
		return bad()
	}
	c.Attempts++
	c.LeaseOwner = owner
	c.LeaseUntil = now.Add(lease)
	return c, nil
}
