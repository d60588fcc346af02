package core

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/core/decide"
	"github.com/palink/palink/core/journal"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn"
)

// adoptBatch is how many applications one AdoptAll transaction adopts
// (a store on etcd takes fewer: a batch too large is split in halves).
const adoptBatch = 500

// adoptCandidate is one application AdoptAll will adopt.
type adoptCandidate struct {
	cluster string
	app     yarn.Application
	name    string
}

// bulkAdopter is Local's bulk adoption (AdoptAll), a part of its own.
type bulkAdopter struct{ l *Local }

// AdoptAll implements Service: one RM list per cluster, one read of the
// jobs for the index of the applications and names they own, then the
// applications in batches, each one transaction.
func (a bulkAdopter) AdoptAll(ctx context.Context, r api.AdoptAllRequest) (api.AdoptAllResult, error) {
	l := a.l
	out := api.AdoptAllResult{DryRun: r.DryRun}
	if l.readOnly {
		return out, api.ReadOnly("adopt")
	}
	if r.NameFrom != "" && r.NameFrom != "app" && r.NameFrom != "tag" {
		return out, fmt.Errorf("adopt: --name-from %q: want app or tag", r.NameFrom)
	}
	names := clusterNames(l.specs)
	if r.Cluster != "" {
		if l.clusters[r.Cluster] == nil {
			return out, fmt.Errorf("adopt: cluster %q is not configured (known: %s)", r.Cluster, strings.Join(names, ", "))
		}
		names = []string{r.Cluster}
	}
	// The index: which applications jobs own, which names they hold.
	owned, taken := map[string]bool{}, map[string]bool{}
	if err := l.st.View(ctx, func(tx store.ReadTx) error {
		jobs, err := tx.Jobs()
		clear(owned)
		clear(taken)
		for _, j := range jobs {
			taken[j.Name] = true
			if j.AppID != "" && !j.Session {
				owned[j.AppID] = true
			}
		}
		return err
	}); err != nil {
		return out, err
	}
	var only map[string]bool // AppIDs, when the request names them
	if len(r.AppIDs) > 0 {
		only = make(map[string]bool, len(r.AppIDs))
		for _, id := range r.AppIDs {
			only[id] = true
		}
	}
	var todo []adoptCandidate
	for _, name := range names {
		cl := l.clusters[name]
		apps, err := cl.RM.Applications(ctx, yarn.AppFilter{ApplicationTypes: []string{cl.Cfg.ApplicationType}, States: clusters.LiveStates})
		cl.Observe(err, l.now())
		if err != nil {
			return out, fmt.Errorf("adopt: cluster %s: list applications: %w", name, err)
		}
		sort.Slice(apps, func(i, k int) bool { return apps[i].ID < apps[k].ID })
		for _, a := range apps {
			// Applications a palink tagged are its own (or another store's):
			// `palink adopt APP_ID` takes those one by one.
			if owned[a.ID] || a.Final() || clusters.HasTag(a.Tags(), clusters.TagPalink) ||
				(r.Queue != "" && a.Queue != r.Queue) || (r.User != "" && a.User != r.User) || (only != nil && !only[a.ID]) {
				continue
			}
			todo = append(todo, adoptCandidate{cluster: name, app: a, name: uniqueName(adoptName(a, r.NameFrom), taken)})
		}
	}
	for _, c := range todo {
		out.Adopted = append(out.Adopted, api.AdoptedApp{Cluster: c.cluster, AppID: c.app.ID, Name: c.name})
	}
	if r.DryRun {
		return out, nil
	}
	user := orUser(r.Issuer, l.user)
	// The call itself is audited (each job's adoption is too), so that a
	// call that found nothing to adopt is on record as well.
	defer func() {
		_ = l.st.Update(context.WithoutCancel(ctx), func(tx store.Tx) error {
			_, err := tx.AppendAudit(model.AuditEntry{Time: l.now(), User: user, Action: "adopt --all",
				Outcome: fmt.Sprintf("%d applications of cluster %q, queue %q, user %q", len(out.Adopted), r.Cluster, r.Queue, r.User)})
			return err
		})
	}()
	var done []model.Job
	var events []*model.Event
	// A batch the store refused as too large is split in halves; the
	// batches after it start at the size that fitted, so that each is not
	// built and refused again (on etcd, 128 operations: ~15 jobs).
	size := adoptBatch
	for from := 0; from < len(todo); {
		n := min(size, len(todo)-from)
		js, evs, txns, fit, err := a.adoptBatch(ctx, todo[from:from+n], user)
		from += n
		size = fit
		out.Transactions += txns
		done, events = append(done, js...), append(events, evs...)
		if err != nil {
			out.Adopted = adoptedOf(done)
			return out, err
		}
	}
	for i, j := range done {
		publisher{l}.Job(j, nil, events[i])
	}
	out.Adopted = adoptedOf(done)
	return out, nil
}

