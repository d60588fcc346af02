package agent

import (
	"os"
	"testing"

	"github.com/palink/palink/core/agent/internal/apigen"
)

// TestGeneratedCallsAreCurrent: calls_gen.go is what the declarations
// make today; a declaration or an interface changed without
// `go generate ./core/agent` fails here.
func TestGeneratedCallsAreCurrent(t *testing.T) {
	want, err := apigen.Generate()
	if err != nil {
		t.Fatal(err)
	}
	have, err := os.ReadFile("calls_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if string(have) != string(want) {
		t.Error("calls_gen.go is out of date: run go generate ./core/agent")
	}
}
