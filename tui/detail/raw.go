package detail

import (
	"bytes"
	"encoding/json"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"go.yaml.in/yaml/v3"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
)

// RawScreen is `y`: a job as data, Flink's own job JSON when the cluster
// answered, else palink's record of the job; y again shows it as YAML.
// Opened from the jobs table it loads the job first (Service.Job); from
// the detail it shows what the detail has, and ctrl+r reloads.
type RawScreen struct {
	*kit.TextScreen
	env   *kit.Env
	data  jobData
	yaml  bool
	loads kit.Refresher
	err   error
}

// NewRaw opens job j's raw data; its Cmd loads the job.
func NewRaw(e *kit.Env, j api.JobView) (*RawScreen, tea.Cmd) {
	m := newRaw(e, jobData{job: j})
	return m, m.loads.Refresh()
}

func newRaw(e *kit.Env, d jobData) *RawScreen {
	m := &RawScreen{env: e, data: d}
	m.TextScreen = kit.NewTextLines(e, "", nil)
	m.loads = kit.NewRefresher(e, func(seq int) tea.Cmd { return Load(call(e), m.data.job.ID, seq) })
	m.refresh()
	return m
}

// refresh renders the data in the current format.
func (m *RawScreen) refresh() {
	format, other := "JSON", "YAML"
	if m.yaml {
		format, other = "YAML", "JSON"
	}
	m.SetTitle(m.data.job.Name + " · raw " + format)
	st := m.env.Styles
	note := st.Dim.Render("y " + other)
	switch {
	case m.loads.Busy() && m.data.detail == nil:
		note = st.Info.Render("loading…") + " " + note
	case m.err != nil:
		note = st.Error.Render("✖ not current") + " " + note
	}
	m.SetNote(note)
	text := rawJSON(m.data)
	if m.yaml {
		text = toYAML(text)
	}
	m.SetLines(kit.TextLines(text))
}

// toYAML turns raw JSON (after a leading // comment line, if any) into
// YAML, keeping the comment as a YAML one; text that is not JSON stays.
func toYAML(text string) string {
	head, body := "", text
	if strings.HasPrefix(text, "//") {
		first, rest, _ := strings.Cut(text, "\n")
		head, body = "#"+strings.TrimPrefix(first, "//")+"\n", rest
	}
	var v any
	if json.Unmarshal([]byte(body), &v) != nil {
		return text
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if enc.Encode(v) != nil {
		return text
	}
	return head + b.String()
}

// ShortHelp implements kit.Screen.
func (m *RawScreen) ShortHelp() []key.Binding {
	return append([]key.Binding{m.env.Keys.Open.RawJSON}, m.TextScreen.ShortHelp()...)
}

// FullHelp implements kit.Screen.
func (m *RawScreen) FullHelp() [][]key.Binding {
	return append(m.TextScreen.FullHelp(), []key.Binding{m.env.Keys.Open.RawJSON, m.env.Keys.Nav.Refresh})
}

// Update implements kit.Screen.
func (m *RawScreen) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case LoadedMsg:
		if msg.JobID != m.data.job.ID {
			return m, nil
		}
		current, again := m.loads.Done(msg.Seq)
		if !current {
			return m, nil
		}
		flash := kit.LoadFlash("load:job:"+m.data.job.ID, msg.Err, m.err != nil)
		m.err = msg.Err
		if msg.Err == nil {
			det := msg.Detail
			m.data.detail = &det
			m.data.job = kit.Renew(m.data.job, det.Job)
		}
		m.refresh()
		return m, tea.Batch(again, flash)
	case tea.KeyPressMsg:
		k := m.env.Keys
		switch {
		case key.Matches(msg, k.Open.RawJSON):
			m.yaml = !m.yaml
			m.refresh()
			return m, nil
		case key.Matches(msg, k.Nav.Refresh):
			cmd := m.loads.Refresh()
			m.refresh()
			return m, cmd
		}
	}
	_, cmd := m.TextScreen.Update(msg)
	return m, cmd
}
