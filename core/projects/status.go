package projects

import (
	"time"

	"github.com/palink/palink/model"
)

// liveBuild is a build running in this process, as Status shows it.
type liveBuild struct {
	phase   model.BuildPhase
	commit  string
	started time.Time
	log     *tail
}

// watch records a build as running, and returns progress made to keep
// its phase current too.
func (b *Builder) watch(name string, started time.Time, log *tail, progress func(model.BuildPhase, string)) func(model.BuildPhase, string) {
	lb := &liveBuild{started: started, log: log}
	b.mu.Lock()
	b.live[name] = lb
	b.mu.Unlock()
	return func(p model.BuildPhase, commit string) {
		b.mu.Lock()
		lb.phase = p
		if commit != "" {
			lb.commit = commit
		}
		b.mu.Unlock()
		progress(p, commit)
	}
}

func (b *Builder) unwatch(name string) {
	b.mu.Lock()
	delete(b.live, name)
	b.mu.Unlock()
}

// Status is the build of a project running in this process now: its
// phase, commit, start and log so far; running is false when none runs.
func (b *Builder) Status(name string) (phase model.BuildPhase, commit string, started time.Time, log string, running bool) {
	b.mu.Lock()
	lb := b.live[name]
	if lb != nil {
		phase, commit, started = lb.phase, lb.commit, lb.started
	}
	b.mu.Unlock()
	if lb == nil {
		return "", "", time.Time{}, "", false
	}
	return phase, commit, started, lb.log.String(), true
}
