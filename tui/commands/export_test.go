package commands

import "github.com/palink/palink/model"

// What the tests of package commands_test look at.

// Rows is the commands listed; Selected the one under the cursor.
func (m *Screen) Rows() []model.Command   { return m.list.Rows() }
func (m *Screen) Selected() model.Command { return m.list.Rows()[m.list.Cursor()] }
