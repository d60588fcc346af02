package tables

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/flinksql/builtin"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/kit"
)

// Editing a catalog table in $EDITOR (e): its DDL goes to a file of the
// user's (editPath), the editor has the terminal, and what it leaves is
// checked as the catalog checks a table (flinksql.ParseCatalogTable, for
// the cluster's Flink) before it is saved as the table's next version. An
// edit that does not check, or that the service refuses, is not lost:
// its file stays (palink may even quit), the view says why at
// file:line:col, and e opens that file again. A saved edit, or one that
// changed nothing, goes with its file.

// editFile is where an edit waits: its path, and as the view says it
// (the home directory as ~), which is also the file the check's messages
// name.
type editFile struct{ path, shown string }

// draft is an edit of a table that is not saved: where it is kept, and why.
type draft struct {
	file editFile
	why  string
}

// editFileMsg: the text to edit is in path (kept: an earlier edit that
// was not saved), for the editor argv.
type editFileMsg struct {
	cluster, table string
	file           editFile
	kept           bool
	argv           []string
	err            error
}

// editedMsg: the editor ended (err: it could not run, or failed).
type editedMsg struct {
	cluster, table string
	file           editFile
	err            error
}

// checkedMsg is what the editor left, and whether it checks.
type checkedMsg struct {
	cluster, table string
	file           editFile
	text           string
	unchanged      bool
	invalid        error // it does not check: at file:line:col
	err            error // the file could not be read
}

// savedMsg is PutTable's answer.
type savedMsg struct {
	cluster, table string
	file           editFile
	change         api.TableChange
	err            error
}

// runEditor hands the terminal to the editor until it exits; tests run
// the editor without a terminal (export_test.go).
var runEditor = func(c *exec.Cmd, done func(error) tea.Msg) tea.Cmd {
	return tea.ExecProcess(c, done)
}

// editPath is where an edit of a table waits until it is saved:
// $XDG_STATE_HOME/palink/edits/CLUSTER/TABLE.sql, the user's own.
func editPath(cluster, table string) (string, error) {
	dir := os.Getenv("XDG_STATE_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		dir = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(dir, "palink", "edits", kit.FileSafe(cluster), kit.FileSafe(table)+".sql"), nil
}

// shownPath is a path as the view says it: the home directory as ~.
func shownPath(path string) string {
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		if rest, ok := strings.CutPrefix(path, home+string(filepath.Separator)); ok {
			return "~/" + rest
		}
	}
	return path
}

// editFileCmd puts the text to edit in the table's file: as an earlier
// edit left it, when one is kept there, else the table's DDL.
func editFileCmd(cluster, table, sql string) tea.Cmd {
	return func() tea.Msg {
		msg := editFileMsg{cluster: cluster, table: table, argv: kit.EditorArgv()}
		path, err := editPath(cluster, table)
		if err == nil {
			msg.file = editFile{path: path, shown: shownPath(path)}
			if _, err := os.Stat(path); err == nil {
				msg.kept = true
				return msg
			}
			if err = os.MkdirAll(filepath.Dir(path), 0o700); err == nil {
				err = os.WriteFile(path, []byte(strings.TrimRight(sql, "\n")+"\n"), 0o600)
			}
		}
		if err != nil {
			msg.err = fmt.Errorf("edit table %s in $EDITOR: %w", table, err)
		}
		return msg
	}
}

// editorCmd runs the editor on msg's file.
func editorCmd(msg editFileMsg) tea.Cmd {
	c := exec.Command(msg.argv[0], append(msg.argv[1:], msg.file.path)...)
	return runEditor(c, func(err error) tea.Msg {
		return editedMsg{cluster: msg.cluster, table: msg.table, file: msg.file, err: err}
	})
}

// checkCmd reads what the editor left in f and checks it as the catalog
// will: one CREATE TABLE of this name, valid for opts (the cluster's
// Flink); saved is the table's DDL, to tell an edit from none.
func checkCmd(cluster, table string, f editFile, saved string, opts flinksql.Options) tea.Cmd {
	return func() tea.Msg {
		msg := checkedMsg{cluster: cluster, table: table, file: f}
		b, err := os.ReadFile(f.path)
		if err != nil {
			msg.err = fmt.Errorf("edit table %s: read back what $EDITOR saved: %w", table, err)
			return msg
		}
		msg.text = strings.TrimRight(string(b), "\n")
		if strings.TrimSpace(msg.text) == strings.TrimSpace(saved) {
			msg.unchanged = true
			return msg
		}
		opts.File = f.shown
		if _, err := flinksql.ParseCatalogTable(table, msg.text, opts); err != nil {
			if !strings.HasPrefix(err.Error(), opts.File+":") {
				err = fmt.Errorf("%s: %w", opts.File, err) // a whole-statement error: the file, no position
			}
			msg.invalid = err
		}
		return msg
	}
}

