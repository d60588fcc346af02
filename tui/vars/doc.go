// Package vars is the TUI's `:vars` view: the ${name} variables a
// cluster's SQL jobs see (the cluster's own, and those of every cluster it
// does not override), a secret always masked with where its value comes
// from (screen.go); and, for an admin, setting one in a form whose secret
// command is typed masked (form.go) and unsetting one after a
// confirmation. Who may change them is the API's role table's word
// (kit.Role): a viewer sees the list, and no key that changes it.
//
// All it asks of core is its Service (svc.go): api.CatalogService, and
// api.TeamService for who the user is.
//
// It imports kit, core/api and model; never tui or another feature.
package vars
