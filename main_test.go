package main

import (
	"os"
	"testing"
)

// TestMain lets tests run this test binary as the palink command itself
// (PALINK_BE_MAIN=1), so that crash tests can SIGKILL a real palink process,
// or as a stranger listening on an agent's socket (PALINK_IMPOSTOR=PATH).
func TestMain(m *testing.M) {
	if os.Getenv("PALINK_BE_MAIN") == "1" {
		main()
		os.Exit(0)
	}
	if path := os.Getenv("PALINK_IMPOSTOR"); path != "" {
		impostor(path)
	}
	os.Exit(m.Run())
}
