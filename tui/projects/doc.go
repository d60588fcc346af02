// Package projects is the TUI's `:projects` view: the git repositories
// palink builds JAR jobs from, and the cursor's artifacts (version,
// commit, size, when and by whom built). It only renders what core/api
// answers; builds run through `palink project build`.
package projects
