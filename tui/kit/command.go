package kit

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/palink/palink/model"
)

// How the views show a command: what it came to, and who ran it, for
// people. Pure, so that the :cmd view, the detail's Commands tab and the
// command log agree.

// ownerID matches a lease owner as the scheduler writes it into logs and
// messages: "host pid N #rand", or an older palink's "host:N:rand".
var ownerID = regexp.MustCompile(`(\S+) pid (\d+) #[0-9a-fA-F]+|\b([A-Za-z0-9][\w.-]*):(\d+):[0-9a-fA-F]{4,}\b`)

// HumanOwners rewrites the lease owners in a log line as the host and pid
// a person can look for, without the random part that only tells two
// processes apart: "started by ops-1 pid 4242 #9f3a" → "started by ops-1
// (pid 4242)".
func HumanOwners(s string) string {
	return ownerID.ReplaceAllStringFunc(s, func(m string) string {
		sub := ownerID.FindStringSubmatch(m)
		if sub[1] != "" {
			return sub[1] + " (pid " + sub[2] + ")"
		}
		return sub[3] + " (pid " + sub[4] + ")"
	})
}

// OwnerPlace is a lease owner as a place: "ops-1 (pid 4242)".
func OwnerPlace(owner string) string { return HumanOwners(owner) }

// CommandResult says what a command came to, or what it is doing, in a
// line that the state does not say already: a failure's cause, what a
// success produced (a savepoint, an application), the last step of one
// under way and where it runs, or why one waits.
func CommandResult(c model.Command, now time.Time) string {
	switch {
	case c.State == model.CmdFailed:
		if c.Error != "" {
			return FirstLine(c.Error)
		}
	case c.State == model.CmdUndo:
		return "waiting for a palink to start it (queued " + Since(now, c.CreatedAt) + ")"
	}
	for i := len(c.Log) - 1; i >= 0; i-- {
		t := strings.TrimSpace(c.Log[i].Text)
		low := strings.ToLower(t)
		switch {
		case low == "" || low == "succeeded" || strings.HasPrefix(low, "failed: "):
			continue // the state says it
		case strings.HasPrefix(low, "started by "):
			if c.State == model.CmdDoing {
				return "running on " + HumanOwners(t[len("started by "):])
			}
			continue
		}
		return HumanOwners(FirstLine(t))
	}
	if c.State == model.CmdDoing && c.LeaseOwner != "" {
		return "running on " + OwnerPlace(c.LeaseOwner)
	}
	if c.State == model.CmdSucceeded && !c.StartedAt.IsZero() && !c.EndedAt.IsZero() {
		return fmt.Sprintf("done in %s", Duration(c.EndedAt.Sub(c.StartedAt)))
	}
	return ""
}

// Stamp is a time as a wide view shows it: the time alone today, the day
// and the time to the second otherwise ("09:11:40", "Mar 11 03:12:03"),
// in the clock's zone.
func Stamp(now, t time.Time) string {
	if t.IsZero() {
		return NoValue
	}
	t = t.In(now.Location())
	y1, m1, d1 := now.Date()
	if y2, m2, d2 := t.Date(); y1 == y2 && m1 == m2 && d1 == d2 {
		return t.Format("15:04:05")
	}
	if t.Year() != now.Year() {
		return t.Format("2006-01-02 15:04")
	}
	return t.Format("Jan 02 15:04:05")
}
