package cli

import (
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
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
	// A command without --config or --store falls back to the user's
	// config and store: the tests get a home of their own, so that they
	// neither read nor write the machine's.
	home, err := os.MkdirTemp("", "palink-cli-home")
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	for _, v := range []string{"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"} {
		os.Setenv(v, filepath.Join(home, v))
	}
	code := m.Run()
	os.RemoveAll(home)
	os.Exit(code)
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
