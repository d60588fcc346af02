package localrun

import (
	"bytes"
	"io"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/catalog"
)

// maskedOutput writes a run's rows with the secrets it read masked: a
// script may select a secret, and what palink prints is never to show it.
type maskedOutput struct {
	out  api.DebugOutput
	vars catalog.Resolved
}

var _ api.DebugOutput = maskedOutput{}

// masked writes what write writes with the secrets masked in every form
// it may hold them: its JSON (-o json, the rows' JSON lines) escapes them.
// It masks line by line as the text goes (a run's JSON of millions of rows
// is never held whole): no form of a secret spans lines, since the text
// and the JSON both escape a newline.
func (m maskedOutput) masked(w io.Writer, write func(io.Writer) error) error {
	mask := m.vars.JSONMask()
	if mask == nil {
		return write(w)
	}
	lm := &lineMasker{w: w, mask: mask}
	if err := write(lm); err != nil {
		return err
	}
	return lm.flush()
}

// lineMasker masks each line written through it as it completes.
type lineMasker struct {
	w    io.Writer
	mask func(string) string
	part []byte // the line begun and not ended
}

func (l *lineMasker) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			l.part = append(l.part, p...)
			break
		}
		l.part = append(l.part, p[:i+1]...)
		p = p[i+1:]
		if _, err := io.WriteString(l.w, l.mask(string(l.part))); err != nil {
			return 0, err
		}
		l.part = l.part[:0]
	}
	return n, nil
}

func (l *lineMasker) flush() error {
	if len(l.part) == 0 {
		return nil
	}
	_, err := io.WriteString(l.w, l.mask(string(l.part)))
	l.part = nil
	return err
}

// WriteText implements api.DebugOutput.
func (m maskedOutput) WriteText(w io.Writer) error { return m.masked(w, m.out.WriteText) }

// WriteLookups implements api.DebugOutput.
func (m maskedOutput) WriteLookups(w io.Writer) error { return m.masked(w, m.out.WriteLookups) }

// WriteFinal implements api.DebugOutput.
func (m maskedOutput) WriteFinal(w io.Writer) error { return m.masked(w, m.out.WriteFinal) }

// WriteJSON implements api.DebugOutput.
func (m maskedOutput) WriteJSON(w io.Writer) error { return m.masked(w, m.out.WriteJSON) }

// WriteRows implements api.DebugOutput.
func (m maskedOutput) WriteRows(w io.Writer, sink int) error {
	return m.masked(w, func(w io.Writer) error { return m.out.WriteRows(w, sink) })
}
