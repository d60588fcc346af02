package projects

import (
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// maxRunLog bounds the log a build view keeps: the tail of a long build.
const maxRunLog = 256 << 10

// buildRun is what a build's goroutine and its view share: the log as it
// comes, the phase and commit, and the outcome. The view copies it on each
// tick (snapshot), so it never reads the goroutine's state unlocked.
type buildRun struct {
	mu     sync.Mutex
	log    []byte
	phase  model.BuildPhase
	commit string
	done   bool
	art    model.Artifact
	err    error
	ended  time.Time
	clock  func() time.Time
	// remote is set once the state comes from the agent's BuildStatus:
	// the build runs there, and its log does not stream here.
	remote bool
	local  bool // the build runs here: it told a phase itself
}

// Write takes the build's output.
func (r *buildRun) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.log = append(r.log, p...)
	if over := len(r.log) - maxRunLog; over > 0 {
		r.log = append(r.log[:0], r.log[over:]...)
	}
	return len(p), nil
}

func (r *buildRun) progress(p model.BuildPhase, commit string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.phase, r.local, r.remote = p, true, false
	if commit != "" {
		r.commit = commit
	}
}

// adopt takes the state of the build as the agent that runs it tells it.
func (r *buildRun) adopt(st api.BuildStatus) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.done || r.local {
		return // the build runs here and says so itself
	}
	r.remote, r.phase, r.commit, r.log = true, st.Phase, st.Commit, []byte(st.Log)
}

func (r *buildRun) finish(a model.Artifact, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.done, r.art, r.err, r.ended = true, a, err, r.clock()
	if err == nil && (len(r.log) == 0 || r.remote) {
		// Through an agent the log does not stream: it comes with the artifact.
		r.log = []byte(a.Log)
	}
	if err == nil && r.commit == "" {
		r.commit = a.Commit
	}
}

// runSnap is a copy of a buildRun at one moment.
type runSnap struct {
	lines  []string
	phase  model.BuildPhase
	commit string
	done   bool
	art    model.Artifact
	err    error
	ended  time.Time
	remote bool
}

func (r *buildRun) snapshot() runSnap {
	r.mu.Lock()
	defer r.mu.Unlock()
	return runSnap{lines: logLines(r.log), phase: r.phase, commit: r.commit, done: r.done, art: r.art, err: r.err, ended: r.ended, remote: r.remote}
}

// logLines splits a build's output into lines for the screen: colours and
// control characters go, a line a progress bar rewrote with \r shows its
// last state, and a partial last line shows as it is.
func logLines(raw []byte) []string {
	text := strings.TrimRight(string(raw), "\n")
	if text == "" {
		return nil
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		l = strings.TrimRight(l, "\r")
		if j := strings.LastIndexByte(l, '\r'); j >= 0 {
			l = l[j+1:]
		}
		l = strings.ReplaceAll(ansi.Strip(l), "\t", "    ")
		lines[i] = strings.Map(func(r rune) rune {
			if r < 0x20 {
				return -1
			}
			return r
		}, l)
	}
	return lines
}
