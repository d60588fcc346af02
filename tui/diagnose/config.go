package diagnose

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
)

// Config is the job's Flink configuration: the JobManager's (secrets
// masked by Flink) and the job's execution config, in a text view that
// scrolls and wraps as the raw JSON does.
type Config struct {
	*kit.TextScreen
	env *kit.Env
	job api.JobView
	loadState
}

// NewConfig opens job j's configuration; its Cmd fetches it.
func NewConfig(e *kit.Env, j api.JobView) (*Config, tea.Cmd) {
	m := &Config{TextScreen: kit.NewTextLines(e, j.Name+" · Flink configuration", []string{"fetching the configuration…"}), env: e, job: j}
	m.start(e)
	m.loads = kit.NewRefresher(e, func(seq int) tea.Cmd { return loadConfigCmd(m.call(e), j.ID, j.Name, seq) })
	return m, m.loads.Refresh()
}

type configLoadedMsg struct {
	jobID string
	seq   int
	c     api.FlinkConfig
	err   error
}

func loadConfigCmd(c kit.Call[Service], jobID, jobName string, seq int) tea.Cmd {
	return func() tea.Msg {
		cfg, err := kit.Diagnose(c, "configuration of "+jobName, func(ctx context.Context, d api.DiagnoseService) (api.FlinkConfig, error) {
			return d.FlinkConfig(ctx, jobID)
		})
		return configLoadedMsg{jobID: jobID, seq: seq, c: cfg, err: err}
	}
}

// ShortHelp implements kit.Screen.
func (m *Config) ShortHelp() []key.Binding {
	return append(m.TextScreen.ShortHelp(), m.env.Keys.Nav.Refresh)
}

// Update implements kit.Screen.
func (m *Config) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case configLoadedMsg:
		if msg.jobID != m.job.ID {
			return m, nil
		}
		ok, next := m.done(msg.seq, msg.err)
		if !ok {
			return m, nil
		}
		if msg.err != nil {
			m.SetLines([]string{"✖ " + msg.err.Error(), "ctrl+r retries"})
			return m, next
		}
		m.SetLines(ConfigLines(msg.c))
		return m, next
	case tea.KeyPressMsg:
		if key.Matches(msg, m.env.Keys.Nav.Refresh) {
			return m, m.loads.Refresh()
		}
	}
	_, cmd := m.TextScreen.Update(msg)
	return m, cmd
}

// ConfigLines prints a configuration: the job's first (what people came
// for), then the JobManager's keys, sorted. Pure, for the tests.
func ConfigLines(c api.FlinkConfig) []string {
	j := c.Job
	flame := "off (rest.flamegraph.enabled: false)"
	if c.FlameGraphs {
		flame = "on"
	}
	out := []string{
		"# job",
		"name: " + kit.OrDash(j.Name),
		fmt.Sprintf("parallelism: %d", j.Parallelism),
		"restart strategy: " + kit.OrDash(j.RestartStrategy),
		fmt.Sprintf("object reuse: %v", j.ObjectReuse),
		"flame graphs: " + flame,
	}
	if j.ExecutionMode != "" {
		out = append(out, "execution mode: "+j.ExecutionMode)
	}
	for _, k := range slices.Sorted(maps.Keys(j.UserConfig)) {
		out = append(out, k+": "+j.UserConfig[k])
	}
	out = append(out, "", "# JobManager")
	entries := slices.Clone(c.JobManager)
	slices.SortStableFunc(entries, func(a, b api.ConfigEntry) int {
		if a.Key < b.Key {
			return -1
		}
		if a.Key > b.Key {
			return 1
		}
		return 0
	})
	for _, e := range entries {
		out = append(out, e.Key+": "+e.Value)
	}
	for _, n := range c.Notes {
		out = append(out, "", "⚠ "+n)
	}
	return out
}
