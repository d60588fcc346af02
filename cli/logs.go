package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/spf13/cobra"
)

// logFollowEvery is how often `palink logs -f` asks for new bytes.
const logFollowEvery = 2 * time.Second

func newLogsCmd(g *globals) *cobra.Command {
	var (
		tail             int
		tailBytes, since string
		all, follow      bool
		grep, save       string
		errorsOnly       bool
		maxMatches       int
	)
	cmd := &cobra.Command{
		Use:               "logs JOB [LOG]",
		ValidArgsFunction: completeLogs(g),
		Short:             "List a job's logs, or print, follow, search or save one",
		Long: "Without LOG, lists the logs of the job's application: the JobManager's and each\n" +
			"TaskManager's (read through Flink's REST API) and the YARN containers' log pages.\n\n" +
			"LOG names one: jobmanager (or jm), jm:stdout, jm:FILE, or a TaskManager id as listed,\n" +
			"ID:stdout or ID:FILE; or a YARN container's log file, yarn:CONTAINER:FILE (as\n" +
			"`palink job container-logs` lists them), which outlives the application. It is read in\n" +
			"chunks of at most 1 MiB, whatever its size.\n\n" +
			"Without --tail, --tail-bytes, --since or --all it prints the log's last 64 KiB, from a\n" +
			"line start. --grep and --errors print each matching line once with its line number, as\n" +
			"grep -n does (-o json adds each line's byte offset).",
		Example: "  palink logs orders-enrich\n" +
			"  palink logs orders-enrich jm --tail 200\n" +
			"  palink logs orders-enrich jm --since 5m\n" +
			"  palink logs orders-enrich jm --grep timeout -o json\n" +
			"  palink logs orders-enrich container_e01_1732_0042_01_000002 -f\n" +
			"  palink logs orders-enrich jm --errors\n" +
			"  palink logs orders-enrich jm --save jm.log",
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return g.withEnv(cmd, func(ctx context.Context, e *env) error {
				w := cmd.OutOrStdout()
				if len(args) == 1 {
					return listLogs(ctx, e, w, args[0], g.output)
				}
				ref, err := parseLogRef(args[1])
				if err != nil {
					return err
				}
				job := args[0]
				switch {
				case save != "":
					s, err := e.svc.SaveLog(ctx, api.SaveLogRequest{JobRef: job, Log: ref, Path: save})
					if err != nil {
						return err
					}
					fmt.Fprintf(w, "saved %s (%d bytes) to %s\n", args[1], s.Bytes, s.Path)
					return nil
				case grep != "" || errorsOnly:
					return grepLog(ctx, e, w, cmd.ErrOrStderr(), job, ref, api.LogQuery{Text: grep, Errors: errorsOnly}, maxMatches, g.output)
				}
				from, err := logStart(ctx, e, job, ref, logWindow{lines: tail, bytes: tailBytes, since: since, all: all})
				if err != nil {
					return err
				}
				return printLog(ctx, e, w, job, ref, from, follow)
			})
		},
	}
	f := cmd.Flags()
	f.IntVar(&tail, "tail", -1, "print the log's last N lines (as tail -n and kubectl logs --tail)")
	f.StringVar(&tailBytes, "tail-bytes", "", "print the log's last bytes (k, m suffixes), from a line start")
	f.StringVar(&since, "since", "", "print the lines of the log's last duration (30s, 5m, 2h), by its timestamps")
	f.BoolVar(&all, "all", false, "print the whole log, chunk by chunk")
	f.BoolVarP(&follow, "follow", "f", false, "then keep printing what the log gains, until interrupted")
	f.StringVar(&grep, "grep", "", "print the lines that contain this text (ignoring case unless it has capitals), with their line numbers")
	f.BoolVar(&errorsOnly, "errors", false, "print the lines that report a failure (ERROR, FATAL, exception class names)")
	f.IntVar(&maxMatches, "max", 100, "stop --grep and --errors after this many matching lines")
	f.StringVar(&save, "save", "", "copy the whole log into this new file")
	return cmd
}

