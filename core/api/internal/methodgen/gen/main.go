// Command gen writes core/api's methods_gen.go and guard_gen.go
// (methodgen.Generate, GenerateGuard) from the package in the current
// directory: `go generate ./core/api` runs it.
package main

import (
	"fmt"
	"os"

	"github.com/palink/palink/core/api/internal/methodgen"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: gen METHODS_FILE GUARD_FILE")
		os.Exit(2)
	}
	b, err := methodgen.Generate(".")
	if err == nil {
		err = os.WriteFile(os.Args[1], b, 0o644)
	}
	if err == nil {
		b, err = methodgen.GenerateGuard(".")
	}
	if err == nil {
		err = os.WriteFile(os.Args[2], b, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
