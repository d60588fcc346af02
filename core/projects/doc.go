// Package projects builds JAR jobs' artifacts from git repositories: a
// project names a repository, a ref, a build command and the artifact it
// produces; a build clones or fetches into a cache directory, checks the
// commit out, runs the command under a timeout in a process group of its
// own, and records the one matching file as the project's next artifact
// (version, commit, sha256, size, log, who built it).
//
// Builds of one project never run two at once (an flock on its cache
// directory, so across processes too). Nothing is recorded until the
// artifact's file is complete under its checksum's name: a build that
// fails, times out or dies records none, and the next build kills what
// a dead build left running. Git is run with prompts off, so a repository
// that needs credentials fails at once; credentials are the user's (ssh
// agent, credential helper) or a token the project names by variable or
// file, read at fetch time and handed to git through its environment,
// never stored (credentials.go).
//
// It imports store and model, never yarn, tui or cli.
package projects
