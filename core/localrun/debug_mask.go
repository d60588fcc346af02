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
func (m maskedOutput) masked(w io.Writer, write func(io.Writer) error) error {
	var b bytes.Buffer
	if err := write(&b); err != nil {
		return err
	}
	out := b.String()
	if mask := m.vars.JSONMask(); mask != nil {
		out = mask(out)
	}
	_, err := io.WriteString(w, out)
	return err
}

// WriteText implements api.DebugOutput.
func (m maskedOutput) WriteText(w io.Writer) error { return m.masked(w, m.out.WriteText) }

// WriteLookups implements api.DebugOutput.
func (m maskedOutput) WriteLookups(w io.Writer) error { return m.masked(w, m.out.WriteLookups) }

// WriteJSON implements api.DebugOutput.
func (m maskedOutput) WriteJSON(w io.Writer) error { return m.masked(w, m.out.WriteJSON) }

// WriteRows implements api.DebugOutput.
func (m maskedOutput) WriteRows(w io.Writer, sink int) error {
	return m.masked(w, func(w io.Writer) error { return m.out.WriteRows(w, sink) })
}
