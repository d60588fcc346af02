// Package logview is the TUI's log viewer: one log of a job (the
// JobManager's, a TaskManager's, their stdout), read a chunk at a time
// into a window of a few chunks around the view, so that memory stays the
// same for a 1 MB and a 200 MB log; paging past the window reads the next
// chunk, g and G read the head and the tail, follow mode polls for new
// bytes (and starts again at the file's start when it was rotated), a
// search looks in the window and then asks the service to scan on (past
// the end it wraps around to where it began), `/` filters the log to the
// lines that match as they are typed (the file read back from its end a
// chunk at a time, off the UI's goroutine, the newest matches held), 1 to
// 3 show the log's last 1, 5 or 15 minutes by its timestamps (and 0 all of
// it), c copies the current line through the terminal (OSC 52), and
// ctrl-s saves the whole log through the service.
//
// All it asks of core is its Service (svc.go): api.LogService.
//
// It imports kit, core/api, internal/logtime (the rules `palink logs
// --since` reads timestamps by) and model; never tui or another feature.
// Its scrolling is its own: a window of a file that is never whole in
// memory is not a viewport's content.
package logview
