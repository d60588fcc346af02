package observe

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/journal"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// Alerts: the rules of the config are evaluated after every metrics round
// over what state sync records of every job (FAILED, drift, the latest
// checkpoint) and what the observer measured (restarts, failed
// checkpoints, backpressure, lag). Each (rule, job) has at most one alert
// record in the store, firing or resolved, with the webhooks that were told:
// a restarted palink neither fires again what already fires nor notifies
// twice. Deliveries are notify.go's.

// resolvedKept is how long a resolved alert stays listed.
const resolvedKept = 24 * time.Hour

// alerter holds the rules and the alerts' state.
type alerter struct {
	rules []Rule

	mu     sync.Mutex
	alerts map[string]*model.Alert // by key; the latest record per (rule, job)
	// pending is when a condition started to hold, for rules with a For.
	pending map[string]time.Time
	// dirty are the alerts changed in memory and not yet stored.
	dirty map[string]bool
	// undos are the last acknowledgement or silence of each alert, which
	// their issuer may still take back (noteUndo).
	undos map[string]undoable
}

func newAlerter(rules []Rule) *alerter {
	return &alerter{
		rules:   slices.Clone(rules),
		alerts:  map[string]*model.Alert{},
		pending: map[string]time.Time{},
		dirty:   map[string]bool{},
	}
}

// forget drops what memory holds of the alerts, for a palink that stops
// judging the rules: another judges on, and the store has the truth.
func (a *alerter) forget() {
	a.mu.Lock()
	defer a.mu.Unlock()
	clear(a.alerts)
	clear(a.pending)
	clear(a.dirty)
}

func (a *alerter) load(stored []model.Alert) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for i := range stored {
		s := stored[i]
		a.alerts[s.Key()] = &s
	}
}

// watchesMetrics reports whether some rule needs measured metrics.
func (a *alerter) watchesMetrics() bool {
	for _, r := range a.rules {
		if MetricRule(r.Kind) {
			return true
		}
	}
	return false
}

// watchesMetricsOf reports whether a metric rule selects job j.
func (a *alerter) watchesMetricsOf(j model.Job) bool {
	for _, r := range a.rules {
		if MetricRule(r.Kind) && r.Selects(j.Name, j.Cluster) {
			return true
		}
	}
	return false
}

// longestWindow is how long restart marks must be kept.
func (a *alerter) longestWindow() time.Duration {
	w := time.Duration(0)
	for _, r := range a.rules {
		if r.Kind == RuleRestarts {
			w = max(w, r.Window)
		}
	}
	return w
}

// alertInput is what the rules read of one job's measures.
type alertInput struct {
	measured    bool
	latest      api.MetricPoint
	collectedAt time.Time
	restarts    []restartMark
}

func (in alertInput) restartsSince(t time.Time) int64 {
	var n int64
	for _, m := range in.restarts {
		if !m.at.Before(t) {
			n += m.n
		}
	}
	return n
}

// verdict is a rule's judgement of one job: whether its condition holds,
// with the value that shows it; known is false when there is nothing
// recent to judge by, and the alert then stays as it is.
type verdict struct {
	holds bool
	value string
	known bool
}

