package api

import "github.com/palink/palink/model"

// Page asks for one page of a long list (ListJobsPage, CommandsPage).
type Page struct {
	// Cursor is where the page starts: the Next of the page before it, ""
	// for the first page.
	Cursor string
	// Size is the most items the page holds: 0 for DefaultPageSize, at
	// most MaxPageSize.
	Size int
}

// Page sizes: a page of jobs through the agent's socket is a few hundred
// kilobytes of JSON at the default.
const (
	DefaultPageSize = 500
	MaxPageSize     = 5000
)

// JobPage is one page of ListJobsPage. A page may hold fewer jobs than
// asked, none even, and still not be the last (the filter and the caller's
// teams leave some out): the list ends where Next is "".
type JobPage struct {
	Jobs []JobView
	// Next is the Cursor of the page after this one, "" after the last.
	Next string
}

// CommandPage is one page of CommandsPage, as JobPage is of jobs.
type CommandPage struct {
	Commands []model.Command
	Next     string
}
