package cluster

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
)

// NodesScreen is `n` on `:cluster`: the cluster's YARN nodes as its
// ResourceManager reports them, the ones out of service (unhealthy, lost,
// decommissioned, …) first with their health report, each with its
// containers and the memory and vcores it uses of its own; the cursor's
// node in depth under the list.
type NodesScreen struct {
	env           *kit.Env
	cluster       string
	list          kit.Table[api.ClusterNode]
	width, height int
}

// NewNodes opens the nodes of cluster; its Cmd loads them.
func NewNodes(e *kit.Env, cluster string) (*NodesScreen, tea.Cmd) {
	m := &NodesScreen{env: e, cluster: cluster}
	m.list = kit.NewTable(e, kit.TableOf[api.ClusterNode]{
		Key:    "load:nodes",
		Load:   func(seq int) tea.Cmd { return loadNodesCmd(call(e), cluster, seq) },
		ID:     func(n api.ClusterNode) string { return n.ID },
		Page:   m.page,
		Filter: "node, state, rack, health",
		Match:  func(n api.ClusterNode) []string { return []string{n.ID, n.State, n.Rack, n.HealthReport} },
		Noun:   "node",
	})
	return m, m.list.Refresh()
}

type nodesLoadedMsg struct {
	cluster string
	seq     int
	nodes   []api.ClusterNode
	err     error
}

func loadNodesCmd(c kit.Call[Service], cluster string, seq int) tea.Cmd {
	nodes := func(ctx context.Context) ([]api.ClusterNode, error) { return c.Service.ClusterNodes(ctx, cluster) }
	return kit.Get(c, "list the nodes of cluster "+cluster, nodes, func(ns []api.ClusterNode, err error) tea.Msg {
		return nodesLoadedMsg{cluster: cluster, seq: seq, nodes: ns, err: err}
	})
}

// Title implements kit.Screen.
func (m *NodesScreen) Title() string { return "Nodes " + m.cluster }

// Capturing implements kit.Screen: the filter's prompt has the keyboard.
func (m *NodesScreen) Capturing() bool { return m.list.Capturing() }

// Back implements kit.Backer: esc clears a filter before it leaves.
func (m *NodesScreen) Back() (tea.Cmd, bool) { return m.list.Back() }

// ShortHelp implements kit.Screen.
func (m *NodesScreen) ShortHelp() []key.Binding {
	return m.list.ShortHelp(m.env.Keys.Nav.Filter, m.env.Keys.Nav.Refresh)
}

// FullHelp implements kit.Screen.
func (m *NodesScreen) FullHelp() [][]key.Binding { return NodesHelp(m.env.Keys) }

// NodesHelp is the nodes view's keys, for its `?` help and the keymap
// (docs/keys.md).
func NodesHelp(k kit.KeyMap) [][]key.Binding {
	return [][]key.Binding{k.Nav.Bindings(), {k.Nav.Filter, k.Nav.Refresh}}
}

func (m *NodesScreen) page() int { return max(min(len(m.list.Rows()), m.height-8), 1) }

// Update implements kit.Screen.
func (m *NodesScreen) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.list.Fit()
	case nodesLoadedMsg:
		if msg.cluster != m.cluster {
			return m, nil
		}
		_, cmd := m.list.Loaded(msg.seq, msg.nodes, msg.err)
		return m, cmd
	case kit.ChangeMsg:
		if c := msg.Change; (c.Kind == api.ClusterChanged && c.Cluster != nil && c.Cluster.Name == m.cluster) || c.Kind == api.Resync {
			return m, m.list.Refresh()
		}
	case tea.KeyPressMsg, tea.PasteMsg:
		cmd, _ := m.list.Update(msg, m.width)
		return m, cmd
	}
	return m, nil
}

// View implements kit.Screen.
func (m *NodesScreen) View() string {
	st := m.env.Styles
	return m.list.Box(st, m.list.Title(st, m.Title()), NodesNote(st, m.list.Items()), m.width, m.height,
		func(w, h int) []string {
			return NodeLines(st, m.list.Rows(), m.list.Cursor(), m.list.Offset(), w, h, m.env.Now)
		},
		"loading the nodes of "+m.cluster+"…", "the ResourceManager of "+m.cluster+" lists no node")
}

// NodesNote counts the nodes, and those out of service by state.
func NodesNote(st *kit.Styles, ns []api.ClusterNode) string {
	out := []string{kit.Plural(len(ns), "node")}
	var states []string
	count := map[string]int{}
	for _, n := range ns {
		if n.State != "RUNNING" {
			if count[n.State] == 0 {
				states = append(states, n.State)
			}
			count[n.State]++
		}
	}
	for _, s := range states {
		out = append(out, st.Warn.Render(fmt.Sprintf("%d %s", count[s], strings.ToLower(s))))
	}
	return strings.Join(out, " · ")
}