// judge applies rule r to job j at now. stale is how old a measure may be.
func judge(r Rule, j model.Job, in alertInput, now time.Time, stale time.Duration) verdict {
	switch r.Kind {
	case RuleJobFailed:
		if j.State != model.StateFailed {
			return verdict{known: true}
		}
		v := "FAILED"
		if d := model.FirstLine(strings.TrimSpace(j.Diagnostics)); d != "" {
			v += ": " + clipRunes(d, 200)
		}
		return verdict{holds: true, value: v, known: true}
	case RuleDrift:
		if j.Drift == nil {
			return verdict{known: true}
		}
		return verdict{holds: true, value: fmt.Sprintf("platform expects %s, %s", j.Drift.Expected, j.Drift.Observed), known: true}
	case RuleCheckpointAge:
		if j.State != model.StateRunning {
			return verdict{known: true}
		}
		limit := r.Age
		switch {
		case in.measured && now.Sub(in.collectedAt) <= stale && in.latest.CheckpointAge >= 0:
			age := in.latest.CheckpointAge + now.Sub(in.collectedAt)
			return verdict{holds: age > limit, value: fmt.Sprintf("latest checkpoint %s ago (limit %s)", shortDuration(roundAge(age)), shortDuration(limit)), known: true}
		case j.LatestCheckpoint != nil && !j.LatestCheckpoint.Time.IsZero():
			age := now.Sub(j.LatestCheckpoint.Time)
			return verdict{holds: age > limit, value: fmt.Sprintf("latest checkpoint %s ago (limit %s)", shortDuration(roundAge(age)), shortDuration(limit)), known: true}
		case !j.StartedAt.IsZero():
			up := now.Sub(j.StartedAt)
			return verdict{holds: up > limit, value: fmt.Sprintf("no checkpoint in the %s since it started (limit %s)", shortDuration(roundAge(up)), shortDuration(limit)), known: true}
		}
		return verdict{}
	}
	// The metric rules: a job that does not run has no such trouble; one
	// that runs is judged by a recent measure only.
	if j.State != model.StateRunning {
		return verdict{known: true}
	}
	if !in.measured || now.Sub(in.collectedAt) > stale {
		return verdict{}
	}
	p := in.latest
	switch r.Kind {
	case RuleRestarts:
		n := in.restartsSince(now.Add(-r.Window))
		return verdict{holds: n > int64(r.Count), value: fmt.Sprintf("%d restarts in %s (limit %d)", n, shortDuration(r.Window), r.Count), known: true}
	case RuleFailedCheckpoints:
		return verdict{holds: p.FailedInARow >= r.Count, value: fmt.Sprintf("%d failed checkpoints in a row (limit %d)", p.FailedInARow, r.Count), known: true}
	case RuleBackpressure:
		v := fmt.Sprintf("backpressure %d%% at %s (limit %d%%)", percent(p.Backpressure), dashIfEmpty(p.BackpressureVertex), percent(r.Above))
		return verdict{holds: p.Backpressure > r.Above, value: v, known: true}
	case RuleLag:
		if p.Lag < 0 {
			return verdict{known: true} // the sources report no lag
		}
		return verdict{holds: p.Lag > r.Above, value: fmt.Sprintf("consumer lag %s records (limit %s)", countText(p.Lag), countText(r.Above)), known: true}
	}
	return verdict{}
}

// evaluateAlerts judges every rule over every job it selects, fires and
// resolves alerts, stores what changed and tells watchers.
func (o *Observer) evaluateAlerts(ctx context.Context) error {
	a := o.al
	now := o.now()
	stale := 3 * o.alertInterval
	o.mu.Lock()
	jobs := make([]model.Job, 0, len(o.known))
	for _, j := range o.known {
		jobs = append(jobs, j)
	}
	inputs := make(map[string]alertInput, len(o.jobs))
	for id, jm := range o.jobs {
		if !jm.collectedAt.IsZero() {
			inputs[id] = alertInput{measured: true, latest: jm.latest, collectedAt: jm.collectedAt, restarts: slices.Clone(jm.restarts)}
		}
	}
	o.mu.Unlock()

	if err := o.mergeHandling(ctx); err != nil {
		return err
	}
	changed := a.evaluate(jobs, inputs, now, stale)
	if err := o.storeAlerts(ctx); err != nil {
		return err
	}
	if changed {
		o.pub.Publish(api.Change{Kind: api.AlertsChanged})
	}
	return nil
}

// evaluate updates the alerts in memory and reports whether any fired,
// resolved or was forgotten.
func (a *alerter) evaluate(jobs []model.Job, inputs map[string]alertInput, now time.Time, stale time.Duration) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	changed := false
	judged := map[string]bool{}
	for _, r := range a.rules {
		for _, j := range jobs {
			if !r.Selects(j.Name, j.Cluster) {
				continue
			}
			key := model.AlertKey(r.Name, j.ID)
			judged[key] = true
			v := judge(r, j, inputs[j.ID], now, stale)
			if !v.known {
				continue
			}
			cur := a.alerts[key]
			firing := cur != nil && cur.State == model.AlertFiring
			switch {
			case v.holds && firing:
				cur.Value = v.value // shown, not stored: it moves every round
			case v.holds:
				since, ok := a.pending[key]
				if !ok {
					since, a.pending[key] = now, now
				}
				if now.Sub(since) < r.For {
					continue
				}
				delete(a.pending, key)
				al := &model.Alert{Rule: r.Name, Kind: r.Kind, Severity: r.Severity, JobID: j.ID, JobName: j.Name,
					Cluster: j.Cluster, State: model.AlertFiring, Since: since, Value: v.value, UpdatedAt: now}
				if cur != nil && cur.Silenced(now) {
					// A silence covers the rule and job, not one firing.
					al.SilencedUntil, al.SilencedBy = cur.SilencedUntil, cur.SilencedBy
				}
				al.Message = alertMessage(al, now)
				a.alerts[key], a.dirty[key], changed = al, true, true
			default:
				delete(a.pending, key)
				if firing {
					a.resolve(cur, now, v.value)
					changed = true
				}
			}
		}
	}
	// Alerts whose rule or job is gone, or that the rule no longer selects,
	// resolve; long-resolved ones that owe no message are forgotten.
	for key, al := range a.alerts {
		switch {
		case al.State == model.AlertFiring && !judged[key]:
			a.resolve(al, now, "no longer watched")
			changed = true
		case al.State == model.AlertResolved && now.Sub(al.ResolvedAt) > resolvedKept && !a.owesResolve(al):
			delete(a.alerts, key)
			a.dirty[key], changed = true, true
		}
	}
	for key := range a.pending {
		if !judged[key] {
			delete(a.pending, key)
		}
	}
	return changed
}

