// Package kit is what every screen of palink's TUI shares: the styles (one
// Styles struct by meaning, a dark and a light set), the pure formatters
// and the box that frames a view.
//
// kit imports core/api, flinksql and model only; it never imports tui or a
// feature package (tui/editor, tui/logview, …): they import it.
package kit
