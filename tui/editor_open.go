package tui

import (
	tea "charm.land/bubbletea/v2"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/editor"
	"github.com/palink/palink/tui/kit"
)

// openEditor pushes a job's SQL editor; a JAR job has none.
func (m *Model) openEditor(j api.JobView) tea.Cmd {
	if j.Kind == model.KindJAR {
		return m.setFlash(kit.FlashWarn, j.Name+" is a JAR job: it has no SQL to edit")
	}
	s, init := editor.New(m.env, m.runs, j)
	return m.push(s, init)
}
