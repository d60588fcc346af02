package cluster

import (
	"context"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/kit"
)

// AdoptDialog makes an unmanaged Flink application a palink job, under a
// name the user may change.
type AdoptDialog struct {
	env     *kit.Env
	cluster string
	app     api.Application
	name    textinput.Model
}

// NewAdopt asks to adopt app on cluster under a name the user may change.
func NewAdopt(e *kit.Env, cluster string, app api.Application) *AdoptDialog {
	in := textinput.New()
	in.Prompt = "name: "
	in.SetValue(app.Name)
	in.CursorEnd()
	in.SetStyles(e.Styles.Input)
	in.SetVirtualCursor(true)
	in.Focus()
	return &AdoptDialog{env: e, cluster: cluster, app: app, name: in}
}

// ShortHelp implements kit.Screen.
func (d *AdoptDialog) ShortHelp() []key.Binding {
	return []key.Binding{d.env.Keys.Form.Confirm, d.env.Keys.Form.Cancel}
}

// Update implements kit.Screen.
func (d *AdoptDialog) Update(msg tea.Msg) (kit.Dialog, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, d.env.Keys.Form.Cancel):
			return nil, nil
		case key.Matches(k, d.env.Keys.Form.Confirm):
			name := strings.TrimSpace(d.name.Value())
			req := api.AdoptRequest{Cluster: d.cluster, AppID: d.app.ID, Name: name}
			return nil, kit.Busy("adopt:"+d.app.ID, fmt.Sprintf("adopting %s as %s…", d.app.ID, name), adoptCmd(call(d.env), req))
		}
	}
	if _, ok := msg.(tea.KeyPressMsg); !ok {
		if _, ok := msg.(tea.PasteMsg); !ok {
			return d, nil
		}
	}
	var cmd tea.Cmd
	d.name, cmd = d.name.Update(msg)
	return d, cmd
}

// View implements kit.Screen.
func (d *AdoptDialog) View(width, height int) string {
	st := d.env.Styles
	w := min(width-4, 72)
	inner := w - 4
	var lines []string
	lines = append(lines, st.DialogTitle.Render("Adopt "+d.app.ID+"?"))
	lines = append(lines, kit.Wrap(fmt.Sprintf("%q on %s (user %s, queue %s, %s) becomes a palink job: palink syncs its state, records its checkpoints, and p, ctrl+k, r act on it. The application keeps running.",
		d.app.Name, d.cluster, kit.OrDash(d.app.User), kit.OrDash(d.app.Queue), d.app.State), inner)...)
	lines = append(lines, "", d.name.View(), "", st.Dim.Render("enter adopts · esc cancels"))
	return st.Dialog.Width(w).Render(strings.Join(lines, "\n"))
}

func adoptCmd(c kit.Call[Service], req api.AdoptRequest) tea.Cmd {
	return func() tea.Msg {
		var j model.Job
		err := c.With(func(ctx context.Context) (err error) {
			j, err = c.Service.Adopt(ctx, req)
			return err
		})
		if err != nil {
			err = fmt.Errorf("adopt %s on %s: %w", req.AppID, req.Cluster, err)
		}
		return kit.AdoptedMsg{Req: req, Job: j, Err: err}
	}
}
