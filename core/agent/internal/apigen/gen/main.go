// Command gen writes core/agent's generated calls (apigen.Generate) to the
// file its argument names: `go generate ./core/agent` runs it.
package main

import (
	"fmt"
	"os"

	"github.com/palink/palink/core/agent/internal/apigen"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gen FILE")
		os.Exit(2)
	}
	b, err := apigen.Generate()
	if err == nil {
		err = os.WriteFile(os.Args[1], b, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
