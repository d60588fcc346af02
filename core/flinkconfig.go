package core

import (
	"context"
	"fmt"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/catalog"
	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/flinksql/ast"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// FlinkConfig implements api.DiagnoseService: the configuration the job's
// cluster reports (diagnose.Inspector), with each setting palink gave it
// from a secret variable shown as written — ${name} and all — since the
// cluster reports the value (Flink hides only the keys it deems
// sensitive, and env.java.opts is none). No secret is read for it.
func (l *Local) FlinkConfig(ctx context.Context, ref string) (api.FlinkConfig, error) {
	conf, err := l.Inspector.FlinkConfig(ctx, ref)
	if err != nil || conf.JobID == "" {
		return conf, err
	}
	settings, err := l.secretSettings(ctx, conf.JobID)
	if err != nil {
		return api.FlinkConfig{}, fmt.Errorf("configuration of job %s: %w", ref, err)
	}
	writtenAs(&conf, settings)
	return conf, nil
}

// secretSettings are the Flink settings palink gives a job's cluster from
// a secret variable — by the job's config or a SET of its script — as
// written, by key.
func (l *Local) secretSettings(ctx context.Context, jobID string) (map[string]string, error) {
	var (
		j    model.Job
		vs   []model.Variable
		spec model.Spec
	)
	err := l.st.View(ctx, func(tx store.ReadTx) (err error) {
		if j, err = tx.Job(jobID); err != nil {
			return err
		}
		if vs, err = catalog.ClusterVars(tx, j.Cluster); err != nil {
			return err
		}
		if j.Kind == model.KindSQL && j.SpecVersion > 0 {
			spec, err = tx.Spec(j.ID, j.SpecVersion)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("read its variables: %w", err)
	}
	secret := map[string]bool{}
	for _, v := range vs {
		if v.Secret() {
			secret[v.Name] = true
		}
	}
	if len(secret) == 0 {
		return nil, nil
	}
	uses := func(s string) bool {
		for _, r := range flinksql.FindVars(s) {
			if secret[r.Name] {
				return true
			}
		}
		return false
	}
	out := map[string]string{}
	if script, _ := flinksql.ParseScript(spec.SQL); script != nil {
		for _, st := range script.Stmts {
			if set, ok := st.(*ast.SetStmt); ok && set.HasValue && uses(set.Value) {
				out[set.Key] = set.Value
			}
		}
	}
	for k, v := range j.Config {
		if uses(v) {
			out[k] = v
		}
	}
	return out, nil
}

// userConfigPrefix is how a job's config names a global job parameter,
// which Flink reports in the job's user config by its own name.
const userConfigPrefix = "pipeline.global-job-parameters."

// writtenAs replaces the value of each setting of conf that palink set
// from a secret by what was written.
func writtenAs(conf *api.FlinkConfig, settings map[string]string) {
	if len(settings) == 0 {
		return
	}
	for i, e := range conf.JobManager {
		if w, ok := settings[e.Key]; ok {
			conf.JobManager[i].Value = w
		}
	}
	if len(conf.Job.UserConfig) == 0 {
		return
	}
	user := make(map[string]string, len(conf.Job.UserConfig))
	for k, v := range conf.Job.UserConfig {
		if w, ok := settings[userConfigPrefix+k]; ok {
			v = w
		}
		user[k] = v
	}
	conf.Job.UserConfig = user
}
