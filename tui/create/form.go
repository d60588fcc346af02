package create

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/kit"
)

// Form is the create-job form. The new job is CREATED, not
// running: `r` on it submits it, through the usual confirmation.
type Form struct {
	env      *kit.Env
	clusters []string
	cluster  int
	kind     model.JobKind

	name        textinput.Model
	parallelism textinput.Model
	sql         textarea.Model
	jar         textinput.Model
	entry       textinput.Model
	args        textinput.Model

	focus      int
	err        error
	submitting bool
	sent       api.CreateJobRequest

	width, height int
}

// Form fields, in tab order; the last ones depend on the kind.
const (
	fieldName = iota
	fieldCluster
	fieldKind
	fieldParallelism
	fieldSQL   // SQL jobs
	fieldJar   // JAR jobs, in place of fieldSQL
	fieldEntry // JAR jobs
	fieldArgs  // JAR jobs
)

// New opens the form over the clusters, on the scope's cluster when
// there is one.
func New(e *kit.Env, clusters []string, scope string) *Form {
	input := func(placeholder string) textinput.Model {
		in := textinput.New()
		in.Prompt = ""
		in.Placeholder = placeholder
		in.SetStyles(e.Styles.Input)
		in.SetVirtualCursor(true)
		return in
	}
	m := &Form{
		env:         e,
		clusters:    clusters,
		kind:        model.KindSQL,
		name:        input("orders-enrich"),
		parallelism: input("1"),
		jar:         input("/path/to/job.jar"),
		entry:       input("com.example.StreamingJob"),
		args:        input("--input kafka://… (space separated)"),
	}
	m.cluster = max(slices.Index(clusters, scope), 0)
	m.sql = textarea.New()
	m.sql.Placeholder = "CREATE TABLE …; INSERT INTO … SELECT …;"
	m.sql.ShowLineNumbers = true
	m.sql.SetStyles(e.Styles.Area)
	m.sql.SetVirtualCursor(true)
	m.name.Focus()
	return m
}

// fields lists the form's fields for the chosen kind.
func (m *Form) fields() []int {
	if m.kind == model.KindJAR {
		return []int{fieldName, fieldCluster, fieldKind, fieldParallelism, fieldJar, fieldEntry, fieldArgs}
	}
	return []int{fieldName, fieldCluster, fieldKind, fieldParallelism, fieldSQL}
}

// Title implements kit.Screen.
func (m *Form) Title() string { return "New job" }

// Capturing implements kit.Screen.
func (m *Form) Capturing() bool { return true }

// ShortHelp implements kit.Screen.
func (m *Form) ShortHelp() []key.Binding { return keys(m.env.Keys) }

// FullHelp implements kit.Screen.
func (m *Form) FullHelp() [][]key.Binding { return Help(m.env.Keys) }

func (m *Form) current() int { return m.fields()[kit.Clamp(m.focus, 0, len(m.fields())-1)] }

// setFocus moves the keyboard to field index i.
func (m *Form) setFocus(i int) tea.Cmd {
	fs := m.fields()
	m.focus = (i + len(fs)) % len(fs)
	for _, in := range []*textinput.Model{&m.name, &m.parallelism, &m.jar, &m.entry, &m.args} {
		in.Blur()
	}
	m.sql.Blur()
	switch m.current() {
	case fieldName:
		return m.name.Focus()
	case fieldParallelism:
		return m.parallelism.Focus()
	case fieldSQL:
		return m.sql.Focus()
	case fieldJar:
		return m.jar.Focus()
	case fieldEntry:
		return m.entry.Focus()
	case fieldArgs:
		return m.args.Focus()
	}
	return nil
}

// Update implements kit.Screen.
func (m *Form) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		w := max(m.width-20, 20)
		for _, in := range []*textinput.Model{&m.name, &m.parallelism, &m.jar, &m.entry, &m.args} {
			in.SetWidth(w)
		}
		m.sql.SetWidth(max(m.width-6, 20))
		m.sql.SetHeight(max(m.height-12, 3))
		return m, nil
	case kit.CreatedMsg:
		if !m.submitting || msg.Req.Name != m.sent.Name {
			return m, nil
		}
		m.submitting = false
		if msg.Err != nil {
			m.err = msg.Err
			return m, nil
		}
		return m, kit.Send(kit.PopMsg{})
	case tea.KeyPressMsg:
		return m, m.key(msg)
	case tea.PasteMsg:
		return m, m.toField(msg)
	}
	return m, nil
}

func (m *Form) key(msg tea.KeyPressMsg) tea.Cmd {
	k := m.env.Keys
	switch {
	case key.Matches(msg, k.Form.Cancel):
		return kit.Send(kit.PopMsg{})
	case key.Matches(msg, k.Form.Submit):
		return m.submit()
	case key.Matches(msg, k.Form.NextField):
		return m.setFocus(m.focus + 1)
	case key.Matches(msg, k.Form.PrevField):
		return m.setFocus(m.focus - 1)
	}
	switch m.current() {
	case fieldCluster:
		if key.Matches(msg, k.Form.Toggle) && len(m.clusters) > 0 {
			m.cluster = (m.cluster + 1) % len(m.clusters)
		}
		return nil
	case fieldKind:
		if key.Matches(msg, k.Form.Toggle) {
			if m.kind == model.KindSQL {
				m.kind = model.KindJAR
			} else {
				m.kind = model.KindSQL
			}
		}
		return nil
	}
	return m.toField(msg)
}

