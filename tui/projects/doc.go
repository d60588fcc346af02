// Package projects is the TUI's `:projects` view: the git repositories
// palink builds JAR jobs from, and the cursor's artifacts (version,
// commit, size, when and by whom built). It only renders what core/api
// answers. b builds the project under the cursor in the build view
// (build.go), which shows the phase, the commit and the log as it comes
// (run.go keeps a build's state as its events arrive). The list
// (screen.go) is a kit.Table drawn from kit.Columns specs.
//
// All it asks of core is its Service (svc.go): api.ProjectService.
package projects
