// Package projects builds JAR jobs' artifacts from git repositories: a
// project names a repository, a ref, a build command and the artifact it
// produces; a build clones or fetches into a cache directory, copies the
// commit into a fresh workspace, runs the command there under a timeout
// in a process group of its own, and records the one matching file as the
// project's next artifact (version, commit, sha256, size, log, who built
// it).
//
// What runs is not palink's: the build command gets an environment built
// from nothing, runs as the build user where palink is root, and inside
// bubblewrap where configured (core/internal/sandbox). It works in a copy
// of the repository, never in the one palink's git uses, so nothing it
// writes (a git config with a hook, a symlink) is read by palink as
// itself; an artifact that leads out of the checkout is refused.
//
// Builds of one project never run two at once (an flock on its cache
// directory, so across processes too). Nothing is recorded until the
// artifact's file is complete under its checksum's name: a build that
// fails, times out or dies records none, and the next build kills what
// a dead build left running. The project's timeout bounds the fetch too,
// and git runs in a process group killed whole, so a server that never
// answers ends a build as a build that never ends. Git is run with
// prompts off and a clean environment, so a repository that needs
// credentials fails at once; credentials are the user's (ssh agent,
// credential helper) or a token the project names by variable or file,
// read at fetch time and handed to git through its environment, never
// stored (credentials.go).
//
// A Builder given Options.Open instead of a store holds the store only
// to read a project and to record an outcome, never while a build runs.
//
// It imports store and model, and core/internal/sandbox; never yarn, tui
// or cli.
package projects
