package tui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/tui/alerts"
	"github.com/palink/palink/tui/cluster"
	"github.com/palink/palink/tui/commands"
	"github.com/palink/palink/tui/kit"
	"github.com/palink/palink/tui/projects"
	"github.com/palink/palink/tui/tables"
	"github.com/palink/palink/tui/udfs"
	"github.com/palink/palink/tui/vars"
)

// commandLine is the `:` prompt, with tab completion of commands, cluster
// names and job names.
type commandLine struct {
	env    *kit.Env
	input  textinput.Model
	active bool
}

func newCommandLine(e *kit.Env) commandLine {
	in := textinput.New()
	in.Prompt = ":"
	in.ShowSuggestions = true
	in.SetStyles(e.Styles.Input)
	in.SetVirtualCursor(true)
	return commandLine{env: e, input: in}
}

// commandVerbs are the commands the line knows, for completion and errors.
var commandVerbs = []string{"jobs", "cmd", "cluster", "alerts", "projects", "tables", "vars", "udfs", "sql", "theme", "help", "q"}

// commandUsage documents every command line, for the `?` help and the
// keymap (docs/keys.md) (TestCommandUsageHasEveryVerb keeps it whole).
var commandUsage = []string{":jobs", ":jobs @CLUSTER", ":cmd", ":cluster [NAME]", ":alerts", ":projects", ":tables [CLUSTER]", ":vars [CLUSTER]", ":udfs", ":sql NAME", ":theme dark|light", ":help", ":q"}

// completions lists every full command line the user may mean.
func completions(clusters, jobNames []string) []string {
	out := []string{"jobs", "cmd", "cluster", "alerts", "projects", "tables", "vars", "udfs", "help", "q", "quit", "theme dark", "theme light"}
	for _, c := range clusters {
		out = append(out, "jobs @"+c, "cluster "+c, "vars "+c)
	}
	for _, n := range jobNames {
		out = append(out, "sql "+n)
	}
	return out
}

func (c *commandLine) open(suggestions []string) tea.Cmd {
	c.active = true
	c.input.SetValue("")
	c.input.SetSuggestions(suggestions)
	return c.input.Focus()
}

func (c *commandLine) close() {
	c.active = false
	c.input.Blur()
	c.input.SetSuggestions(nil)
}

// Update handles a key while the line is open.
func (c *commandLine) Update(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, c.env.Keys.Form.Confirm):
			line := strings.TrimSpace(c.input.Value())
			c.close()
			if line == "" {
				return nil
			}
			return kit.Send(commandLineMsg{line: line})
		case key.Matches(k, c.env.Keys.Form.Cancel):
			c.close()
			return nil
		}
	}
	var cmd tea.Cmd
	c.input, cmd = c.input.Update(msg)
	return cmd
}

func (c *commandLine) View(st *kit.Styles, width int) string {
	line := " " + c.input.View()
	// Show what tab would complete to, a few at a time.
	if m := c.input.MatchedSuggestions(); len(m) > 1 && c.input.Value() != "" {
		more := ""
		if len(m) > 5 {
			m, more = m[:5], fmt.Sprintf(" (+%d)", len(m)-5)
		}
		line += "   " + st.Dim.Render(strings.Join(m, "  ")+more)
	}
	return kit.Fit(line, width)
}

// command is a parsed `:` line.
type command struct {
	verb string // one of commandVerbs
	arg  string
}

