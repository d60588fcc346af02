package agent

import (
	"testing"

	"github.com/palink/palink/core/api"
)

// TestTheAgentServesWhatIsDeclared: the agent answers each declared method
// that does not run in the caller's process, and nothing undeclared (a
// handler without a declaration would have no role to check).
func TestTheAgentServesWhatIsDeclared(t *testing.T) {
	served := map[string]bool{}
	for call := range methods {
		name := call
		if n, ok := wireNames[call]; ok {
			name = n
		}
		served[name] = true
	}
	for _, m := range api.Methods() {
		if ok := served[m.Name]; ok == m.Local {
			t.Errorf("%s: declared local %v, served by the agent %v", m.Name, m.Local, ok)
		}
	}
	for name := range methods {
		if _, ok := declaration(name); !ok {
			t.Errorf("the agent serves %s, which nothing declares", name)
		}
	}
}
