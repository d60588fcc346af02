package main

import (
	"os"
	"testing"
)

// TestMain lets tests run this test binary as the palink command itself
// (PALINK_BE_MAIN=1), so that crash tests can SIGKILL a real palink process.
func TestMain(m *testing.M) {
	if os.Getenv("PALINK_BE_MAIN") == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}
