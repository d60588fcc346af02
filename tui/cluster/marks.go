package cluster

import (
	"context"
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
)

// Marks choose applications for a to adopt at once: space marks the one
// under the cursor (and moves on), ctrl+a every one shown, x clears them.
// a on marks asks core for a dry run first (AdoptAll with DryRun), whose
// names the confirmation lists, then adopts what it listed in one call.

// adoptKey is the cause of the flashes of an adoption of marked
// applications (the busy one, then its result).
const adoptKey = "adopt:marked"

// mark marks or unmarks the application under the cursor and moves down,
// as the jobs table's space does. An application adopted since the list
// was loaded is a job's: it says so instead.
func (m *Screen) mark() tea.Cmd {
	a, ok := m.apps.Selected()
	if !ok {
		return nil
	}
	if job, ok := m.adopted[a.ID]; ok {
		return kit.Flash(kit.FlashWarn, fmt.Sprintf("mark: %s is job %s's now; only an unmanaged application can be adopted", a.ID, job))
	}
	if m.marks[a.ID] {
		delete(m.marks, a.ID)
	} else {
		m.marks[a.ID] = true
	}
	m.apps.Down()
	return nil
}

// markAll marks every application the list shows (those the filter lets
// through), but those adopted since it was loaded.
func (m *Screen) markAll() tea.Cmd {
	n := 0
	for _, a := range m.apps.Rows() {
		if _, gone := m.adopted[a.ID]; !gone && !m.marks[a.ID] {
			m.marks[a.ID] = true
			n++
		}
	}
	switch {
	case n == 0:
		return kit.Flash(kit.FlashInfo, fmt.Sprintf("every application shown is marked already (%d in all)", len(m.marks)))
	case n == len(m.marks):
		return kit.Flash(kit.FlashInfo, fmt.Sprintf("marked %s · a adopts them · x clears", kit.Plural(n, "application")))
	}
	return kit.Flash(kit.FlashInfo, fmt.Sprintf("marked %s more, %d in all · a adopts them · x clears", kit.Plural(n, "application"), len(m.marks)))
}

// loadedApps drops the marks and the adoptions of applications the list no
// longer has: adopted, ended, or gone.
func (m *Screen) loadedApps() {
	has := make(map[string]bool, len(m.apps.Items()))
	for _, a := range m.apps.Items() {
		has[a.ID] = true
	}
	for id := range m.marks {
		if !has[id] {
			delete(m.marks, id)
		}
	}
	for id := range m.adopted {
		if !has[id] {
			delete(m.adopted, id)
		}
	}
}

