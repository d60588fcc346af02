// Package jsonscan is palink's one JSON scanner: it reads a JSON text
// front to back, as the caller asks for each part, without building a
// value tree or boxing anything. Two readers use it where encoding/json
// costs too much: yarn's flame graph decoder (tens of thousands of nodes
// streamed from a reader, where Decoder.Token allocates per token) and the
// local debug runtime's json format (a line's columns found and converted
// in place, where a map per row was half of a run).
//
// The grammar is RFC 8259's, as strict as encoding/json's: what it takes,
// encoding/json takes too, so a caller may fall back to encoding/json on
// any error and see that error instead. Strings decode as encoding/json
// decodes them, bytes that are not UTF-8 included.
//
// It imports only the standard library; any room of palink may use it.
package jsonscan