func listLogs(ctx context.Context, e *env, w io.Writer, job string, format string) error {
	l, err := e.svc.Logs(ctx, job)
	if err != nil {
		return err
	}
	if format == outJSON || format == outYAML {
		return writeData(w, format, l)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "LOG\tSIZE\tWHAT")
	for _, s := range l.Sources {
		switch s.Kind {
		case api.LogContainer:
			fmt.Fprintf(tw, "%s\t-\t%s\n", s.URL, s.Title)
		default:
			size := "-"
			if s.Size >= 0 {
				size = strconv.FormatInt(s.Size, 10)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\n", formatLogRef(s.Ref), size, s.Title)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if l.FlinkError != "" {
		fmt.Fprintf(w, "\nnote: %s\n", l.FlinkError)
	}
	return nil
}

// parseLogRef reads a LOG argument: jm, jm:stdout, jm:FILE, ID, ID:stdout,
// ID:FILE, or yarn:CONTAINER:FILE.
func parseLogRef(s string) (api.LogRef, error) {
	var r api.LogRef
	if rest, ok := strings.CutPrefix(s, "yarn:"); ok {
		c, file, ok := strings.Cut(rest, ":")
		if !ok || c == "" || file == "" {
			return r, fmt.Errorf("log %q: a container log is yarn:CONTAINER:FILE; `palink job container-logs JOB` lists them", s)
		}
		r.Container, r.Name = c, file
		return r, nil
	}
	who, what, _ := strings.Cut(s, ":")
	switch who {
	case "":
		return r, fmt.Errorf("log %q: name jobmanager (jm) or a TaskManager id; `palink logs JOB` lists them", s)
	case "jm", "jobmanager":
	default:
		r.TaskManager = who
	}
	switch what {
	case "", "log":
	case "stdout":
		r.Stdout = true
	default:
		r.Name = what
	}
	return r, nil
}

func formatLogRef(r api.LogRef) string {
	if r.Container != "" {
		return "yarn:" + r.Container + ":" + r.Name
	}
	who := "jm"
	if r.TaskManager != "" {
		who = r.TaskManager
	}
	switch {
	case r.Stdout:
		return who + ":stdout"
	case r.Name != "":
		return who + ":" + r.Name
	}
	return who
}

// parseSize reads a byte count with an optional k or m suffix (binary).
func parseSize(s string) (int64, error) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(strings.ToLower(s), "k"):
		mult, s = 1<<10, s[:len(s)-1]
	case strings.HasSuffix(strings.ToLower(s), "m"):
		mult, s = 1<<20, s[:len(s)-1]
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%q is not a size (like 4096, 64k or 2m)", s)
	}
	return n * mult, nil
}

// printLog prints the log from off (a line start), then follows it when
// asked. Memory holds one chunk at a time.
func printLog(ctx context.Context, e *env, w io.Writer, job string, ref api.LogRef, off int64, follow bool) error {
	for {
		ch, err := e.svc.ReadLog(ctx, api.LogRequest{JobRef: job, Log: ref, Offset: off, Limit: api.MaxLogChunk})
		if err != nil {
			if follow && ctx.Err() != nil {
				return nil // interrupted
			}
			return err
		}
		if ch.Size >= 0 && ch.Size < off {
			fmt.Fprintf(w, "\n[palink: the log shrank to %d bytes (rotated?); following from its start]\n", ch.Size)
			off = 0
			continue
		}
		if _, err := w.Write(ch.Data); err != nil {
			return err
		}
		off += int64(len(ch.Data))
		if len(ch.Data) > 0 && ch.More {
			continue
		}
		if !follow {
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(logFollowEvery):
		}
	}
}

// grepMatch is one line `palink logs --grep -o json` prints.
type grepMatch struct {
	// Line is the line's number, from 1.
	Line int64
	// Offset is where the line starts in the file, in bytes.
	Offset int64
	Text   string
}

// grepLog prints each matching line once with its number, as grep -n does,
// one FindInLog scan after another; -o json adds the byte offsets.
func grepLog(ctx context.Context, e *env, w, errW io.Writer, job string, ref api.LogRef, q api.LogQuery, limit int, format string) error {
	structured := format == outJSON || format == outYAML
	s := api.LogSearch{JobRef: job, Log: ref, Query: q}
	line := int64(1) // the number of the first line at or after s.From
	matches := []grepMatch{}
	stopped := true
	for len(matches) < limit {
		m, err := e.svc.FindInLog(ctx, s)
		if err != nil {
			return err
		}
		line += m.Lines
		if m.Exhausted {
			stopped = false
			break
		}
		if !m.Found {
			s.From = m.Next
			continue
		}
		g := grepMatch{Line: line, Offset: m.Offset, Text: m.Line}
		if !structured {
			fmt.Fprintf(w, "%d:%s\n", g.Line, g.Text)
		}
		matches = append(matches, g)
		line++
		s.From = m.Offset + 1 // the scan skips the rest of this line
	}
	switch {
	case len(matches) == 0:
		return errors.New("no line matches")
	case structured:
		if err := writeData(w, format, matches); err != nil {
			return err
		}
	}
	if stopped {
		note := fmt.Sprintf("[palink: stopped after %s; --max raises the limit]", plural(limit, "matching line"))
		if structured {
			fmt.Fprintln(errW, note)
		} else {
			fmt.Fprintln(w, note)
		}
	}
	return nil
}