func (a *alerter) resolve(al *model.Alert, now time.Time, value string) {
	al.State, al.ResolvedAt, al.UpdatedAt = model.AlertResolved, now, now
	if value != "" {
		al.Value = value
	}
	al.Message = alertMessage(al, now)
	a.dirty[al.Key()] = true
}

// owesResolve: a webhook was told of the firing and not yet of the resolve.
func (a *alerter) owesResolve(al *model.Alert) bool {
	for _, h := range al.Notified {
		if !slices.Contains(al.ResolveNotified, h) {
			return true
		}
	}
	return false
}

// mergeHandling takes into memory the acknowledgements and silences
// written to the store by another palink (one that does not judge the
// rules acts on an alert in the store), so that the judging palink's next
// write keeps them and its webhooks honour a silence set elsewhere.
func (o *Observer) mergeHandling(ctx context.Context) error {
	var stored []model.Alert
	if err := o.st.View(ctx, func(tx store.ReadTx) (err error) { stored, err = tx.Alerts(); return err }); err != nil {
		return fmt.Errorf("read alerts: %w", err)
	}
	a := o.al
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, s := range stored {
		m, ok := a.alerts[s.Key()]
		if !ok || a.dirty[s.Key()] || !s.UpdatedAt.After(m.UpdatedAt) {
			continue
		}
		if s.Since.Equal(m.Since) { // an acknowledgement is of one firing
			m.AckedBy, m.AckedAt = s.AckedBy, s.AckedAt
		}
		m.SilencedBy, m.SilencedUntil = s.SilencedBy, s.SilencedUntil
		m.UpdatedAt = s.UpdatedAt
	}
	return nil
}

