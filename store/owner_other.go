//go:build !unix

package store

// describeOwner cannot tell owners apart outside Unix.
func describeOwner(string) string { return "" }

// canRead cannot tell outside Unix; the advice to use --read-only is left out.
func canRead(string) bool { return false }
