package api

import (
	"errors"
	"fmt"
)

// Errors that cross the Service, locally and through the agent's socket,
// where each travels as a code (never matched by its text): callers test
// them with errors.Is.
var (
	// ErrReadOnly: an action was refused because palink is read-only
	// (--read-only, or the user is a viewer on the agent).
	ErrReadOnly = errors.New("palink is read-only (--read-only or a viewer role)")
)

// ReadOnly is the refusal of what because palink is read-only.
func ReadOnly(what string) error { return fmt.Errorf("%s: %w", what, ErrReadOnly) }
