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
func functionsCmd(c kit.Call[Service], id int) tea.Cmd {
	return func() tea.Msg {
		var fns map[string]flinksql.FunctionInfo
		_ = c.With(func(ctx context.Context) error {
			us, err := c.Service.UDFs(ctx)
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

// udfRegistry is what the editor knows of the UDF registry.
type udfRegistry struct {
	// fns are the registry's functions; nil until read.
	fns map[string]flinksql.FunctionInfo
}

// take keeps the functions of an answer for editor id, and reports
// whether the text must be checked again with them.
func (r *udfRegistry) take(msg functionsMsg, id int) bool {
	if msg.id != id || msg.fns == nil {
		return false
	}
	r.fns = msg.fns
	return true
}