func adoptedOf(jobs []model.Job) []api.AdoptedApp {
	out := make([]api.AdoptedApp, 0, len(jobs))
	for _, j := range jobs {
		out = append(out, api.AdoptedApp{Cluster: j.Cluster, AppID: j.AppID, Name: j.Name, JobID: j.ID})
	}
	return out
}

// adoptBatch adopts cs in one transaction, or, when the store refuses one
// that large (etcd's limits), in halves. It returns the jobs and events,
// the transactions tried and the size of the smallest batch committed.
func (a bulkAdopter) adoptBatch(ctx context.Context, cs []adoptCandidate, user string) ([]model.Job, []*model.Event, int, int, error) {
	l := a.l
	now := l.now()
	var (
		jobs   []model.Job
		events []*model.Event
	)
	err := l.st.Update(ctx, func(tx store.Tx) error {
		jobs, events = jobs[:0], events[:0]
		for _, c := range cs {
			if _, err := tx.JobByName(c.name); err == nil {
				return fmt.Errorf("adopt %s as %s: %w", c.app.ID, c.name, store.ErrExists)
			}
			j := model.Job{ID: newJobID(), Name: c.name, Kind: model.KindJAR, Cluster: c.cluster, SpecVersion: 1,
				AppID: c.app.ID, TrackingURL: c.app.TrackingURL, JMAddress: c.app.AMRPCAddress, CreatedAt: now, UpdatedAt: now}
			if err := tx.CreateJob(j); err != nil {
				return fmt.Errorf("adopt %s as %s: %w", c.app.ID, c.name, err)
			}
			if _, err := tx.AddSpec(model.Spec{JobID: j.ID, Author: user, CreatedAt: now,
				Note: fmt.Sprintf("adopted from %s (%s); its code is not known to palink", c.app.ID, c.app.Name)}); err != nil {
				return err
			}
			j, ev, err := journal.Apply(tx, j, decide.EvAdopt, fmt.Sprintf("adopted %s by %s", c.app.ID, user), "", now)
			if err != nil {
				return err
			}
			if _, err := tx.AppendAudit(model.AuditEntry{Time: now, User: user, Action: "adopt", JobID: j.ID, Outcome: "succeeded: " + c.app.ID}); err != nil {
				return err
			}
			jobs, events = append(jobs, j), append(events, ev)
		}
		return nil
	})
	if errors.Is(err, store.ErrTooLarge) && len(cs) > 1 {
		half := len(cs) / 2
		j1, e1, t1, f1, err := a.adoptBatch(ctx, cs[:half], user)
		if err != nil {
			return j1, e1, 1 + t1, f1, err
		}
		j2, e2, t2, f2, err := a.adoptBatch(ctx, cs[half:], user)
		return append(j1, j2...), append(e1, e2...), 1 + t1 + t2, min(f1, f2), err
	}
	if err != nil {
		return nil, nil, 1, 1, err
	}
	return jobs, events, 1, len(cs), nil
}

// adoptName is the name an application's job gets, before it is made
// unique: its YARN name, or with from "tag" its first tag.
func adoptName(a yarn.Application, from string) string {
	if from == "tag" {
		if tags := a.Tags(); len(tags) > 0 && tags[0] != "" {
			return sanitizeName(tags[0])
		}
	}
	return sanitizeName(a.Name)
}

// uniqueName is base, or base-2, base-3, … when taken, and takes it. A
// base that is no job name (too long, not starting with a letter or a
// digit) is made one first.
func uniqueName(base string, taken map[string]bool) string {
	base = strings.TrimLeft(base, "-_.")
	if len(base) > 90 {
		base = base[:90]
	}
	if base == "" {
		base = "adopted"
	}
	name := base
	for n := 2; taken[name]; n++ {
		name = fmt.Sprintf("%s-%d", base, n)
	}
	taken[name] = true
	return name
}
