package model

import "time"

// Project is a git repository palink builds JAR jobs from: a repository,
// the ref it builds by default, the build command and the artifact it
// produces. Credentials are never stored: the repository is reached with
// the user's ssh agent or git credential helper, or a token the project
// names (TokenEnv, TokenFile) and a build reads when it fetches.
type Project struct {
	Name     string
	Repo     string // a URL or path git clones
	Ref      string // branch, tag or commit built by default ("" for the remote's HEAD)
	Build    string // run by sh in the checkout, e.g. "mvn -B -q package -DskipTests"
	Artifact string // glob, relative to the checkout, that must match exactly one file
	// Timeout bounds a build; its process group is killed when it passes.
	Timeout time.Duration
	// TokenEnv and TokenFile say where a build finds the token for an
	// HTTPS repository: an environment variable of the palink that builds,
	// or a file on its host. They are references; the token is read at
	// fetch time and never stored.
	TokenEnv  string `json:",omitempty"`
	TokenFile string `json:",omitempty"`
	// InsecureHTTP lets a token cross plain http:// (a network the
	// operator trusts); without it a token is refused for such a URL.
	InsecureHTTP bool `json:",omitempty"`
	// Env are the variables the build command gets beside PATH, HOME,
	// TMPDIR and LANG: nothing of palink's own environment reaches it.
	// They are stored and shown in clear, so a secret never goes here.
	// Proxy variables (http_proxy, https_proxy, no_proxy and their
	// upper-case forms) among them reach git's fetch too.
	Env       map[string]string `json:",omitempty"`
	CreatedBy string
	CreatedAt time.Time
}

// Artifact is one successful build of a project: the file it produced,
// where palink keeps it, and how it came to be. A build that fails, times
// out or dies records none.
type Artifact struct {
	Project string
	Version int    // 1, 2, … per project, assigned by the store
	Ref     string // the ref asked for
	Commit  string // the commit built (full hash)
	Subject string // the commit's subject line
	SHA256  string
	Size    int64
	Path    string // where palink keeps the file (named by its sha256)
	File    string // the file's name in the checkout
	Log     string // the build's output, its last MaxBuildLog bytes
	BuiltBy string
	BuiltAt time.Time
	Took    time.Duration
	// Unchanged is set on a build's answer, never stored: the build made
	// the same file (sha256) from the same commit as this version, which
	// is kept instead of a new one.
	Unchanged bool
}

// MaxBuildLog bounds the build log kept with an artifact.
const MaxBuildLog = 64 << 10

// BuildPhase is where a build is: fetching the repository, checking the
// commit out, running the build command, collecting the artifact.
type BuildPhase string

// The phases of a build, in order.
const (
	PhaseFetch    BuildPhase = "fetch"
	PhaseCheckout BuildPhase = "checkout"
	PhaseBuild    BuildPhase = "build"
	PhaseCollect  BuildPhase = "collect"
)

// ArtifactChange is what a deploy changes in a JAR job's jar: from the
// artifact the job last deployed to the one its spec pins now, with the
// commits between them (`git log --oneline`, newest first).
type ArtifactChange struct {
	Project              string
	From, To             int // artifact versions
	FromCommit, ToCommit string
	Commits              []string
	// Back is true when the new artifact is older: Commits are the ones
	// the deploy takes away.
	Back bool `json:",omitempty"`
	// Note says why Commits are missing, when they are (the project's
	// checkout lacks a commit).
	Note string `json:",omitempty"`
}
