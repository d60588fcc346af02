package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/palink/palink/core/api"
)

// debugOn runs a debug run on a cluster's SQL Gateway (--on), with the
// request's samples, limit and stand-ins.
func debugOn(cmd *cobra.Command, g *globals, cluster string, req api.DebugRequest) (api.RemoteDebugResult, error) {
	var res api.RemoteDebugResult
	err := g.withEnv(cmd, func(ctx context.Context, e *env) (err error) {
		dataDir := ""
		if e.cfg != nil {
			if c, ok := e.cfg.Cluster(cluster); ok {
				dataDir = c.Debug.DataDir
			}
		}
		data, note, err := placeSamples(req.Data, dataDir)
		if err != nil {
			return err
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "note: %s\n", note)
		res, err = e.svc.DebugOnCluster(ctx, api.RemoteDebugRequest{Cluster: cluster, SQL: req.SQL, File: req.File,
			Data: data, Limit: req.Limit, StandIns: req.StandIns})
		return err
	})
	for _, n := range res.Notes {
		fmt.Fprintf(cmd.ErrOrStderr(), "note: %s\n", n)
	}
	return res, err
}

// placeSamples puts the run's samples where the cluster reads them: copied
// into dataDir (the cluster's debug.data_dir, a directory it shares with
// this host), each run in a directory of its own, by this process, as the
// user who runs it; without one, the cluster reads them at their absolute
// paths here.
func placeSamples(data map[string]string, dataDir string) (map[string]string, string, error) {
	out := make(map[string]string, len(data))
	if dataDir == "" {
		for t, f := range data {
			abs, err := filepath.Abs(f)
			if err != nil {
				return nil, "", err
			}
			out[t] = abs
		}
		return out, "the cluster reads the samples at their paths on this host (set the cluster's debug.data_dir to a directory it shares)", nil
	}
	dir, err := os.MkdirTemp(strings.TrimPrefix(dataDir, "file://"), "palink-debug-")
	if err != nil {
		return nil, "", fmt.Errorf("debug --on: copy the samples to debug.data_dir: %w", err)
	}
	for t, f := range data {
		dst := filepath.Join(dir, fileSafe(t)+filepath.Ext(f))
		if err := copySample(f, dst); err != nil {
			return nil, "", fmt.Errorf("debug --on: copy the sample of %s to debug.data_dir: %w", t, err)
		}
		out[t] = dst
	}
	return out, "the samples were copied to " + dir, nil
}

