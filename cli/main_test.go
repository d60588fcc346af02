package cli

import (
	"fmt"
	"io"
	"net"
	"os"
	"testing"
	"time"
)

// TestMain lets tests run this test binary as the palink command itself
// (PALINK_BE_MAIN=1), so that crash tests can SIGKILL a real palink process,
// or as a stranger listening on an agent's socket (PALINK_IMPOSTOR=PATH).
func TestMain(m *testing.M) {
	if os.Getenv("PALINK_BE_MAIN") == "1" {
		os.Exit(Execute())
	}
	if path := os.Getenv("PALINK_IMPOSTOR"); path != "" {
		impostor(path)
	}
	os.Exit(m.Run())
}

// impostor listens on path as whoever runs it (PALINK_IMPOSTOR) and
// reports each connection, one after the other, with the number of bytes
// it received: "conn N".
func impostor(path string) {
	ln, err := net.Listen("unix", path)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	_ = os.Chmod(path, 0o777)
	fmt.Println("listening")
	for {
		c, err := ln.Accept()
		if err != nil {
			os.Exit(1)
		}
		_ = c.SetReadDeadline(time.Now().Add(time.Minute))
		n, _ := io.Copy(io.Discard, c)
		c.Close()
		fmt.Printf("conn %d\n", n)
	}
}
