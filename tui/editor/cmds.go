package editor

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/kit"
)

// The SQL editor's messages and Cmds. As everywhere in the TUI, a Cmd
// captures values and never the editor.

type specsLoadedMsg struct {
	jobID string
	seq   int
	specs []model.Spec
	err   error
}

type specSavedMsg struct {
	jobID string
	seq   int
	spec  model.Spec
	err   error
}

// validateTickMsg ends a pause in typing; validatedMsg carries the result.
type validateTickMsg struct{ id, version int }

type validatedMsg struct {
	id, version int
	res         flinksql.Result
	in          flinksql.Injection
}

// editorFileMsg: the text was written to path for $EDITOR (argv). trimNL
// says the text had no final newline, so the one an editor adds goes.
type editorFileMsg struct {
	id     int
	path   string
	argv   []string
	trimNL bool
	err    error
}

// editorExitedMsg: $EDITOR ended.
type editorExitedMsg struct {
	id     int
	path   string
	trimNL bool
	err    error
}

// editorReloadMsg carries the text $EDITOR left.
type editorReloadMsg struct {
	id   int
	text string
	err  error
}

// versionOpenMsg asks the job's editor to take a saved version's text.
type versionOpenMsg struct {
	jobID string
	spec  model.Spec
}

// gatewayVersionMsg is the Flink release a cluster's SQL Gateway runs;
// empty when it did not say.
type gatewayVersionMsg struct {
	id               int
	cluster, version string
}

// gatewayVersionCmd asks the cluster's SQL Gateway which Flink it runs,
// for a cluster whose config names no release; a gateway that does not
// answer leaves the newest.
func gatewayVersionCmd(c kit.Call[Service], id int, cluster string) tea.Cmd {
	return func() tea.Msg {
		var v string
		_ = c.With(func(ctx context.Context) (err error) {
			v, err = c.Service.FlinkVersion(ctx, cluster)
			return err
		})
		return gatewayVersionMsg{id: id, cluster: cluster, version: v}
	}
}

func loadSpecsCmd(c kit.Call[Service], jobID string, seq int) tea.Cmd {
	return func() tea.Msg {
		var specs []model.Spec
		err := c.With(func(ctx context.Context) (err error) {
			specs, err = c.Service.Specs(ctx, jobID)
			return err
		})
		if err != nil {
			err = fmt.Errorf("load SQL versions of %s: %w", jobID, err)
		}
		return specsLoadedMsg{jobID: jobID, seq: seq, specs: specs, err: err}
	}
}

func saveSpecCmd(c kit.Call[Service], jobID, name string, s model.Spec, seq int) tea.Cmd {
	return func() tea.Msg {
		var saved model.Spec
		err := c.With(func(ctx context.Context) (err error) {
			saved, err = c.Service.SaveSpec(ctx, jobID, s)
			return err
		})
		if err != nil {
			err = fmt.Errorf("save SQL of %s: %w", name, err)
		}
		return specSavedMsg{jobID: jobID, seq: seq, spec: saved, err: err}
	}
}

// validateCmd parses and validates the text: a few milliseconds for a few
// hundred lines, never on the event loop. With the cluster's assets, the
// catalog tables the text uses are injected and its ${variables} known,
// as a deploy would have them.
func validateCmd(id, version int, text string, opts flinksql.Options, assets *flinksql.Assets) tea.Cmd {
	return func() tea.Msg {
		if assets == nil {
			return validatedMsg{id: id, version: version, res: flinksql.Check(text, opts)}
		}
		res, in := flinksql.CheckWithAssets(text, opts, *assets)
		return validatedMsg{id: id, version: version, res: res, in: in}
	}
}

// writeEditorFileCmd writes the text to a temporary .sql file for $EDITOR.
func writeEditorFileCmd(id int, name, text string) tea.Cmd {
	return func() tea.Msg {
		f, err := os.CreateTemp("", "palink-"+kit.FileSafe(name)+"-*.sql")
		if err != nil {
			return editorFileMsg{id: id, err: fmt.Errorf("open %s in $EDITOR: %w", name, err)}
		}
		_, err = f.WriteString(text)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(f.Name())
			return editorFileMsg{id: id, err: fmt.Errorf("open %s in $EDITOR: %w", name, err)}
		}
		return editorFileMsg{id: id, path: f.Name(), argv: kit.EditorArgv(), trimNL: !strings.HasSuffix(text, "\n")}
	}
}

// runEditorCmd hands the terminal to the editor until it exits.
func runEditorCmd(msg editorFileMsg) tea.Cmd {
	c := exec.Command(msg.argv[0], append(msg.argv[1:], msg.path)...)
	return tea.ExecProcess(c, func(err error) tea.Msg {
		return editorExitedMsg{id: msg.id, path: msg.path, trimNL: msg.trimNL, err: err}
	})
}

// readEditedCmd reads back what the editor saved and removes the file.
func readEditedCmd(msg editorExitedMsg) tea.Cmd {
	return func() tea.Msg {
		defer os.Remove(msg.path)
		if msg.err != nil {
			return editorReloadMsg{id: msg.id, err: fmt.Errorf("$EDITOR failed, the text is unchanged: %w", msg.err)}
		}
		b, err := os.ReadFile(msg.path)
		if err != nil {
			return editorReloadMsg{id: msg.id, err: fmt.Errorf("read back the text from $EDITOR: %w", err)}
		}
		text := string(b)
		if msg.trimNL {
			text = strings.TrimSuffix(text, "\n")
		}
		return editorReloadMsg{id: msg.id, text: text}
	}
}
