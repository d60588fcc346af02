package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/jobs"
	"github.com/palink/palink/tui/kit"
)

// staleAfter is the data age at which a cluster's figures turn yellow: state
// sync runs every few seconds, so half a minute without news means it is
// not reaching the cluster.
const staleAfter = 30 * time.Second

// headerData is everything the header shows; renderHeader is pure over it.
type headerData struct {
	// Who and what: palink's version, the context, the user the session
	// acts as, and whether it may change anything.
	version, context, user string
	readOnly               bool
	clusters               []api.ClusterStatus
	clustersErr            error
	jobsLoaded             bool
	counts                 [jobs.NumStates]int
	watching               bool
	now                    time.Time
	// alerts are the firing alerts, for the badge.
	alerts []model.Alert
	// lead is who leads the store: shown when it is shared (on etcd).
	lead api.Leadership
}

// headerForm is how much the header shows: the detail level of the
// clusters and the counts (0 richest), and which of who-and-what it keeps.
type headerForm struct {
	level                        int
	version, context, user, time bool
}

// headerForms go from the richest to the barest: the version goes first,
// then the user, the context, and the clock last; the clusters' health
// and the counts stay to the end, shorter.
var headerForms = []headerForm{
	{0, true, true, true, true},
	{1, true, true, true, true},
	{1, false, true, true, true},
	{2, false, true, true, true},
	{2, false, true, false, true},
	{2, false, false, false, true},
	{3, false, false, false, true},
	{3, false, false, false, false},
}

// renderHeader renders the one-line header, k9s' way: palink's version,
// the context and the user, each cluster's connectivity and data age, the
// job counts by state and the clock. It tries the richest form first and
// sheds detail until the line fits the width.
func renderHeader(st *kit.Styles, d headerData, width int) string {
	for _, f := range headerForms {
		left := headerLeft(st, d, f)
		right := headerRight(st, d, f)
		lw, rw := ansi.StringWidth(left), ansi.StringWidth(right)
		if lw+rw+1 <= width {
			return left + strings.Repeat(" ", width-lw-rw) + right
		}
	}
	return kit.Fit(headerLeft(st, d, headerForms[len(headerForms)-1]), width)
}

func headerLeft(st *kit.Styles, d headerData, f headerForm) string {
	level := f.level
	var b strings.Builder
	b.WriteString(" " + st.Brand.Render("palink"))
	if d.version != "" && f.version {
		b.WriteString(" " + st.Dim.Render(d.version))
	}
	if d.context != "" && f.context {
		b.WriteString("  " + st.Dim.Render("ctx ") + d.context)
	}
	if d.user != "" && f.user {
		b.WriteString("  " + st.Dim.Render("user ") + d.user)
	}
	if d.readOnly {
		if f.user {
			b.WriteString(" " + st.Warn.Render("read-only"))
		} else {
			b.WriteString(" " + st.Warn.Render("ro"))
		}
	}
	if d.lead.Shared {
		b.WriteString("  " + leadBadge(st, d.lead, level))
	}
	if d.clustersErr != nil && len(d.clusters) == 0 {
		b.WriteString("  " + st.ClusterDown.Render("✖ clusters unknown"))
	}
	for _, c := range d.clusters {
		b.WriteString("  " + clusterBadge(st, c, d.now, level))
	}
	if !d.watching {
		if level < 2 {
			b.WriteString("  " + st.Warn.Render("⚠ live updates paused"))
		} else {
			b.WriteString(" " + st.Warn.Render("⚠"))
		}
	}
	return b.String()
}

// leadBadge says which host leads a store shared on etcd ("lead ops2"),
// that none does, or that etcd does not answer this palink.
func leadBadge(st *kit.Styles, l api.Leadership, level int) string {
	switch {
	case l.Unreachable != "" && level >= 2:
		return st.ClusterDown.Render("✖ etcd")
	case l.Unreachable != "" && l.Leader != nil:
		return st.ClusterDown.Render("✖ etcd unreachable") + st.Dim.Render(" last lead ") + l.Leader.Host
	case l.Unreachable != "":
		return st.ClusterDown.Render("✖ etcd unreachable")
	case l.Leader == nil && level >= 2:
		return st.Warn.Render("⚠ lead")
	case l.Leader == nil:
		return st.Warn.Render("⚠ no leader")
	case level == 0:
		return st.Dim.Render("lead ") + l.Leader.Host + st.Dim.Render(fmt.Sprintf(" pid %d", l.Leader.PID))
	}
	return st.Dim.Render("lead ") + l.Leader.Host
}

// clusterBadge says whether a cluster is reachable and how old its data is:
// "● prod rm1 live 2s", "● prod 2s", or "✖ prod down 35s".
func clusterBadge(st *kit.Styles, c api.ClusterStatus, now time.Time, level int) string {
	age := "never"
	if !c.LastOK.IsZero() {
		age = kit.Age(now.Sub(c.LastOK))
	}
	if !c.Connected && c.LastOK.IsZero() && c.LastError == "" {
		// Not reached yet, not failed either: the first sync is on its way.
		return st.ClusterStale.Render("◌") + " " + c.Name + " " + st.Dim.Render("connecting")
	}
	if !c.Connected {
		if level >= 3 {
			return st.ClusterDown.Render("✖" + c.Name)
		}
		return st.ClusterDown.Render("✖ "+c.Name+" down") + " " + st.Dim.Render(age)
	}
	style := st.ClusterLive
	if c.LastOK.IsZero() || now.Sub(c.LastOK) >= staleAfter {
		style = st.ClusterStale
	}
	switch level {
	case 0:
		s := style.Render("●") + " " + c.Name
		if rm := strings.TrimPrefix(strings.TrimPrefix(c.ActiveRM, "http://"), "https://"); rm != "" {
			s += " " + st.Dim.Render(rm)
		}
		return s + " " + style.Render(age)
	case 1, 2:
		return style.Render("●") + " " + c.Name + " " + style.Render(age)
	}
	return style.Render("●") + c.Name
}

// headerCounts are the states the header counts, in order, with the states
// folded into each.
var headerCounts = []struct {
	label  string
	states []model.JobState
}{
	{"RUNNING", []model.JobState{model.StateRunning}},
	{"FAILED", []model.JobState{model.StateFailed, model.StateDeployFailed}},
	{"DEPLOYING", []model.JobState{model.StateDeploying, model.StateDeploySucceeded}},
}

func headerRight(st *kit.Styles, d headerData, f headerForm) string {
	level := f.level
	clock := ""
	if f.time && !d.now.IsZero() {
		clock = "  " + d.now.Format("15:04:05")
	}
	badge := alertBadge(st, d.alerts, level)
	if badge != "" {
		badge += "  "
	}
	if !d.jobsLoaded {
		return badge + st.Dim.Render("jobs …") + clock + " "
	}
	total := 0
	for _, n := range d.counts {
		total += n
	}
	parts := []string{fmt.Sprintf("jobs %d", total)}
	for i, hc := range headerCounts {
		n := 0
		for _, s := range hc.states {
			n += d.counts[s]
		}
		if n == 0 && i > 0 {
			continue
		}
		icon := kit.StateIcon(hc.states[0])
		style := st.JobState(hc.states[0], "")
		switch {
		case level == 0:
			parts = append(parts, style.Render(icon+" "+hc.label)+fmt.Sprintf(" %d", n))
		default:
			parts = append(parts, style.Render(icon)+fmt.Sprintf("%d", n))
		}
	}
	sep := "  "
	if level >= 2 {
		sep = " "
	}
	return badge + strings.Join(parts, sep) + clock + " "
}
