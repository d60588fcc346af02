// Package tuitest is what the TUI's tests share: Fake, an api.Service in
// memory with a fixture of jobs over two clusters; Harness, which drives a
// root model synchronously (keys in, Cmds run, messages fed back, timers
// held); golden files of whole frames at pinned sizes and colours; and
// Program and WaitFor, which run the real program loop and wait for what a
// terminal shows (Vterm). Only tests import it.
package tuitest
