package editor

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/kit"
)

// What the job's cluster gives its SQL: the table catalog and the
// variables, asked of core (api.CatalogService) when the editor opens. The
// check runs with them injected, as a deploy would, completion knows the
// catalog's tables and their columns, a debug run gets them, and the
// strip under the title says which tables came from the catalog.

// assetsMsg carries a cluster's catalog tables and variables.
type assetsMsg struct {
	id      int
	cluster string
	tables  []model.CatalogTable
	vars    []model.Variable
	err     error
}

// loadAssetsCmd asks core for the cluster's catalog and variables. A
// secret comes as where it is read from, never its value.
func loadAssetsCmd(c kit.Call[Service], id int, cluster string) tea.Cmd {
	return func() tea.Msg {
		msg := assetsMsg{id: id, cluster: cluster}
		msg.err = c.With(func(ctx context.Context) (err error) {
			if msg.tables, err = c.Service.Tables(ctx, cluster); err != nil {
				return err
			}
			msg.vars, err = c.Service.Vars(ctx, cluster)
			return err
		})
		if msg.err != nil {
			msg.err = fmt.Errorf("load the table catalog of cluster %s: %w", cluster, msg.err)
		}
		return msg
	}
}

// clusterAssets are what the editor knows of its cluster's catalog and
// variables.
type clusterAssets struct {
	tables []model.CatalogTable
	vars   []model.Variable
	// known are the catalog tables that validate, with their columns, for
	// completion.
	known map[string]*flinksql.TableInfo
	err   error
}

func newClusterAssets(msg assetsMsg) clusterAssets {
	a := clusterAssets{tables: msg.tables, vars: msg.vars, err: msg.err, known: map[string]*flinksql.TableInfo{}}
	for _, t := range msg.tables {
		ct, err := flinksql.ParseCatalogTable(t.Name, t.SQL, flinksql.Options{})
		if err != nil {
			continue // broken: the check names it where the script uses it
		}
		info := flinksql.TableInfoOf(ct)
		info.Origin = fmt.Sprintf("catalog v%d", t.Version)
		a.known[t.Name] = info
	}
	return a
}

// empty reports a cluster with neither catalog tables nor variables: the
// check is then the plain one.
func (a clusterAssets) empty() bool { return len(a.tables) == 0 && len(a.vars) == 0 }

// check is what a check takes: the tables and the names and plain values
// of the variables (a secret's value is never needed).
func (a clusterAssets) check() flinksql.Assets {
	out := flinksql.Assets{Vars: map[string]string{}}
	for _, t := range a.tables {
		out.Tables = append(out.Tables, flinksql.CatalogDef{Name: t.Name, Version: t.Version, SQL: t.SQL})
	}
	for _, v := range a.vars {
		if v.Secret() {
			out.Secrets = append(out.Secrets, v.Name)
		} else {
			out.Vars[v.Name] = v.Value
		}
	}
	return out
}

// injected is what the last check took from the catalog.
type injected struct {
	tables   []flinksql.InjectedTable
	shadowed []flinksql.CatalogDef
	broken   []flinksql.BrokenTable
}

func injectedOf(in flinksql.Injection) injected {
	return injected{tables: in.Tables, shadowed: in.Shadowed, broken: in.Broken}
}

func (in injected) rows() int {
	if len(in.tables)+len(in.shadowed)+len(in.broken) == 0 {
		return 0
	}
	return 1
}

// catalogStrip is the line under the title: the tables the script gets
// from the catalog with their versions, those it defines itself though
// the catalog has them, and those whose definition no longer validates.
// Where that does not fit, the short form: "catalog: orders v3 · …".
func catalogStrip(st *kit.Styles, in injected, cluster string, width int) string {
	strip := func(short bool) string {
		var parts []string
		for _, t := range in.tables {
			v := fmt.Sprintf(" catalog v%d", t.Version)
			if short {
				v = fmt.Sprintf(" v%d", t.Version)
			}
			parts = append(parts, st.Title.Render(t.Name)+st.Dim.Render(v))
		}
		for _, t := range in.broken {
			why := fmt.Sprintf("%s catalog v%d does not validate", t.Name, t.Version)
			if short {
				why = fmt.Sprintf("%s v%d broken", t.Name, t.Version)
			}
			parts = append(parts, st.Error.Render(why))
		}
		for _, t := range in.shadowed {
			own := fmt.Sprintf(" own DDL (catalog v%d unused)", t.Version)
			if short {
				own = " own DDL"
			}
			parts = append(parts, st.Warn.Render(t.Name)+st.Dim.Render(own))
		}
		lead := "from the catalog of " + cluster + ": "
		if short {
			lead = "catalog: "
		}
		return " " + st.Dim.Render(lead) + strings.Join(parts, st.Dim.Render(" · "))
	}
	if full := strip(false); kit.Width(full) <= width {
		return full
	}
	return strip(true)
}

// completeOptions are the check's options with the catalog's tables
// known, so that completion offers them and their columns.
func completeOptions(o flinksql.Options, a clusterAssets) flinksql.Options {
	if len(a.known) > 0 {
		o.KnownTables = a.known
	}
	return o
}
