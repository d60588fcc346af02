package tuitest

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// AdoptAll adopts as core does (core/adoptall.go): the unmanaged
// applications of the request's cluster (every one's for ""), of its queue,
// user and AppIDs when given, none a job owns, in id order, each named
// after its application, made unique with -2, -3, …; a dry run only says
// so. The jobs it makes are DEPLOY_SUCCEEDED, leave the cluster's
// unmanaged list, and go to the watchers, as core publishes them.
// AdoptAllErr, when set, is what a call that is no dry run answers, having
// adopted nothing.
func (f *Fake) AdoptAll(ctx context.Context, r api.AdoptAllRequest) (api.AdoptAllResult, error) {
	f.record("AdoptAll %s %s dry=%v", r.Cluster, strings.Join(r.AppIDs, ","), r.DryRun)
	out := api.AdoptAllResult{DryRun: r.DryRun}
	if err := f.wait(ctx); err != nil {
		return out, err
	}
	f.Mu.Lock()
	defer f.Mu.Unlock()
	if !r.DryRun && f.AdoptAllErr != nil {
		return out, f.AdoptAllErr
	}
	owned, taken := map[string]bool{}, map[string]bool{}
	for _, j := range f.Jobs {
		taken[j.Name] = true
		if j.AppID != "" {
			owned[j.AppID] = true
		}
	}
	var clusters []string
	for name := range f.overviews {
		if r.Cluster == "" || name == r.Cluster {
			clusters = append(clusters, name)
		}
	}
	slices.Sort(clusters)
	for _, c := range clusters {
		apps := slices.Clone(f.overviews[c].Unmanaged)
		slices.SortFunc(apps, func(a, b api.Application) int { return strings.Compare(a.ID, b.ID) })
		for _, a := range apps {
			if owned[a.ID] || (r.Queue != "" && a.Queue != r.Queue) || (r.User != "" && a.User != r.User) ||
				(len(r.AppIDs) > 0 && !slices.Contains(r.AppIDs, a.ID)) {
				continue
			}
			name := a.Name
			for n := 2; taken[name]; n++ {
				name = fmt.Sprintf("%s-%d", a.Name, n)
			}
			taken[name] = true
			out.Adopted = append(out.Adopted, api.AdoptedApp{Cluster: c, AppID: a.ID, Name: name})
		}
	}
	if r.DryRun {
		return out, nil
	}
	out.Transactions = 1
	for i, a := range out.Adopted {
		j := model.Job{ID: fmt.Sprintf("j%03d", len(f.Jobs)+1), Name: a.Name, Kind: model.KindJAR, Cluster: a.Cluster,
			State: model.StateDeploySucceeded, AppID: a.AppID, CreatedAt: f.now}
		out.Adopted[i].JobID = j.ID
		f.Jobs = append(f.Jobs, api.JobView{Job: j})
		ov := f.overviews[a.Cluster]
		ov.Unmanaged = slices.DeleteFunc(slices.Clone(ov.Unmanaged), func(u api.Application) bool { return u.ID == a.AppID })
		f.overviews[a.Cluster] = ov
		f.emitLocked(api.Change{Kind: api.JobChanged, Job: &api.JobView{Job: j}})
	}
	return out, nil
}

// AddUnmanaged lists apps among cluster's unmanaged applications.
func (f *Fake) AddUnmanaged(cluster string, apps ...api.Application) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	ov := f.overviews[cluster]
	ov.Unmanaged = append(slices.Clone(ov.Unmanaged), apps...)
	f.overviews[cluster] = ov
}