// toField gives a key or a paste to the focused text field.
func (m *Form) toField(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	switch m.current() {
	case fieldName:
		m.name, cmd = m.name.Update(msg)
	case fieldParallelism:
		m.parallelism, cmd = m.parallelism.Update(msg)
	case fieldSQL:
		m.sql, cmd = m.sql.Update(msg)
	case fieldJar:
		m.jar, cmd = m.jar.Update(msg)
	case fieldEntry:
		m.entry, cmd = m.entry.Update(msg)
	case fieldArgs:
		m.args, cmd = m.args.Update(msg)
	}
	return cmd
}

// request validates the form and builds the request.
func (m *Form) request() (api.CreateJobRequest, error) {
	var errs []error
	r := api.CreateJobRequest{Name: strings.TrimSpace(m.name.Value()), Kind: m.kind, Parallelism: 1}
	if r.Name == "" {
		errs = append(errs, errors.New("name is required"))
	} else if strings.ContainsAny(r.Name, " \t/") {
		errs = append(errs, fmt.Errorf("name %q may not contain spaces or slashes", r.Name))
	}
	if len(m.clusters) == 0 {
		errs = append(errs, errors.New("no cluster is known yet"))
	} else {
		r.Cluster = m.clusters[m.cluster]
	}
	if p := strings.TrimSpace(m.parallelism.Value()); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 {
			errs = append(errs, fmt.Errorf("parallelism %q is not a whole number ≥ 1", p))
		}
		r.Parallelism = n
	}
	switch m.kind {
	case model.KindSQL:
		r.Spec.SQL = strings.TrimSpace(m.sql.Value())
		if r.Spec.SQL == "" {
			errs = append(errs, errors.New("SQL is required"))
		}
	case model.KindJAR:
		r.Spec.JarPath = strings.TrimSpace(m.jar.Value())
		r.Spec.EntryClass = strings.TrimSpace(m.entry.Value())
		r.Spec.Args = strings.Fields(m.args.Value())
		if r.Spec.JarPath == "" {
			// A blank entry class is the jar manifest's (core reads it).
			errs = append(errs, errors.New("the jar path is required"))
		}
	}
	return r, errors.Join(errs...)
}

func (m *Form) submit() tea.Cmd {
	if m.submitting {
		return nil
	}
	r, err := m.request()
	if err != nil {
		m.err = err
		return nil
	}
	m.err = nil
	m.submitting = true
	m.sent = r
	return kit.Busy("create:"+r.Name, fmt.Sprintf("creating job %s on %s…", r.Name, r.Cluster), createJobCmd(call(m.env), r))
}

// View implements kit.Screen.
func (m *Form) View() string {
	st := m.env.Styles
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	label := func(f int, s string) string {
		l := fmt.Sprintf("%-12s", s)
		if m.current() == f {
			return st.Bold.Render("▸ " + l)
		}
		return "  " + st.Label.Render(l)
	}
	choice := func(opts []string, sel int) string {
		var parts []string
		for i, o := range opts {
			if i == sel {
				parts = append(parts, st.ButtonFocused.Render(o))
			} else {
				parts = append(parts, st.Button.Render(o))
			}
		}
		if len(parts) == 0 {
			return st.Error.Render("no cluster known")
		}
		return strings.Join(parts, " ") + st.Dim.Render("  ←/→")
	}
	kindSel := 0
	if m.kind == model.KindJAR {
		kindSel = 1
	}
	lines := []string{
		label(fieldName, "name") + " " + m.name.View(),
		label(fieldCluster, "cluster") + " " + choice(m.clusters, m.cluster),
		label(fieldKind, "kind") + " " + choice([]string{"SQL", "JAR"}, kindSel),
		label(fieldParallelism, "parallelism") + " " + m.parallelism.View(),
	}
	if m.kind == model.KindJAR {
		lines = append(lines,
			label(fieldJar, "jar")+" "+m.jar.View(),
			label(fieldEntry, "entry class")+" "+m.entry.View(),
			label(fieldArgs, "args")+" "+m.args.View(),
		)
	} else {
		lines = append(lines, label(fieldSQL, "SQL"))
		lines = append(lines, strings.Split(m.sql.View(), "\n")...)
	}
	lines = append(lines, "")
	switch {
	case m.submitting:
		lines = append(lines, st.Dim.Render("  creating…"))
	case m.err != nil:
		for _, l := range strings.Split(m.err.Error(), "\n") {
			lines = append(lines, "  "+st.Error.Render("✖ "+l))
		}
	default:
		lines = append(lines, st.Dim.Render("  ctrl+s creates the job (state CREATED); r on it submits it."))
	}
	return kit.Box(st, st.Title.Render("New job"), "", lines, m.width, m.height)
}

func createJobCmd(c kit.Call[Service], req api.CreateJobRequest) tea.Cmd {
	return func() tea.Msg {
		var j model.Job
		err := c.With(func(ctx context.Context) (err error) {
			j, err = c.Service.CreateJob(ctx, req)
			return err
		})
		if err != nil {
			err = fmt.Errorf("create job %s on %s: %w", req.Name, req.Cluster, err)
		}
		return kit.CreatedMsg{Job: j, Err: err, Req: req}
	}
}

// keys is the form's keys.
func keys(k kit.KeyMap) []key.Binding {
	return []key.Binding{k.Form.NextField, k.Form.PrevField, k.Form.Toggle, k.Form.Submit, k.Form.Cancel}
}

// Help is the form's keys, for its `?` help and the keymap (docs/keys.md).
func Help(k kit.KeyMap) [][]key.Binding { return [][]key.Binding{keys(k)} }