func copySample(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// printRemote prints what each sink's query gave on the cluster: as tables
// (an updating sink's changelog, then its final table), or, with -o json,
// the local run's document: per sink its columns, rows and changelog.
func printRemote(cmd *cobra.Command, g *globals, r api.RemoteDebugResult) error {
	w := cmd.OutOrStdout()
	if g.output == outJSON || g.output == outJSONL {
		return writeRemoteJSON(w, r, g.output == outJSONL)
	}
	for i, s := range r.Sinks {
		if i > 0 {
			fmt.Fprintln(w)
		}
		more := ""
		if s.Truncated {
			more = ", cancelled at the limit"
		}
		if updating(s) {
			fmt.Fprintf(w, "%s on %s: changelog, %s%s\n", s.Name, r.Cluster, plural(len(s.Changes), "change"), more)
			rows := make([][]string, len(s.Changes))
			for j, c := range s.Changes {
				rows[j] = append([]string{c.Kind}, cells(c.Values)...)
			}
			writeCells(w, append([]string{"op"}, columnNames(s.Columns)...), rows)
			fmt.Fprintf(w, "\n%s on %s: final table, %s\n", s.Name, r.Cluster, plural(len(s.Final), "row"))
		} else {
			fmt.Fprintf(w, "%s on %s: %s%s\n", s.Name, r.Cluster, plural(len(s.Final), "row"), more)
		}
		rows := make([][]string, len(s.Final))
		for j, f := range s.Final {
			rows[j] = cells(f)
		}
		writeCells(w, columnNames(s.Columns), rows)
	}
	return nil
}

// writeRemoteJSON writes the run's document, or its changes as JSON lines.
func writeRemoteJSON(w io.Writer, r api.RemoteDebugResult, lines bool) error {
	obj := func(names []string, vals []json.RawMessage, kind string) string {
		var b strings.Builder
		b.WriteByte('{')
		if kind != "" {
			fmt.Fprintf(&b, `"op":%q`, kind)
		}
		for i, n := range names {
			if i > 0 || kind != "" {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(n)
			b.Write(k)
			b.WriteByte(':')
			if i < len(vals) {
				b.Write(vals[i])
			} else {
				b.WriteString("null")
			}
		}
		b.WriteByte('}')
		return b.String()
	}
	if lines {
		for _, s := range r.Sinks {
			names := columnNames(s.Columns)
			for _, c := range s.Changes {
				line := obj(names, c.Values, c.Kind)
				if _, err := fmt.Fprintf(w, `{"sink":%q,%s`+"\n", s.Name, line[1:]); err != nil {
					return err
				}
			}
		}
		return nil
	}
	type column struct {
		Name string `json:"name"`
		Type string `json:"type"`
	}
	type sink struct {
		Name      string            `json:"name"`
		Columns   []column          `json:"columns"`
		Rows      []json.RawMessage `json:"rows"`
		Changelog []json.RawMessage `json:"changelog,omitempty"`
		Truncated bool              `json:"cancelled_at_limit,omitempty"`
		JobID     string            `json:"job_id,omitempty"`
	}
	doc := struct {
		Cluster string   `json:"cluster"`
		Sinks   []sink   `json:"sinks"`
		Notes   []string `json:"notes"`
	}{Cluster: r.Cluster, Sinks: []sink{}, Notes: r.Notes}
	for _, s := range r.Sinks {
		names := columnNames(s.Columns)
		out := sink{Name: s.Name, Rows: []json.RawMessage{}, Truncated: s.Truncated, JobID: s.JobID}
		for _, c := range s.Columns {
			out.Columns = append(out.Columns, column{Name: c.Name, Type: c.Type})
		}
		for _, f := range s.Final {
			out.Rows = append(out.Rows, json.RawMessage(obj(names, f, "")))
		}
		if updating(s) {
			for _, c := range s.Changes {
				out.Changelog = append(out.Changelog, json.RawMessage(obj(names, c.Values, c.Kind)))
			}
		}
		doc.Sinks = append(doc.Sinks, out)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

func updating(s api.RemoteSink) bool {
	return slices.ContainsFunc(s.Changes, func(c api.RemoteChange) bool { return c.Kind != "+I" })
}

func columnNames(cols []api.DebugColumn) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.Name
	}
	return out
}

// cells are JSON values as the SQL client prints them: strings without
// their quotes, null as NULL.
func cells(vals []json.RawMessage) []string {
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = cellOf(v)
	}
	return out
}

func cellOf(v json.RawMessage) string {
	s := strings.TrimSpace(string(v))
	switch {
	case s == "null" || s == "":
		return "NULL"
	case s == "true" || s == "false":
		return strings.ToUpper(s)
	case strings.HasPrefix(s, `"`):
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
	}
	return s
}

// writeCells writes an aligned table.
func writeCells(w io.Writer, header []string, rows [][]string) {
	widths := make([]int, len(header))
	for i, h := range header {
		widths[i] = len([]rune(h))
	}
	for _, r := range rows {
		for i, c := range r {
			if i < len(widths) {
				widths[i] = max(widths[i], len([]rune(c)))
			}
		}
	}
	line := func(cs []string) {
		var b strings.Builder
		for i, c := range cs {
			if i > 0 {
				b.WriteString(" | ")
			}
			b.WriteString(c)
			if i < len(cs)-1 && i < len(widths) {
				b.WriteString(strings.Repeat(" ", widths[i]-len([]rune(c))))
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
	line(header)
	rule := make([]string, len(header))
	for i := range header {
		rule[i] = strings.Repeat("-", widths[i])
	}
	line(rule)
	for _, r := range rows {
		line(r)
	}
}

// compareRuns says, sink by sink, whether the run here and the one on the
// cluster left the same final table (rows compared as values, in any
// order), and fails when one differs.
func compareRuns(cmd *cobra.Command, fin api.DebugEvent, remote api.RemoteDebugResult) error {
	var doc bytes.Buffer
	if err := fin.Output.WriteJSON(&doc); err != nil {
		return err
	}
	var here struct {
		Sinks []struct {
			Name    string
			Columns []api.DebugColumn
			Rows    []json.RawMessage
		}
	}
	if err := json.Unmarshal(doc.Bytes(), &here); err != nil {
		return fmt.Errorf("debug --compare: read the run here: %w", err)
	}
	w := cmd.OutOrStdout()
	differ := 0
	seen := map[string]bool{}
	for _, hs := range here.Sinks {
		key := sinkKey(hs.Name)
		seen[key] = true
		var rs *api.RemoteSink
		for i := range remote.Sinks {
			if sinkKey(remote.Sinks[i].Name) == key {
				rs = &remote.Sinks[i]
			}
		}
		if rs == nil {
			differ++
			fmt.Fprintf(w, "%s: ran here only (%s); %s gave no such sink\n", hs.Name, plural(len(hs.Rows), "row"), remote.Cluster)
			continue
		}
		mine := map[string]int{}
		for _, row := range hs.Rows {
			mine[canonicalRow(row, hs.Columns)]++
		}
		theirs := map[string]int{}
		for _, f := range rs.Final {
			theirs[canonicalValues(f)]++
		}
		onlyHere, onlyThere := diffCounts(mine, theirs), diffCounts(theirs, mine)
		if len(onlyHere) == 0 && len(onlyThere) == 0 {
			fmt.Fprintf(w, "%s: the same final table here and on %s (%s)\n", hs.Name, remote.Cluster, plural(len(hs.Rows), "row"))
			continue
		}
		differ++
		fmt.Fprintf(w, "%s: the final tables differ: %s only here, %s only on %s\n", hs.Name,
			plural(len(onlyHere), "row"), plural(len(onlyThere), "row"), remote.Cluster)
		for _, r := range onlyHere {
			fmt.Fprintf(w, "  here only:  %s\n", r)
		}
		for _, r := range onlyThere {
			fmt.Fprintf(w, "  %s only: %s\n", remote.Cluster, r)
		}
	}
	for _, rs := range remote.Sinks {
		if !seen[sinkKey(rs.Name)] {
			differ++
			fmt.Fprintf(w, "%s: ran on %s only (%s)\n", rs.Name, remote.Cluster, plural(len(rs.Final), "row"))
		}
	}
	if differ > 0 {
		return exitError{code: 1, msg: fmt.Sprintf("debug --compare: %s differ between here and %s", plural(differ, "sink"), remote.Cluster)}
	}
	return nil
}

func sinkKey(name string) string {
	return strings.ToLower(strings.ReplaceAll(name, "`", ""))
}

// canonicalRow is a row object of the run here as the values in its
// columns' order, each as canonicalValues writes them.
func canonicalRow(row json.RawMessage, cols []api.DebugColumn) string {
	dec := json.NewDecoder(bytes.NewReader(row))
	dec.UseNumber()
	var m map[string]json.RawMessage
	if err := dec.Decode(&m); err != nil {
		return string(row)
	}
	vals := make([]json.RawMessage, len(cols))
	for i, c := range cols {
		vals[i] = m[c.Name]
	}
	return canonicalValues(vals)
}

// canonicalValues writes values as one JSON array, each value compact.
func canonicalValues(vals []json.RawMessage) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		var b bytes.Buffer
		if len(v) == 0 || json.Compact(&b, v) != nil {
			parts[i] = "null"
			continue
		}
		parts[i] = b.String()
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// diffCounts are the rows a has more often than b.
func diffCounts(a, b map[string]int) []string {
	var out []string
	for k, n := range a {
		for range n - b[k] {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}
