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
	// CmdEvUncertain: after its tries the command cannot tell whether its
	// request took effect; it is reconciled from the cluster.
	CmdEvUncertain
)

var commandEventNames = map[CommandEvent]string{
	CmdEvStart: "start", CmdEvReclaim: "reclaim", CmdEvSucceed: "succeed", CmdEvFail: "fail", CmdEvSupersede: "supersede",
	CmdEvUncertain: "uncertain",
}

func (e CommandEvent) String() string {
	if s, ok := commandEventNames[e]; ok {
		return s
	}
	return fmt.Sprintf("CommandEvent(%d)", int(e))
}

// CommandEvents lists every command event, for exhaustive tests.
func CommandEvents() []CommandEvent {
	return []CommandEvent{CmdEvStart, CmdEvReclaim, CmdEvSucceed, CmdEvFail, CmdEvSupersede, CmdEvUncertain}
}

// StepCommand applies ev to command c at now and returns the new command.
// owner and lease apply to start and reclaim. Reclaiming requires the lease
// to have expired: a live worker's command is never taken from it. An
// UNKNOWN command keeps its worker's lease while that worker reconciles
// it, is reclaimed like a DOING one when that worker died, and ends
// SUCCEEDED or FAILED as the cluster shows; a KILL never supersedes it,
// since what it may have done (a savepoint) must not be written off.
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
		if (c.State != model.CmdDoing && c.State != model.CmdUnknown) || now.Before(c.LeaseUntil) {
			return bad()
		}
	case CmdEvUncertain:
		if c.State != model.CmdDoing {
			return bad()
		}
		c.State = model.CmdUnknown
		return c, nil
	case CmdEvSucceed, CmdEvFail:
		if c.State != model.CmdDoing && c.State != model.CmdUnknown {
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
		if c.State.Final() || c.State == model.CmdUnknown {
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
