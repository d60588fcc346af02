package format

// Skipped is what a source's ignore-parse-errors passed over, which Flink
// counts nowhere: the records that did not parse at all (not JSON, not an
// object, not CSV: skipped, as Flink's deserializers return no row), the
// fields that did not read as their column's type (NULL in a row that is
// kept, as Flink's JsonToRowDataConverters make them), and the first lines
// of either.
type Skipped struct {
	Rows   int64
	Fields int64
	Lines  []int64
}

// MaxSkippedLines is how many lines Skipped names.
const MaxSkippedLines = 5

// Skipper is a reader that passed over records or fields.
type Skipper interface {
	Skipped() Skipped
}

// skips counts for a reader; nulled is what its converters count (a
// field's converter sets it, the reader notes the line).
type skips struct {
	s      Skipped
	nulled int64
	seen   int64 // nulled when the line was last noted
}

func (k *skips) Skipped() Skipped {
	s := k.s
	s.Fields = k.nulled
	s.Lines = append([]int64(nil), k.s.Lines...)
	return s
}

// row notes a record skipped at line.
func (k *skips) row(line int64) {
	k.s.Rows++
	k.note(line)
}

// fields notes line when a field of it was nulled since the last call.
func (k *skips) fields(line int64) {
	if k.nulled != k.seen {
		k.seen = k.nulled
		k.note(line)
	}
}

func (k *skips) note(line int64) {
	if n := len(k.s.Lines); n < MaxSkippedLines && (n == 0 || k.s.Lines[n-1] != line) {
		k.s.Lines = append(k.s.Lines, line)
	}
}
