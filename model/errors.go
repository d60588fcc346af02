package model

import "errors"

// The kinds of failure every room shares. The store, the cluster clients and
// the decisions wrap them (with %w, or through an Is method), and the agent
// carries them across its socket as codes (core/api), so that callers test
// a failure with errors.Is wherever it happened, never by its text.
var (
	// ErrNotFound: the job, command, application or file does not exist.
	ErrNotFound = errors.New("not found")
	// ErrExists: a name or id is taken.
	ErrExists = errors.New("already exists")
	// ErrRefused: an action may not be taken now (the job's state, a
	// pending command); the message says why.
	ErrRefused = errors.New("refused")
	// ErrReadOnly: palink may not change anything (--read-only, or the user
	// is a viewer on the agent).
	ErrReadOnly = errors.New("palink is read-only (--read-only or a viewer role)")
	// ErrForbidden: the user's role may not do this (an operator's bulk
	// read by a viewer, an admin's definition by an operator).
	ErrForbidden = errors.New("the user's role may not do this")
	// ErrCorrupt: the store file is damaged.
	ErrCorrupt = errors.New("store file is damaged")
	// ErrUnavailable: a server could not be reached or cannot serve now.
	ErrUnavailable = errors.New("unavailable")
	// ErrTimeout: a request, or a wait for an operation, ran out of time.
	ErrTimeout = errors.New("timed out")
)