// marked are the marked applications' ids, sorted (core adopts in id
// order; the filter does not hide a mark: the user made it).
func (m *Screen) marked() []string {
	ids := make([]string, 0, len(m.marks))
	for id := range m.marks {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// plan asks core which of the marked applications it would adopt, and
// under which names: the dry run the confirmation shows.
func (m *Screen) plan() tea.Cmd {
	req := api.AdoptAllRequest{Cluster: m.name, AppIDs: m.marked(), DryRun: true}
	seq := m.env.NextSeq()
	m.planSeq = seq
	return kit.Busy(adoptKey, fmt.Sprintf("checking %s…", kit.Plural(len(req.AppIDs), "marked application")), adoptAllCmd(call(m.env), req, func(res api.AdoptAllResult, err error) tea.Msg {
		if err != nil {
			err = fmt.Errorf("adopt %s on %s (dry run): %w", kit.Plural(len(req.AppIDs), "marked application"), req.Cluster, err)
		}
		return plannedMsg{seq: seq, req: req, res: res, err: err}
	}))
}

// plannedMsg is the dry run of adopting the marked applications, the
// answer to the plan seq.
type plannedMsg struct {
	seq int
	req api.AdoptAllRequest
	res api.AdoptAllResult
	err error
}

// planned opens the confirmation of the dry run, or says why there is
// nothing to confirm.
func (m *Screen) planned(msg plannedMsg) tea.Cmd {
	switch {
	case msg.seq != m.planSeq:
		return nil // another screen's, or one a later a replaced
	case msg.req.Cluster != m.name:
		return kit.ClearFlash(adoptKey) // the user moved on to another cluster
	case msg.err != nil:
		return kit.FlashFor(adoptKey, kit.FlashError, msg.err.Error())
	case len(msg.res.Adopted) == 0:
		return kit.FlashFor(adoptKey, kit.FlashWarn, fmt.Sprintf("adopt: none of the %s can be adopted: a job owns it, or palink started it (a adopts one of those on its own)",
			kit.Plural(len(msg.req.AppIDs), "marked application")))
	}
	return tea.Batch(kit.ClearFlash(adoptKey), kit.Send(kit.OpenDialogMsg{Dialog: m.confirm(msg.req, msg.res)}))
}

// confirm is the confirmation of adopting what the dry run res of req
// listed: how many, the name each gets, and the marked ones it leaves.
// Cancel is focused.
func (m *Screen) confirm(req api.AdoptAllRequest, res api.AdoptAllResult) *kit.Confirm {
	n := len(res.Adopted)
	do := api.AdoptAllRequest{Cluster: req.Cluster}
	names := make([]string, 0, n)
	listed := make(map[string]bool, n)
	for _, a := range res.Adopted {
		do.AppIDs = append(do.AppIDs, a.AppID)
		names = append(names, a.AppID+" → "+a.Name)
		listed[a.AppID] = true
	}
	what := "%s on %s become palink jobs, named as below: palink syncs their state, records their checkpoints, and p, ctrl+k, r act on them. The applications keep running."
	if n == 1 {
		what = "%s on %s becomes a palink job, named as below: palink syncs its state, records its checkpoints, and p, ctrl+k, r act on it. The application keeps running."
	}
	body := []string{fmt.Sprintf(what, kit.Plural(n, "application"), req.Cluster)}
	var left []string
	for _, id := range req.AppIDs {
		if !listed[id] {
			left = append(left, id)
		}
	}
	if len(left) > 0 {
		body = append(body, fmt.Sprintf("Left as they are (a job owns them, or palink started them): %s.", strings.Join(left, ", ")))
	}
	title := fmt.Sprintf("Adopt %s?", kit.Plural(n, "application"))
	adopt := kit.Busy(adoptKey, fmt.Sprintf("adopting %s…", kit.Plural(n, "application")), adoptAllCmd(call(m.env), do, func(res api.AdoptAllResult, err error) tea.Msg {
		if err != nil {
			err = fmt.Errorf("adopt %s on %s: adopted %d, then: %w", kit.Plural(len(do.AppIDs), "application"), do.Cluster, len(res.Adopted), err)
		}
		return kit.AdoptedAllMsg{Req: do, Res: res, Err: err}
	}))
	return kit.NewConfirm(m.env, title, body, fmt.Sprintf("Adopt %d", n), adopt).List(names)
}

// adoptedAll clears the marks of what was adopted (all of them, when it
// all went well) and loads the list again.
func (m *Screen) adoptedAll(msg kit.AdoptedAllMsg) tea.Cmd {
	if msg.Req.Cluster != m.name {
		return nil
	}
	for _, a := range msg.Res.Adopted {
		m.adopted[a.AppID] = a.Name
		delete(m.marks, a.AppID)
	}
	if msg.Err == nil {
		clear(m.marks)
	}
	return m.load()
}

func adoptAllCmd(c kit.Call[Service], req api.AdoptAllRequest, done func(api.AdoptAllResult, error) tea.Msg) tea.Cmd {
	return func() tea.Msg {
		var res api.AdoptAllResult
		err := c.With(func(ctx context.Context) (err error) {
			res, err = c.Service.AdoptAll(ctx, req)
			return err
		})
		return done(res, err)
	}
}
