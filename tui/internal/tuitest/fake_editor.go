package tuitest

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// specPart is the fake's SQL versions and EXPLAIN.
type specPart struct{ f *Fake }

// FlinkVersion is the fake's SQL Gateway's release: GatewayVersion, else
// 2.1.0 as the simulator's.
func (p *specPart) FlinkVersion(ctx context.Context, cluster string) (string, error) {
	f := p.f
	f.record("FlinkVersion %s", cluster)
	if err := f.wait(ctx); err != nil {
		return "", err
	}
	f.Mu.Lock()
	defer f.Mu.Unlock()
	if f.GatewayVersion != "" {
		return f.GatewayVersion, nil
	}
	return "2.1.0", nil
}

// Explain is the fake's SQL Gateway: a plan naming the script's first
// INSERT target, or the error a gateway gives for a script without one.
func (p *specPart) Explain(ctx context.Context, cluster, sql string) (string, error) {
	f := p.f
	f.record("Explain %s", cluster)
	if err := f.wait(ctx); err != nil {
		return "", err
	}
	_, rest, ok := strings.Cut(strings.ToUpper(sql), "INSERT INTO ")
	if !ok {
		return "", fmt.Errorf("explain on %s: the script has no INSERT", cluster)
	}
	sink, _, _ := strings.Cut(rest, " ")
	return "== Optimized Execution Plan ==\nSink(table=[" + strings.ToLower(sink) + "])", nil
}

// DebugOnCluster records the call; the TUI runs no debug on a cluster.
func (p *specPart) DebugOnCluster(ctx context.Context, r api.RemoteDebugRequest) (api.RemoteDebugResult, error) {
	p.f.record("DebugOnCluster %s", r.Cluster)
	return api.RemoteDebugResult{Cluster: r.Cluster}, p.f.wait(ctx)
}

// SpecsOf lists a job's versions: those saved in the test, else its
// detail's spec, else an empty one of the job's version.
func (p *specPart) SpecsOf(ref string) ([]model.Spec, error) {
	f := p.f
	f.Mu.Lock()
	defer f.Mu.Unlock()
	i, err := f.find(ref)
	if err != nil {
		return nil, err
	}
	j := f.Jobs[i]
	if vs := f.Versions[j.ID]; len(vs) > 0 {
		return slices.Clone(vs), nil
	}
	if d, ok := f.details[j.ID]; ok && d.Spec.Version > 0 {
		return []model.Spec{d.Spec}, nil
	}
	return []model.Spec{{JobID: j.ID, Version: j.SpecVersion}}, nil
}

// saveSpec stores a new version and makes it the job's current one, as
// core does, with the change a watcher sees.
func (p *specPart) saveSpec(ref string, s model.Spec) (model.Spec, error) {
	f := p.f
	vs, err := f.SpecsOf(ref)
	if err != nil {
		return model.Spec{}, err
	}
	f.Mu.Lock()
	defer f.Mu.Unlock()
	i, _ := f.find(ref)
	j := &f.Jobs[i]
	s.JobID, s.Version, s.Author, s.CreatedAt = j.ID, vs[len(vs)-1].Version+1, "ops", f.now
	if f.Versions == nil {
		f.Versions = map[string][]model.Spec{}
	}
	f.Versions[j.ID] = append(vs, s)
	j.SpecVersion = s.Version
	if d, ok := f.details[j.ID]; ok {
		d.Spec = s
		f.details[j.ID] = d
	}
	jv := *j
	f.emitLocked(api.Change{Kind: api.JobChanged, Job: &jv})
	return s, nil
}

// SetRawJSON replaces the Flink job JSON that Job answers for a job (its
// live facts must exist, as orders-enrich's do).
func (f *Fake) SetRawJSON(jobID, raw string) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	d := f.details[jobID]
	if d.Live != nil {
		live := *d.Live
		live.RawJSON = raw
		d.Live = &live
	}
	f.details[jobID] = d
}
