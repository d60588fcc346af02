package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/palink/palink/core"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// seedFleet writes jobs jobs and commands commands (spread over the jobs,
// every state, errors and logs of several lines with < > & in them) into
// the store at db, with times whose ages do not change as the test runs.
// Without pending, no command is UNDO or DOING: nothing for a scheduler
// to run (and change) while the test reads.
func seedFleet(t *testing.T, db string, jobs, commands int, pending bool) {
	t.Helper()
	st, err := store.Open(db, store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Now()
	long := now.Add(-(100*24 + 12) * time.Hour)
	states := []model.JobState{model.StateRunning, model.StateFailed, model.StateFinished, model.StateKilled, model.StateDeploying}
	cstates := []model.CommandState{model.CmdSucceeded, model.CmdFailed, model.CmdSucceeded, model.CmdUndo, model.CmdDoing}
	if !pending {
		cstates = cstates[:3]
	}
	for start := 0; start < jobs; start += 200 {
		err := st.Update(context.Background(), func(tx store.Tx) error {
			for i := start; i < min(start+200, jobs); i++ {
				j := model.Job{ID: fmt.Sprintf("j%05d", i), Name: fmt.Sprintf("orders-%d", i), Kind: model.KindSQL, Cluster: "prod",
					SpecVersion: 1, State: states[i%len(states)], CreatedAt: long, UpdatedAt: long, PlatformRestarts: i % 3}
				switch i % 4 {
				case 0:
					j.Name = fmt.Sprintf("zürich-流-%d", i) // wider in bytes than in runes
				case 1:
					j.AppID, j.FlinkJobID = fmt.Sprintf("application_1700000000000_%04d", i), fmt.Sprintf("%032x", i)
				}
				if j.State == model.StateRunning {
					j.StartedAt = now.Add(-(5*60 + 30) * time.Minute)
					j.LatestCheckpoint = &model.RestorePoint{JobID: j.ID, Kind: model.Checkpoint, Path: fmt.Sprintf("hdfs:///ck/%s/chk-%d", j.ID, i),
						Time: now.Add(-(30*60 + 30) * time.Second)}
				}
				if err := tx.CreateJob(j); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for start := 0; start < commands; start += 200 {
		err := st.Update(context.Background(), func(tx store.Tx) error {
			for i := start; i < min(start+200, commands); i++ {
				c := model.Command{JobID: fmt.Sprintf("j%05d", (i*7)%jobs), Kind: model.CmdSavepoint, State: cstates[i%len(cstates)],
					Issuer: "ops", CreatedAt: long, Params: model.CommandParams{Restore: model.RestoreLatest}}
				if c.State.Final() {
					c.EndedAt = long.Add(time.Minute)
				}
				switch i % 3 {
				case 0:
					c.Error = "trigger savepoint: jobmanager <unavailable> & more\n\tat line 2"
				case 1:
					c.Log = []model.LogLine{{Time: long, Text: "savepoint at hdfs:///sp/" + fmt.Sprint(i)}}
				}
				if _, err := tx.PutCommand(c); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// oldJobsTable and oldCommandsTable are the tables as palink wrote them
// before it wrote them a page at a time: text/tabwriter over the whole list.
func oldJobsTable(w io.Writer, wide bool, jobs []api.JobView) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	if wide {
		fmt.Fprintln(tw, "ID\tNAME\tKIND\tCLUSTER\tSTATE\tAPP\tFLINK JOB\tUP\tCKPT\tRESTARTS\tPENDING\tDRIFT")
	} else {
		fmt.Fprintln(tw, "NAME\tKIND\tCLUSTER\tSTATE\tAPP\tUP\tCKPT")
	}
	for _, j := range jobs {
		up := "-"
		if j.State == model.StateRunning && !j.StartedAt.IsZero() {
			up = since(j.StartedAt)
		}
		ckpt := "-"
		if j.LatestCheckpoint != nil {
			ckpt = since(j.LatestCheckpoint.Time)
		}
		if wide {
			pending, drift := "-", "-"
			if j.Pending != nil {
				pending = fmt.Sprintf("%s #%d %s", j.Pending.Kind, j.Pending.Seq, j.Pending.State)
			}
			if j.Drift != nil {
				drift = fmt.Sprintf("expected %s, saw %s", j.Drift.Expected, j.Drift.Observed)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\n", j.ID, j.Name, j.Kind, j.Cluster, j.State, dash(j.AppID),
				dash(j.FlinkJobID), up, ckpt, j.PlatformRestarts, pending, drift)
		} else {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", j.Name, j.Kind, j.Cluster, j.State, dash(j.AppID), up, ckpt)
		}
	}
	tw.Flush()
}

func oldCommandsTable(w io.Writer, wide bool, cs []model.Command, names map[string]string) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	if wide {
		fmt.Fprintln(tw, "#\tID\tKIND\tJOB\tJOB ID\tSTATE\tBY\tCREATED\tENDED\tRESULT")
	} else {
		fmt.Fprintln(tw, "#\tKIND\tJOB\tSTATE\tBY\tAGE\tRESULT")
	}
	for _, c := range cs {
		result := c.Error
		if result == "" && len(c.Log) > 0 {
			result = c.Log[len(c.Log)-1].Text
		}
		name := names[c.JobID]
		if name == "" {
			name = c.JobID
		}
		if wide {
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", c.Seq, c.ID, c.Kind, name, c.JobID, c.State, c.Issuer,
				stamp(c.CreatedAt), stamp(c.EndedAt), firstLine(result))
			continue
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", c.Seq, c.Kind, name, c.State, c.Issuer, since(c.CreatedAt), firstLine(result))
	}
	tw.Flush()
}

// wholeLists is what `palink jobs` and `palink commands` wrote before they
// wrote a page at a time, for each invocation of the test: the whole list
// read at once, written at once.
func wholeLists(t *testing.T, db string, runs [][]string) map[string]string {
	t.Helper()
	ctx := context.Background()
	l, err := core.Open(db, core.Options{User: "ops"})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	all, err := l.ListJobs(ctx, api.JobFilter{})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{}
	for _, j := range all {
		names[j.ID] = j.Name
	}
	out := map[string]string{}
	for _, args := range runs {
		format := args[len(args)-1]
		var b bytes.Buffer
		switch args[0] {
		case "jobs":
			f := api.JobFilter{}
			if len(args) > 3 {
				f.States = []model.JobState{model.StateRunning}
			}
			js, err := l.ListJobs(ctx, f)
			if err != nil {
				t.Fatal(err)
			}
			if format == outJSON || format == outYAML {
				records := make([]model.Job, len(js))
				for i, j := range js {
					records[i] = j.Job
				}
				if err := writeData(&b, format, records); err != nil {
					t.Fatal(err)
				}
			} else {
				oldJobsTable(&b, format == outWide, js)
			}
		case "commands":
			f := api.CommandFilter{}
			switch {
			case len(args) > 3 && args[1] == "--limit":
				f.Limit = 700
			case len(args) > 3 && args[1] == "--job":
				f.JobRef = args[2]
			case len(args) > 3:
				f.States = []model.CommandState{model.CmdFailed}
			}
			cs, err := l.Commands(ctx, f)
			if err != nil {
				t.Fatal(err)
			}
			if format == outJSON || format == outYAML {
				if err := writeData(&b, format, cs); err != nil {
					t.Fatal(err)
				}
			} else {
				oldCommandsTable(&b, format == outWide, cs, names)
			}
		}
		out[strings.Join(args, " ")] = b.String()
	}
	return out
}

// TestListsStreamTheBytesOfTheWholeList: `palink jobs` and `palink
// commands` read and write their lists a page at a time (500 to a page),
// in process and through the agent, and write the very bytes palink wrote
// when it read the whole list and wrote it at once: JSON, YAML and the
// tables alike, filtered or not, over 1,300 jobs and 1,700 commands.
func TestListsStreamTheBytesOfTheWholeList(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a store of 3,000 records")
	}
	var runs [][]string
	for _, format := range []string{outJSON, outYAML, outTable, outWide} {
		runs = append(runs, []string{"jobs", "-o", format}, []string{"jobs", "--state", "RUNNING", "-o", format},
			[]string{"commands", "-o", format}, []string{"commands", "--limit", "700", "-o", format},
			[]string{"commands", "--job", "orders-5", "-o", format}, []string{"commands", "--state", "FAILED", "-o", format})
	}
	fleet := func(pending bool) (*cliEnv, map[string]string) {
		config, db := storeConfig(t, t.TempDir())
		seedFleet(t, db, 1300, 1700, pending)
		want := wholeLists(t, db, runs)
		want["jobs --cluster elsewhere -o json"], want["jobs --cluster elsewhere -o yaml"] = "[]\n", "[]\n"
		return &cliEnv{t: t, config: config}, want
	}
	all := append(runs, []string{"jobs", "--cluster", "elsewhere", "-o", outJSON}, []string{"jobs", "--cluster", "elsewhere", "-o", outYAML})
	check := func(how string, e *cliEnv, want map[string]string) {
		t.Helper()
		for _, args := range all {
			got := e.mustRun(args...)
			if w := want[strings.Join(args, " ")]; got != w {
				gl, wl := strings.Split(got, "\n"), strings.Split(w, "\n")
				for i := range min(len(gl), len(wl)) {
					if gl[i] != wl[i] {
						t.Fatalf("%s: palink %s: line %d is\n%q\nwant\n%q", how, strings.Join(args, " "), i+1, gl[i], wl[i])
					}
				}
				t.Fatalf("%s: palink %s: %d lines, want %d", how, strings.Join(args, " "), len(gl), len(wl))
			}
		}
	}
	e, want := fleet(true)
	check("in process", e, want)

	// The agent runs the scheduler: a fleet with no command for it to run.
	e, want = fleet(false)
	ctx, cancel := context.WithCancel(context.Background())
	agentDone := make(chan error, 1)
	go func() { _, err := e.run(ctx, "agent"); agentDone <- err }()
	defer func() { cancel(); <-agentDone }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if out, err := e.run(context.Background(), "agent", "status"); err == nil && strings.Contains(out, "leader: ") && !strings.Contains(out, "leader: none") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the agent did not start")
		}
		time.Sleep(100 * time.Millisecond)
	}
	check("through the agent", e, want)
}

// TestListsAreWrittenAsTheyAreRead: each page of a list is written out
// before the next is asked for, in every format, so that palink holds one
// page at a time; the table reads its pages twice (it measures its columns
// first), and writes nothing before the second pass.
func TestListsAreWrittenAsTheyAreRead(t *testing.T) {
	const pages = 3
	for _, format := range []string{outJSON, outYAML, outTable, outWide} {
		var out bytes.Buffer
		asked := 0
		list := paged(func(p api.Page) ([]model.Command, string, error) {
			n := asked % pages
			asked++
			if format == outTable || format == outWide {
				if asked <= pages && out.Len() > 0 {
					t.Errorf("%s: the table wrote before it measured its columns", format)
				}
			} else if n > 0 && !strings.Contains(out.String(), fmt.Sprintf("c%02d-", n-1)) {
				t.Errorf("%s: page %d asked for before page %d was written; written so far:\n%s", format, n, n-1, out.String())
			}
			next := ""
			if n < pages-1 {
				next = fmt.Sprintf("c%02d", n+1)
			}
			return []model.Command{{ID: fmt.Sprintf("c%02d-x", n), Seq: int64(n + 1), JobID: "j1", Kind: model.CmdSavepoint, State: model.CmdSucceeded}}, next, nil
		})
		if err := printCommandList(&out, format, list, map[string]string{"j1": "orders"}); err != nil {
			t.Fatal(err)
		}
		last := fmt.Sprintf("c%02d-x", pages-1)
		if format == outTable {
			last = fmt.Sprintf("\n%d  SAVEPOINT", pages) // the narrow table shows no id
		}
		if !strings.Contains(out.String(), last) {
			t.Errorf("%s: the last page is missing:\n%s", format, out.String())
		}
	}
}