// saveCmd stores the edit as the table's next version.
func saveCmd(c kit.Call[Service], cluster, table string, f editFile, sql string) tea.Cmd {
	return func() tea.Msg {
		var ch api.TableChange
		err := c.With(func(ctx context.Context) (err error) {
			ch, err = c.Service.PutTable(ctx, api.PutTableRequest{Cluster: cluster, Name: table, SQL: sql, Note: "edited in $EDITOR"})
			return err
		})
		if err != nil {
			err = fmt.Errorf("save table %s of cluster %s: %w", table, cluster, err)
		}
		return savedMsg{cluster: cluster, table: table, file: f, change: ch, err: err}
	}
}

// removeCmd removes an edit's file once it is saved or was no edit.
func removeCmd(path string) tea.Cmd {
	return func() tea.Msg {
		_ = os.Remove(path)
		return nil
	}
}

// checkOptions check a table for the release the cluster runs, when the
// config names it; the catalog itself checks for the newest.
func checkOptions(e *kit.Env, cluster string) flinksql.Options {
	var o flinksql.Options
	if s, ok := e.FlinkVersions[cluster]; ok {
		if v, err := builtin.ParseVersion(s); err == nil {
			o.Version, o.Target = v, "cluster "+cluster
		}
	}
	return o
}

// edit starts editing the cursor's table: in its kept draft, if any.
func (m *Screen) edit() tea.Cmd {
	t, ok := m.list.Selected()
	if !ok {
		return nil
	}
	return editFileCmd(m.cluster, t.Name, t.SQL)
}

// editMsg takes the messages of an edit's steps; ok is false for any other.
func (m *Screen) editMsg(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case editFileMsg:
		if msg.cluster != m.cluster {
			return nil, true
		}
		if msg.err != nil {
			return kit.Flash(kit.FlashError, msg.err.Error()), true
		}
		if msg.kept {
			if _, known := m.drafts[msg.table]; !known {
				// Kept by an earlier session: it opens as it was left.
				m.keep(msg.table, msg.file, "an earlier edit, not saved")
			}
		}
		return editorCmd(msg), true
	case editedMsg:
		if msg.cluster != m.cluster {
			return nil, true
		}
		if msg.err != nil {
			m.keep(msg.table, msg.file, "$EDITOR failed: "+msg.err.Error())
			return kit.Flash(kit.FlashError, fmt.Sprintf("edit table %s: $EDITOR failed, nothing saved: %v", msg.table, msg.err)), true
		}
		t, ok := m.table(msg.table)
		if !ok {
			m.keep(msg.table, msg.file, "the table is no longer in the catalog")
			return kit.Flash(kit.FlashError, fmt.Sprintf("edit table %s: it is no longer in the catalog of %s; the edit is kept in %s", msg.table, m.cluster, msg.file.shown)), true
		}
		return checkCmd(m.cluster, msg.table, msg.file, t.SQL, checkOptions(m.env, m.cluster)), true
	case checkedMsg:
		if msg.cluster != m.cluster {
			return nil, true
		}
		switch {
		case msg.err != nil:
			return kit.Flash(kit.FlashError, msg.err.Error()), true
		case msg.unchanged:
			delete(m.drafts, msg.table)
			return tea.Batch(removeCmd(msg.file.path), kit.Flash(kit.FlashInfo, "table "+msg.table+" unchanged: nothing saved")), true
		case msg.invalid != nil:
			m.keep(msg.table, msg.file, msg.invalid.Error())
			return kit.Flash(kit.FlashError, fmt.Sprintf("table %s not saved: %v — e edits it again", msg.table, msg.invalid)), true
		}
		// In sequence: the busy flash is up before the answer can replace it.
		return tea.Sequence(kit.Progress("save:"+msg.table, "saving table "+msg.table+"…"),
			saveCmd(call(m.env), m.cluster, msg.table, msg.file, msg.text)), true
	case savedMsg:
		if msg.cluster != m.cluster {
			return nil, true
		}
		if msg.err != nil {
			m.keep(msg.table, msg.file, msg.err.Error())
			return kit.FlashFor("save:"+msg.table, kit.FlashError, msg.err.Error()+" — the edit is kept: e edits it again"), true
		}
		delete(m.drafts, msg.table)
		return tea.Batch(removeCmd(msg.file.path), m.list.Refresh(),
			kit.FlashFor("save:"+msg.table, kit.FlashInfo, savedText(msg.change))), true
	}
	return nil, false
}

// keep remembers an edit that is not saved, and why.
func (m *Screen) keep(table string, f editFile, why string) {
	if m.drafts == nil {
		m.drafts = map[string]draft{}
	}
	m.drafts[table] = draft{file: f, why: why}
}

// table is the listed table called name.
func (m *Screen) table(name string) (model.CatalogTable, bool) {
	for _, t := range m.list.Items() {
		if t.Name == name {
			return t, true
		}
	}
	return model.CatalogTable{}, false
}

// savedText says what a save did: the version, and the jobs it changes.
func savedText(ch api.TableChange) string {
	s := fmt.Sprintf("saved table %s v%d", ch.Table.Name, ch.Table.Version)
	n := 0
	for _, u := range ch.Affected {
		if u.Changes {
			n++
		}
	}
	if n > 0 {
		s += fmt.Sprintf(" · %s take it at their next restart", kit.Plural(n, "job"))
	}
	return s
}
