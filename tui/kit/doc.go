// Package kit is what every screen of palink's TUI shares: the Screen and
// Dialog interfaces the root's stack holds, the Env (service, settings,
// styles, clock) and the Call a Cmd captures, the keymap in groups, the
// styles (one Styles struct by meaning, a dark and a light set), the flash
// line, the messages screens send the root, list movement, the pure
// formatters and the box that frames a view.
//
// kit imports core/api and model only; it never imports tui or a
// feature package (tui/editor, tui/logview, …): they import it.
package kit