// parseCommand reads a `:` line: a verb (or its alias) and one argument.
func parseCommand(line string) (command, error) {
	verb, arg, _ := strings.Cut(strings.TrimSpace(line), " ")
	arg = strings.TrimSpace(arg)
	switch verb {
	case "jobs", "job", "j":
		return command{"jobs", strings.TrimPrefix(arg, "@")}, nil
	case "cmd", "cmds", "commands":
		return command{"cmd", ""}, nil
	case "cluster", "clusters":
		return command{"cluster", arg}, nil
	case "alerts", "alert":
		return command{"alerts", ""}, nil
	case "projects", "project", "builds":
		return command{"projects", ""}, nil
	case "tables", "table":
		return command{"tables", arg}, nil
	case "vars", "var", "variables":
		return command{"vars", arg}, nil
	case "udfs", "udf", "functions":
		return command{"udfs", ""}, nil
	case "sql":
		if arg == "" {
			return command{}, fmt.Errorf(":sql needs a job name, e.g. :sql orders-enrich")
		}
		return command{"sql", arg}, nil
	case "theme":
		if arg != "dark" && arg != "light" {
			return command{}, fmt.Errorf(":theme takes dark or light, not %q", arg)
		}
		return command{"theme", arg}, nil
	case "help", "h":
		return command{"help", ""}, nil
	case "q", "quit", "q!", "exit":
		return command{"q", ""}, nil
	}
	known := slices.Clone(commandVerbs)
	for i, v := range known {
		known[i] = ":" + v
	}
	return command{}, fmt.Errorf("unknown command :%s (try %s)", verb, strings.Join(known, " "))
}

// runCommand executes a `:` line.
func (m *Model) runCommand(line string) tea.Cmd {
	c, err := parseCommand(line)
	if err != nil {
		return m.flashHere(kit.FlashError, err.Error())
	}
	switch c.verb {
	case "q":
		return tea.Quit
	case "help":
		return m.push(newHelpScreen(m.env, m.top()), nil)
	case "theme":
		m.setStyles(c.arg == "dark", m.env.Styles.NoColor)
		return nil
	case "jobs":
		if c.arg != "" && c.arg != "all" && len(m.clusters) > 0 && !slices.Contains(m.clusterNames(), c.arg) {
			return m.flashHere(kit.FlashError, fmt.Sprintf(":jobs @%s: no such cluster (clusters: %s)", c.arg, strings.Join(m.clusterNames(), ", ")))
		}
		if c.arg == "all" {
			c.arg = ""
		}
		m.popTo(1)
		m.jobs.SetScope(c.arg)
		return nil
	case "cmd":
		s, init := commands.New(m.env)
		return m.push(s, init)
	case "cluster":
		name, err := m.commandCluster(c)
		if err != nil {
			return m.flashHere(kit.FlashError, err.Error())
		}
		s, init := cluster.New(m.env, m.clusterNames(), name)
		return m.push(s, init)
	case "alerts":
		s, init := alerts.New(m.env, m.jobs.Job)
		return m.push(s, init)
	case "projects":
		s, init := projects.New(m.env)
		return m.push(s, init)
	case "udfs":
		s, init := udfs.New(m.env)
		return m.push(s, init)
	case "tables", "vars":
		name, err := m.commandCluster(c)
		if err != nil {
			return m.flashHere(kit.FlashError, err.Error())
		}
		if c.verb == "vars" {
			s, init := vars.New(m.env, name)
			return m.push(s, init)
		}
		s, init := tables.New(m.env, name)
		return m.push(s, init)
	case "sql":
		if j, ok := m.jobs.Find(c.arg); ok {
			return m.openEditor(j)
		}
		return m.flashHere(kit.FlashError, fmt.Sprintf(":sql %s: no such job", c.arg))
	}
	return nil
}

// commandCluster is the cluster a `:cluster`, `:tables` or `:vars` line means: its
// argument, else the jobs table's scope, else the first cluster.
func (m *Model) commandCluster(c command) (string, error) {
	name := c.arg
	if name == "" {
		name = m.jobs.Scope()
	}
	names := m.clusterNames()
	if name == "" && len(names) > 0 {
		name = names[0]
	}
	if name == "" {
		return "", fmt.Errorf(":%s: no cluster is known yet", c.verb)
	}
	if len(names) > 0 && !slices.Contains(names, name) {
		return "", fmt.Errorf(":%s %s: no such cluster (clusters: %s)", c.verb, name, strings.Join(names, ", "))
	}
	return name, nil
}
