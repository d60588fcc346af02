package vars

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/kit"
)

// kind is where a variable's value comes from: itself, or for a secret the
// place the deploy reads it from.
type kind int

const (
	kindValue kind = iota
	kindEnv
	kindFile
	kindCmd
	numKinds
)

var kindNames = [numKinds]string{"value", "secret from env", "secret from file", "secret from command"}

// kindOf is v's kind.
func kindOf(v model.Variable) kind {
	switch {
	case v.SecretEnv != "":
		return kindEnv
	case v.SecretFile != "":
		return kindFile
	case v.SecretCmd != "":
		return kindCmd
	}
	return kindValue
}

// The form's fields, in tab order.
const (
	fieldName = iota
	fieldScope
	fieldKind
	fieldValue
	numFields
)

// form sets a variable: a new one (a), or the cursor's (e), whose name
// and scope then stay. A secret command is typed masked: it may carry a
// token of its own, and palink shows only its program afterwards. Enter
// saves; the form stays open until the service answers, and on a refusal
// keeps what was typed.
type form struct {
	env     *kit.Env
	cluster string // the view's
	editing bool   // the cursor's variable: name and scope fixed
	focus   int
	name    textinput.Model
	every   bool // of every cluster, not only the view's
	kind    kind
	value   textinput.Model
	seq     int
	saving  bool
	err     string
}

// newForm opens the form on cluster's view: for a new variable, or to
// change v.
func newForm(e *kit.Env, cluster string, v *model.Variable) *form {
	d := &form{env: e, cluster: cluster, name: textinput.New(), value: textinput.New()}
	for _, in := range []*textinput.Model{&d.name, &d.value} {
		in.Prompt = ""
		in.SetStyles(e.Styles.Input)
		in.SetVirtualCursor(true)
		in.SetWidth(40)
	}
	d.name.Placeholder = "db_pass"
	if v != nil {
		d.editing, d.every, d.kind, d.focus = true, v.Cluster == "", kindOf(*v), fieldValue
		d.name.SetValue(v.Name)
		switch d.kind {
		case kindValue:
			d.value.SetValue(v.Value)
		case kindEnv:
			d.value.SetValue(v.SecretEnv)
		case kindFile:
			d.value.SetValue(v.SecretFile)
		}
		// A secret command is typed again: it is shown masked, and a
		// command one cannot read back is not one to edit.
		d.value.CursorEnd()
	}
	d.setKind(d.kind)
	d.focusField(d.focus)
	return d
}

// setKind switches the value field to a kind: its placeholder, and
// masking for a command.
func (d *form) setKind(k kind) {
	d.kind = k
	d.value.EchoMode = textinput.EchoNormal
	switch k {
	case kindValue:
		d.value.Placeholder = "jdbc:postgresql://db:5432/app"
	case kindEnv:
		d.value.Placeholder = "PROD_DB_PASS"
	case kindFile:
		d.value.Placeholder = "/etc/palink/db_pass"
	case kindCmd:
		d.value.Placeholder = "vault kv get -field=password secret/db"
		d.value.EchoMode = textinput.EchoPassword
		d.value.EchoCharacter = '•'
	}
}

func (d *form) focusField(f int) {
	if d.editing && (f == fieldName || f == fieldScope) {
		f = fieldKind
	}
	d.focus = f
	d.name.Blur()
	d.value.Blur()
	switch f {
	case fieldName:
		d.name.Focus()
	case fieldValue:
		d.value.Focus()
	}
}

// ShortHelp implements kit.Dialog.
func (d *form) ShortHelp() []key.Binding {
	k := d.env.Keys
	return []key.Binding{k.Form.NextField, k.Form.Toggle, k.Form.Confirm, k.Form.Cancel}
}

// setMsg is SetVar's answer; screen is the cluster of the view that asked.
type setMsg struct {
	seq    int
	screen string
	v      model.Variable
	err    error
}

// Update implements kit.Dialog.
func (d *form) Update(msg tea.Msg) (kit.Dialog, tea.Cmd) {
	switch msg := msg.(type) {
	case setMsg:
		if msg.seq != d.seq {
			return d, nil
		}
		d.saving = false
		if msg.err != nil {
			d.err = msg.err.Error()
			return d, nil
		}
		return nil, kit.Flash(kit.FlashInfo, "set "+describe(msg.v.Name, msg.v.Cluster)+" = "+msg.v.Shown())
	case tea.KeyPressMsg:
		return d.key(msg)
	case tea.PasteMsg:
		return d, d.typed(msg)
	}
	return d, nil
}

func (d *form) key(msg tea.KeyPressMsg) (kit.Dialog, tea.Cmd) {
	k := d.env.Keys
	if d.saving {
		if key.Matches(msg, k.Form.Cancel) {
			return nil, nil // the answer still comes, and the list reloads
		}
		return d, nil
	}
	switch {
	case key.Matches(msg, k.Form.Cancel):
		return nil, nil
	case key.Matches(msg, k.Form.Confirm):
		return d, d.save()
	case key.Matches(msg, k.Form.NextField):
		d.focusField((d.focus + 1) % numFields)
		return d, nil
	case key.Matches(msg, k.Form.PrevField):
		d.focusField((d.focus + numFields - 1) % numFields)
		return d, nil
	case (d.focus == fieldScope || d.focus == fieldKind) && key.Matches(msg, k.Form.Toggle):
		step := 1
		if msg.String() == "left" || msg.String() == "h" {
			step = -1
		}
		if d.focus == fieldScope {
			d.every = !d.every
		} else {
			d.setKind((d.kind + kind(step) + numKinds) % numKinds)
		}
		d.err = ""
		return d, nil
	}
	return d, d.typed(msg)
}

