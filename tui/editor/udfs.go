package editor

import (
	"context"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/tui/kit"
)

// functionsMsg are the UDF registry's functions, for the validator (a
// call of a function nobody defines is an error) and completion; nil when
// the registry could not be read, which leaves unknown functions unjudged.
type functionsMsg struct {
	id  int
	fns map[string]flinksql.FunctionInfo
}

// functionsCmd reads the UDF registry.
func functionsCmd(c kit.Call, id int) tea.Cmd {
	return func() tea.Msg {
		var fns map[string]flinksql.FunctionInfo
		_ = c.With(func(ctx context.Context) error {
			us, err := c.Svc.UDFs(ctx)
			if err != nil {
				return err
			}
			fns = make(map[string]flinksql.FunctionInfo, len(us))
			for _, u := range us {
				fns[strings.ToUpper(u.Name)] = flinksql.FunctionInfo{Name: u.Name, Signature: u.Signature}
			}
			return nil
		})
		return functionsMsg{id: id, fns: fns}
	}
}

// onFunctions keeps the registry's functions and checks the text again
// with them.
func (m *Screen) onFunctions(msg functionsMsg) tea.Cmd {
	if msg.id != m.id || msg.fns == nil {
		return nil
	}
	m.functions = msg.fns
	if m.loaded {
		return m.validate()
	}
	return nil
}