// nodeColumns are the list's: a node out of service runs and offers
// nothing, so it says how long ago it was last heard of instead. A narrow
// terminal keeps the node, its state, containers and health (what says
// a node is in trouble), and gives up the rack, the meter, the vcores and
// the memory in that order: the cursor's node says them under the list.
func nodeColumns(now time.Time) kit.Columns[api.ClusterNode] {
	type n = api.ClusterNode
	return kit.Columns[n]{
		{Title: "NODE", Fit: true, Width: 10, Max: 30, Cell: func(n n) string { return n.ID }},
		{Title: "STATE", Fit: true, Width: 7, Cell: func(n n) string { return n.State }, Style: nodeStateStyle},
		{Title: "CONT", Width: 4, Right: true, Cell: func(n n) string { return inService(n, strconv.Itoa(n.Containers)) }},
		{Title: "MEMORY", Fit: true, Width: 6, Drop: 1, Cell: func(n n) string {
			return inService(n, kit.Bytes(n.MemoryUsedMB<<20)+" / "+kit.Bytes(n.MemoryTotalMB<<20))
		}},
		{Drop: 3, Width: 10, Cell: func(n n) string { return inService(n, meter(used(n.MemoryUsedMB, n.MemoryTotalMB), 8)) }},
		{Title: "VCORES", Fit: true, Width: 6, Drop: 2, Cell: func(n n) string {
			return inService(n, fmt.Sprintf("%d / %d", n.VCoresUsed, n.VCoresTotal))
		}},
		{Title: "RACK", Fit: true, Width: 4, Max: 14, Drop: 4, Cell: func(n n) string { return n.Rack }},
		{Title: "HEALTH", Flex: true, Min: 14, Cell: func(n n) string { return health(n, now) }},
	}
}

// inService is s for a node in service, "-" for one that is not.
func inService(n api.ClusterNode, s string) string {
	if n.InService() {
		return s
	}
	return kit.NoValue
}

func used(u, total int64) float64 {
	if total <= 0 {
		return 0
	}
	return float64(u) / float64(total)
}

// health is what the node's health says: its report, or for a node out
// of service without one, when it was last heard of.
func health(n api.ClusterNode, now time.Time) string {
	switch {
	case n.HealthReport != "":
		return n.HealthReport
	case n.State != "RUNNING":
		return "last heard of " + kit.Ago(now, n.LastHealthUpdate)
	}
	return kit.NoValue
}

func nodeStateStyle(st *kit.Styles, n api.ClusterNode, s string) string {
	switch n.State {
	case "RUNNING":
		return s
	case "UNHEALTHY", "LOST":
		return st.Error.Render(s)
	}
	return st.Warn.Render(s)
}

// NodeLines renders the nodes (pure): a header, a row per node, the
// cursor's reversed; then the cursor's node in depth, its whole health
// report wrapped, as far as the height allows.
func NodeLines(st *kit.Styles, ns []api.ClusterNode, cursor, offset, w, h int, now time.Time) []string {
	page := max(min(len(ns), h-8), 1)
	offset = kit.ScrollTo(cursor, offset, page, len(ns))
	out := nodeColumns(now).Lines(st, ns, cursor, offset, offset+page, w)
	if cursor < 0 || cursor >= len(ns) {
		return out
	}
	n := ns[cursor]
	state := nodeStateStyle(st, n, n.State)
	out = append(out, "", " "+st.Title.Render(kit.Truncate(n.ID, max(w-2, 1)))+" "+state)
	var facts []string
	if n.InService() {
		facts = append(facts, kit.Plural(n.Containers, "container"),
			fmt.Sprintf("%s of %s", kit.Bytes(n.MemoryUsedMB<<20), kit.Bytes(n.MemoryTotalMB<<20)),
			fmt.Sprintf("%d of %d vcores", n.VCoresUsed, n.VCoresTotal))
	}
	facts = append(facts, "rack "+kit.OrDash(n.Rack), "Hadoop "+kit.OrDash(n.Version), "health checked "+kit.Ago(now, n.LastHealthUpdate))
	out = append(out, "  "+st.Dim.Render(kit.Truncate(strings.Join(facts, " · "), max(w-3, 1))))
	if n.HealthReport != "" {
		for _, l := range kit.Wrap(n.HealthReport, max(w-3, 10)) {
			out = append(out, "  "+nodeStateStyle(st, n, l))
		}
	}
	if len(out) > h {
		out = out[:h]
	}
	return out
}