// storeAlerts writes the changed alerts (a deleted one is one no longer in
// memory). A failure keeps them dirty for the next round.
func (o *Observer) storeAlerts(ctx context.Context) error {
	a := o.al
	a.mu.Lock()
	if len(a.dirty) == 0 {
		a.mu.Unlock()
		return nil
	}
	puts := make([]model.Alert, 0, len(a.dirty))
	var dels []string
	for key := range a.dirty {
		if al, ok := a.alerts[key]; ok {
			c := *al
			c.Notified, c.ResolveNotified = slices.Clone(al.Notified), slices.Clone(al.ResolveNotified)
			puts = append(puts, c)
		} else {
			dels = append(dels, key)
		}
	}
	clear(a.dirty)
	a.mu.Unlock()
	err := o.writer().Update(ctx, func(tx store.Tx) error {
		for _, al := range puts {
			if err := tx.PutAlert(al); err != nil {
				return err
			}
		}
		for _, key := range dels {
			rule, job, _ := strings.Cut(key, "/")
			if err := tx.DeleteAlert(rule, job); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		a.mu.Lock()
		for _, al := range puts {
			a.dirty[al.Key()] = true
		}
		for _, k := range dels {
			a.dirty[k] = true
		}
		a.mu.Unlock()
		return fmt.Errorf("store alerts: %w", err)
	}
	return nil
}

// Alerts implements Service. It reads the store, so that any palink on the
// host (a read-only one too) lists what the agent decided.
func (o *Observer) Alerts(ctx context.Context, f api.AlertFilter) ([]model.Alert, error) {
	var out []model.Alert
	err := o.st.View(ctx, func(tx store.ReadTx) error {
		jobID := ""
		if f.JobRef != "" {
			j, err := journal.FindJob(tx, f.JobRef)
			if err != nil {
				return err
			}
			jobID = j.ID
		}
		all, err := tx.Alerts()
		if err != nil {
			return err
		}
		for _, a := range all {
			if (jobID == "" || a.JobID == jobID) && (len(f.States) == 0 || slices.Contains(f.States, a.State)) {
				out = append(out, a)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list alerts: %w", err)
	}
	// The stored value is the one that fired; a firing alert's latest one
	// is in memory.
	a := o.al
	a.mu.Lock()
	for i := range out {
		if m, ok := a.alerts[out[i].Key()]; ok && m.State == out[i].State && m.Since.Equal(out[i].Since) {
			out[i].Value = m.Value
		}
	}
	a.mu.Unlock()
	sortAlerts(out)
	return out, nil
}

// sortAlerts orders firing alerts first, newest first, then resolved ones,
// most recently resolved first.
func sortAlerts(as []model.Alert) {
	sort.SliceStable(as, func(i, k int) bool {
		a, b := as[i], as[k]
		if a.State != b.State {
			return a.State == model.AlertFiring
		}
		ta, tb := a.Since, b.Since
		if a.State == model.AlertResolved {
			ta, tb = a.ResolvedAt, b.ResolvedAt
		}
		if !ta.Equal(tb) {
			return ta.After(tb)
		}
		return a.Key() < b.Key()
	})
}

// alertMessage is the one line webhooks send and logs keep.
func alertMessage(a *model.Alert, now time.Time) string {
	who := a.JobName
	if a.Cluster != "" {
		who += " (" + a.Cluster + ")"
	}
	if a.State == model.AlertResolved {
		return fmt.Sprintf("[RESOLVED] %s · %s after %s: %s", a.Rule, who, shortDuration(roundAge(a.ResolvedAt.Sub(a.Since))), a.Value)
	}
	return fmt.Sprintf("[FIRING] %s · %s: %s", a.Rule, who, a.Value)
}

func roundAge(d time.Duration) time.Duration {
	switch {
	case d >= time.Hour:
		return d.Round(time.Minute)
	case d >= time.Minute:
		return d.Round(time.Second)
	}
	return d.Round(100 * time.Millisecond)
}

// shortDuration writes a duration without its zero tail: "10m", "1h30m", "2.5s".
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

func percent(r float64) int { return int(math.Round(r * 100)) }

// countText renders a record count compactly: 950, 12.4k, 1.2M.
func countText(v float64) string {
	switch {
	case v >= 1e6:
		return fmt.Sprintf("%.1fM", v/1e6)
	case v >= 1e3:
		return fmt.Sprintf("%.1fk", v/1e3)
	}
	return fmt.Sprintf("%.0f", v)
}

// clipRunes keeps the first n runes of s.
func clipRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

func dashIfEmpty(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// ActOnAlert implements api.Service: it changes the alert where it lives —
// in memory when this process judges the rules (its next store write keeps
// the change), else in the store.
func (o *Observer) ActOnAlert(ctx context.Context, act api.AlertAction) (model.Alert, error) {
	if !act.Ack && act.Silence <= 0 && !act.Unsilence && !act.Undo {
		return model.Alert{}, fmt.Errorf("alert %s of %s: nothing to do: acknowledge, silence for a while, lift a silence, or undo", act.Rule, act.JobRef)
	}
	var jobID string
	if err := o.st.View(ctx, func(tx store.ReadTx) error {
		j, err := journal.FindJob(tx, act.JobRef)
		jobID = j.ID
		return err
	}); err != nil {
		return model.Alert{}, err
	}
	now := o.now()
	key := model.AlertKey(act.Rule, jobID)
	a := o.al
	var undo undoable
	if act.Undo {
		var err error
		if undo, err = a.undoable(key, act, now); err != nil {
			return model.Alert{}, err
		}
	}
	// done is what the change leaves to undo: the alert's handling before
	// and after an acknowledgement or a silence.
	var done *undoable
	change := func(al *model.Alert) error {
		before := handlingOf(al)
		switch {
		case act.Undo:
			if err := undo.takeBack(al); err != nil {
				return err
			}
		case act.Ack && al.State != model.AlertFiring:
			return fmt.Errorf("alert %s of %s is %s: only a firing alert is acknowledged: %w", al.Rule, al.JobName, al.State, model.ErrRefused)
		case act.Ack:
			al.AckedBy, al.AckedAt = act.Issuer, now
			done = &undoable{issuer: act.Issuer, at: now, ack: true, before: before, after: handlingOf(al)}
		case act.Unsilence:
			al.SilencedUntil, al.SilencedBy = time.Time{}, ""
		default:
			al.SilencedUntil, al.SilencedBy = now.Add(act.Silence), act.Issuer
			done = &undoable{issuer: act.Issuer, at: now, before: before, after: handlingOf(al)}
		}
		al.UpdatedAt = now
		return nil
	}
	a.mu.Lock()
	if al, ok := a.alerts[key]; ok {
		err := change(al)
		if err == nil {
			a.dirty[key] = true
			a.noteUndo(key, done, act.Undo)
		}
		out := copyAlert(al)
		a.mu.Unlock()
		if err != nil {
			return model.Alert{}, err
		}
		if err := o.storeAlerts(ctx); err != nil {
			return model.Alert{}, err
		}
		o.pub.Publish(api.Change{Kind: api.AlertsChanged})
		return out, nil
	}
	a.mu.Unlock()
	var out model.Alert
	err := o.st.Update(ctx, func(tx store.Tx) error {
		all, err := tx.Alerts()
		if err != nil {
			return err
		}
		for _, al := range all {
			if al.Key() == key {
				if err := change(&al); err != nil {
					return err
				}
				out = al
				return tx.PutAlert(al)
			}
		}
		return fmt.Errorf("alert %s of %s: %w", act.Rule, act.JobRef, model.ErrNotFound)
	})
	if err == nil {
		a.mu.Lock()
		a.noteUndo(key, done, act.Undo)
		a.mu.Unlock()
		o.pub.Publish(api.Change{Kind: api.AlertsChanged})
	}
	return out, err
}

// undoGrace is how much longer than api.AlertUndoWindow an undo is taken:
// a client counts the window from when the answer reached it.
const undoGrace = 5 * time.Second

// handling is who has an alert in hand: its acknowledgement and its
// silence.
type handling struct {
	ackedBy       string
	ackedAt       time.Time
	silencedBy    string
	silencedUntil time.Time
}

func handlingOf(al *model.Alert) handling {
	return handling{ackedBy: al.AckedBy, ackedAt: al.AckedAt, silencedBy: al.SilencedBy, silencedUntil: al.SilencedUntil}
}

// undoable is the last acknowledgement or silence of an alert, which its
// issuer may take back for a while (api.AlertAction.Undo): the alert's
// handling before and after it. Only this process's memory holds it: an
// undo is a slip caught at once, not history.
type undoable struct {
	issuer        string
	at            time.Time
	ack           bool // an acknowledgement, else a silence
	before, after handling
}

// what names the action for errors: "acknowledgement", "silence".
func (u undoable) what() string {
	if u.ack {
		return "acknowledgement"
	}
	return "silence"
}

// takeBack puts al's acknowledgement or silence back as it was before u,
// unless someone changed it since: the undo would wipe their change.
func (u undoable) takeBack(al *model.Alert) error {
	now := handlingOf(al)
	if u.ack {
		if now.ackedBy != u.after.ackedBy || !now.ackedAt.Equal(u.after.ackedAt) {
			return fmt.Errorf("undo the %s of alert %s of %s: it changed since: %w", u.what(), al.Rule, al.JobName, model.ErrRefused)
		}
		al.AckedBy, al.AckedAt = u.before.ackedBy, u.before.ackedAt
		return nil
	}
	if now.silencedBy != u.after.silencedBy || !now.silencedUntil.Equal(u.after.silencedUntil) {
		return fmt.Errorf("undo the %s of alert %s of %s: it changed since: %w", u.what(), al.Rule, al.JobName, model.ErrRefused)
	}
	al.SilencedBy, al.SilencedUntil = u.before.silencedBy, u.before.silencedUntil
	return nil
}

// undoable is what act (an Undo) may take back of the alert key: the
// issuer's own last acknowledgement or silence of it, within the window.
func (a *alerter) undoable(key string, act api.AlertAction, now time.Time) (undoable, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	u, ok := a.undos[key]
	if !ok || u.issuer != act.Issuer || now.Sub(u.at) > api.AlertUndoWindow+undoGrace {
		return undoable{}, fmt.Errorf("alert %s of %s: nothing to undo: only your own acknowledgement or silence, within %s: %w",
			act.Rule, act.JobRef, model.Age(api.AlertUndoWindow), model.ErrRefused)
	}
	return u, nil
}

// noteUndo records done as what can be taken back of the alert key (with
// a.mu held), or forgets it once undone; any other change keeps the last
// one, which takeBack then finds changed. Old ones go.
func (a *alerter) noteUndo(key string, done *undoable, undone bool) {
	if a.undos == nil {
		a.undos = map[string]undoable{}
	}
	switch {
	case done != nil:
		for k, u := range a.undos {
			if done.at.Sub(u.at) > api.AlertUndoWindow+undoGrace {
				delete(a.undos, k)
			}
		}
		a.undos[key] = *done
	case undone:
		delete(a.undos, key)
	}
}
