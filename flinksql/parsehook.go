package flinksql

import "sync/atomic"

// parseHook, when set, is told the text of every script parsed
// (SetParseHook).
var parseHook atomic.Pointer[func(src string)]

// SetParseHook has f told the text of every script parsed from now on — by
// ParseScript, ParseFile, ParseFileFor, ParseWithVars, Check and the
// completion alike — until restore is called. It is a test's way to count
// how often a pipeline parses a text (a debug run parses its job once),
// not a thing for palink's own code to use.
func SetParseHook(f func(src string)) (restore func()) {
	prev := parseHook.Swap(&f)
	return func() { parseHook.Store(prev) }
}

// parsed tells the hook, if any, that src is being parsed.
func parsed(src string) {
	if f := parseHook.Load(); f != nil && *f != nil {
		(*f)(src)
	}
}
