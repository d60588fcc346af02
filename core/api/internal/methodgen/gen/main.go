// Command gen writes core/api's methods_gen.go (methodgen.Generate) from
// the package in the current directory: `go generate ./core/api` runs it.
package main

import (
	"fmt"
	"os"

	"github.com/palink/palink/core/api/internal/methodgen"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gen FILE")
		os.Exit(2)
	}
	b, err := methodgen.Generate(".")
	if err == nil {
		err = os.WriteFile(os.Args[1], b, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
