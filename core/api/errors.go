package api

import (
	"context"
	"errors"
	"fmt"

	"github.com/palink/palink/model"
)

// ReadOnly is the refusal of what because palink is read-only.
func ReadOnly(what string) error { return fmt.Errorf("%s: %w", what, model.ErrReadOnly) }

// Code names the kind of a failure where it crosses the agent's socket:
// the server sends the code with the message, and the client's error
// matches the same model sentinel with errors.Is that the local one did.
type Code string

// Codes, one for each kind of failure in model's errors.
const (
	CodeInternal    Code = "internal"
	CodeNotFound    Code = "not_found"
	CodeExists      Code = "exists"
	CodeRefused     Code = "refused"
	CodeReadOnly    Code = "read_only"
	CodeForbidden   Code = "forbidden"
	CodeCorrupt     Code = "corrupt"
	CodeUnavailable Code = "unavailable"
	CodeTimeout     Code = "timeout"
	CodeCanceled    Code = "canceled"
)

var codes = []struct {
	code Code
	err  error
}{
	{CodeNotFound, model.ErrNotFound}, {CodeExists, model.ErrExists}, {CodeRefused, model.ErrRefused},
	{CodeReadOnly, model.ErrReadOnly}, {CodeForbidden, model.ErrForbidden}, {CodeCorrupt, model.ErrCorrupt},
	{CodeUnavailable, model.ErrUnavailable}, {CodeTimeout, model.ErrTimeout}, {CodeCanceled, context.Canceled},
}

// CodeOf is the code of err: the first model sentinel it matches, else
// CodeInternal.
func CodeOf(err error) Code {
	for _, c := range codes {
		if errors.Is(err, c.err) {
			return c.code
		}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return CodeTimeout
	}
	return CodeInternal
}

// Error is a failure that came across the agent's socket: its message as
// the agent wrote it, and its code.
type Error struct {
	Code Code
	Msg  string
}

func (e *Error) Error() string { return e.Msg }

// Is matches the model sentinel of the error's code.
func (e *Error) Is(target error) bool {
	for _, c := range codes {
		if c.code == e.Code {
			return target == c.err
		}
	}
	return false
}