// typed gives a key or a paste to the focused text field.
func (d *form) typed(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	switch d.focus {
	case fieldName:
		d.name, cmd = d.name.Update(msg)
	case fieldValue:
		d.value, cmd = d.value.Update(msg)
	default:
		return nil
	}
	d.err = ""
	return cmd
}

// variable is what the form says, or why it cannot be set.
func (d *form) variable() (model.Variable, error) {
	v := model.Variable{Name: strings.TrimSpace(d.name.Value()), Cluster: d.scopeCluster()}
	if !model.ValidCatalogName(v.Name) {
		return v, fmt.Errorf("%q is not a variable name (letters, digits and _, not starting with a digit)", v.Name)
	}
	val := d.value.Value()
	if d.kind != kindValue {
		val = strings.TrimSpace(val)
		if val == "" {
			return v, fmt.Errorf("a %s needs where to read it", kindNames[d.kind])
		}
	}
	switch d.kind {
	case kindValue:
		v.Value = val
	case kindEnv:
		v.SecretEnv = val
	case kindFile:
		if !filepath.IsAbs(val) {
			return v, fmt.Errorf("give the file's absolute path: the process that deploys reads it, wherever it runs")
		}
		v.SecretFile = val
	case kindCmd:
		v.SecretCmd = val
	}
	return v, nil
}

// save sends the variable to the service, or says what is wrong with it.
func (d *form) save() tea.Cmd {
	v, err := d.variable()
	if err != nil {
		d.err = err.Error()
		return nil
	}
	d.seq, d.saving, d.err = d.env.NextSeq(), true, ""
	return setCmd(call(d.env), d.seq, d.cluster, v)
}

func setCmd(c kit.Call[Service], seq int, screen string, v model.Variable) tea.Cmd {
	return func() tea.Msg {
		var got model.Variable
		err := c.With(func(ctx context.Context) (err error) {
			got, err = c.Service.SetVar(ctx, v)
			return err
		})
		if err != nil {
			err = fmt.Errorf("set %s: %w", describe(v.Name, v.Cluster), err)
		}
		return setMsg{seq: seq, screen: screen, v: got, err: err}
	}
}

// View implements kit.Dialog.
func (d *form) View(width, height int) string {
	st := d.env.Styles
	w := min(width-4, 72)
	inner := max(w-4, 16)
	label := func(f int, s string) string {
		if f == d.focus {
			return st.Bold.Render(fmt.Sprintf("%-7s", s))
		}
		return st.Dim.Render(fmt.Sprintf("%-7s", s))
	}
	choice := func(on bool, s string) string {
		if on {
			return st.ButtonFocused.Render(s)
		}
		return st.Dim.Render(" " + s + " ")
	}
	fieldW := max(inner-8, 8)
	d.name.SetWidth(fieldW)
	d.value.SetWidth(fieldW)
	title := "Set a variable"
	if d.editing {
		title = "Change " + describe(d.name.Value(), d.scopeCluster())
	}
	name := d.name.View()
	if d.editing {
		name = d.name.Value()
	}
	scopes := choice(!d.every, d.cluster) + " " + choice(d.every, "every cluster")
	if d.editing {
		scopes = scope(d.scopeCluster())
	}
	var kinds []string
	for k := kindValue; k < numKinds; k++ {
		kinds = append(kinds, choice(k == d.kind, strings.TrimPrefix(kindNames[k], "secret from ")))
	}
	lines := []string{
		st.DialogTitle.Render(kit.Truncate(title, inner)),
		"",
		label(fieldName, "name") + " " + name,
		label(fieldScope, "scope") + " " + kit.Truncate(scopes, fieldW),
		label(fieldKind, "kind") + " " + kit.Truncate(strings.Join(kinds, " "), fieldW),
		label(fieldValue, valueLabel(d.kind)) + " " + d.value.View(),
		"",
	}
	for _, l := range kit.Wrap(about(d.kind), inner) {
		lines = append(lines, st.Dim.Render(l))
	}
	switch {
	case d.saving:
		lines = append(lines, st.Dim.Render("saving…"))
	case d.err != "":
		for _, l := range kit.Wrap("✖ "+d.err, inner) {
			lines = append(lines, st.Error.Render(l))
		}
	}
	lines = append(lines, "", st.Dim.Render(kit.Truncate("enter sets · tab next field · esc cancels", inner)))
	return st.Dialog.Width(w).Render(strings.Join(lines, "\n"))
}

// scopeCluster is the variable's cluster: "" for every cluster's.
func (d *form) scopeCluster() string {
	if d.every {
		return ""
	}
	return d.cluster
}

// valueLabel names the value field: a value, or where a secret is read.
func valueLabel(k kind) string {
	if k == kindValue {
		return "value"
	}
	return "from"
}

// about says what a kind means for the jobs and for what palink keeps.
func about(k kind) string {
	switch k {
	case kindEnv:
		return "A secret: the process that deploys (the agent, when one runs) reads this environment variable when a job deploys; palink keeps only its name."
	case kindFile:
		return "A secret: the process that deploys reads this file when a job deploys; palink keeps only its path."
	case kindCmd:
		return "A secret: the output of this command (sh -c, 10 s at most), run when a job deploys; typed masked, and palink shows only its program."
	}
	return "Jobs that write ${name} in their SQL, their catalog tables or their Flink config get this value at their next deploy."
}
