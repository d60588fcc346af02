package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/palink/palink/core"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui"
	"github.com/palink/palink/yarn/sim"
)

func newDemoCmd(g *globals) *cobra.Command {
	var (
		f     simFlags
		jobs  int
		noTUI bool
	)
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Open palink on a simulated cluster with a fleet of jobs (nothing to set up)",
		Long: "Starts a simulated YARN + Flink + SQL Gateway cluster in this process, creates a few dozen\n" +
			"SQL jobs and deploys them, then opens the UI. Some jobs get paused, killed or fail, so every\n" +
			"state is on screen. The demo keeps its state in a throwaway store, never in yours.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, cancel := signalContext(cmd.Context())
			defer cancel()
			c, cfg, stop, err := startSim(ctx, f)
			if err != nil {
				return err
			}
			defer stop()
			g.dbPath, g.throwaway = cfg.Store, true
			e, err := g.openEnvWith(ctx, cfg)
			if err != nil {
				return err
			}
			defer e.Close()
			bg, stopBG := context.WithCancel(ctx)
			defer stopBG()
			done := make(chan error, 1)
			go func() { done <- runBackground(bg, e.local) }()
			// The fleet is created while the UI is already up: it fills as
			// the jobs are created (the header counts them).
			go func() {
				if err := seedDemo(bg, e.local, c, jobs); err != nil && bg.Err() == nil {
					e.log.Error("demo: create the fleet", "err", err)
				}
			}()
			go stageDemo(bg, e.local, c, e.log)
			if noTUI {
				return watchJobs(ctx, cmd.OutOrStdout(), e.local)
			}
			err = tui.Run(ctx, e.svc, tui.Options{Context: "demo", Debugger: newDebugger()})
			stopBG()
			<-done
			return err
		},
	}
	f.register(cmd, 6)
	cmd.Flags().IntVar(&jobs, "managed", 24, "palink jobs to create and deploy")
	cmd.Flags().BoolVar(&noTUI, "no-tui", false, "print the jobs table every few seconds instead of opening the UI")
	return cmd
}

// demoJobs are the SQL jobs of the demo fleet, by name stem.
var demoJobs = []struct{ name, sql string }{
	{"orders-enrich", demoSQLEnrich},
	{"payments-dedup", demoSQLDedup},
	{"clicks-to-hudi", demoSQLClicks},
	{"user-features", demoSQLEnrich},
	{"fraud-scoring", demoSQLDedup},
	{"inventory-sync", demoSQLClicks},
}

const demoSQLEnrich = `-- Enrich orders with the user dimension (async lookup join).
CREATE TABLE orders (
  order_id BIGINT,
  user_id BIGINT,
  amount DECIMAL(10, 2),
  proc_time AS PROCTIME()
) WITH (
  'connector' = 'kafka',
  'topic' = 'orders',
  'properties.bootstrap.servers' = 'kafka:9092',
  'format' = 'json'
);
CREATE TABLE users (
  id BIGINT,
  name STRING,
  PRIMARY KEY (id) NOT ENFORCED
) WITH (
  'connector' = 'jdbc',
  'url' = 'jdbc:mysql://dim-db:3306/app',
  'table-name' = 'users'
);
CREATE TABLE enriched (
  order_id BIGINT,
  name STRING,
  amount DECIMAL(10, 2)
) WITH (
  'connector' = 'kafka',
  'topic' = 'orders-enriched',
  'properties.bootstrap.servers' = 'kafka:9092',
  'format' = 'json'
);
INSERT INTO enriched
SELECT o.order_id, u.name, o.amount
FROM orders AS o
LEFT JOIN users FOR SYSTEM_TIME AS OF o.proc_time AS u ON o.user_id = u.id;
`

const demoSQLDedup = `CREATE TABLE payments (
  payment_id STRING,
  amount DOUBLE,
  ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH (
  'connector' = 'kafka',
  'topic' = 'payments',
  'properties.bootstrap.servers' = 'kafka:9092',
  'format' = 'json'
);
CREATE TABLE payments_unique (
  payment_id STRING,
  amount DOUBLE,
  ts TIMESTAMP(3),
  PRIMARY KEY (payment_id) NOT ENFORCED
) WITH (
  'connector' = 'upsert-kafka',
  'topic' = 'payments-unique',
  'properties.bootstrap.servers' = 'kafka:9092',
  'key.format' = 'json',
  'value.format' = 'json'
);
INSERT INTO payments_unique
SELECT payment_id, amount, ts FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY payment_id ORDER BY ts) AS rn FROM payments
) WHERE rn = 1;
`

const demoSQLClicks = `CREATE TABLE clicks (
  user_id BIGINT,
  url STRING,
  ts TIMESTAMP(3)
) WITH (
  'connector' = 'datagen',
  'rows-per-second' = '1000'
);
CREATE TABLE clicks_sink (
  user_id BIGINT,
  url STRING,
  ts TIMESTAMP(3)
) WITH (
  'connector' = 'blackhole'
);
INSERT INTO clicks_sink SELECT user_id, url, ts FROM clicks WHERE url IS NOT NULL;
`

// seedDemo creates the demo's jobs and queues their submission, in the
// background of the UI; deploys happen as the scheduler takes them.
func seedDemo(ctx context.Context, svc *core.Local, c *sim.Cluster, n int) error {
	for i := 0; i < n; i++ {
		t := demoJobs[i%len(demoJobs)]
		name := t.name
		if i >= len(demoJobs) {
			name = fmt.Sprintf("%s-%d", t.name, i/len(demoJobs)+1)
		}
		j, err := svc.CreateJob(ctx, api.CreateJobRequest{Name: name, Cluster: "sim", Kind: model.KindSQL,
			Spec: model.Spec{SQL: t.sql, Note: "demo"}, Parallelism: 1 + i%4})
		if err != nil {
			return err
		}
		if i == n-1 {
			continue // one job stays CREATED, never submitted
		}
		if _, err := svc.Act(ctx, api.ActionRequest{JobRef: j.ID, Kind: model.CmdSubmit, Issuer: "demo"}); err != nil {
			return err
		}
	}
	return nil
}

// demoTimeout is what the demo's failing lookup join dies of.
const demoTimeout = "java.util.concurrent.TimeoutException: Async function call has timed out."

// demoDiagnoses give two lookup-join jobs of the demo a cause to find: a
// join that holds the source back, one hot key, a slow checkpoint part,
// and flame graphs to look at (vertex 1 is the join).
var demoDiagnoses = map[string]sim.Diagnosis{
	"orders-enrich": {Bottleneck: 1, Pressure: 0.85, FlameGraphs: true},
	"orders-enrich-2": {Bottleneck: 1, Pressure: 0.7, SkewVertex: 1, SkewSubtask: 0, SkewFactor: 5,
		SlowVertex: 1, SlowSubtask: 2, SlowCheckpoint: 4 * time.Second, FlameGraphs: true},
}

// stageDemo gives the fleet its mix of states once the jobs run: a few
// paused, a few killed, two that keep failing until the restart policy
// gives up on them (the lookup join of timeouts), and two whose figures
// point at a cause (demoDiagnoses).
func stageDemo(ctx context.Context, svc *core.Local, c *sim.Cluster, log *slog.Logger) {
	pause := map[string]bool{"payments-dedup": true, "inventory-sync-2": true}
	kill := map[string]bool{"clicks-to-hudi-2": true, "fraud-scoring-3": true}
	fail := map[string]bool{"user-features": true, "orders-enrich-3": true}
	done := map[string]bool{}
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(2 * time.Second):
		}
		jobs, err := svc.ListJobs(ctx, api.JobFilter{})
		if err != nil {
			continue
		}
		for _, j := range jobs {
			if j.State != model.StateRunning || j.Pending != nil || done[j.Name+j.AppID] {
				continue
			}
			var err error
			switch {
			case pause[j.Name]:
				err = act(ctx, svc, j, model.CmdPause)
			case kill[j.Name]:
				err = act(ctx, svc, j, model.CmdKill)
			case fail[j.Name] && strings.HasPrefix(j.Name, "user-features"):
				err = c.FailJobWith(j.AppID, demoTimeout) // again after each policy restart, until it gives up
			case fail[j.Name]:
				err = c.FailJob(j.AppID)
			case demoDiagnoses[j.Name] != (sim.Diagnosis{}):
				err = c.Diagnose(j.AppID, demoDiagnoses[j.Name])
			default:
				continue
			}
			done[j.Name+j.AppID] = true
			if err != nil {
				log.Warn("demo staging", "job", j.Name, "err", err)
			}
		}
	}
}

func act(ctx context.Context, svc *core.Local, j api.JobView, k model.CommandKind) error {
	_, err := svc.Act(ctx, api.ActionRequest{JobRef: j.ID, Kind: k, Issuer: "demo"})
	return err
}

// watchJobs prints the jobs table every few seconds until ctx is done.
func watchJobs(ctx context.Context, w io.Writer, svc *core.Local) error {
	for {
		jobs, err := svc.ListJobs(ctx, api.JobFilter{})
		if err == nil {
			fmt.Fprintf(w, "\n%s\n", time.Now().Format(time.TimeOnly))
			_ = printJobs(w, "table", jobs)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(3 * time.Second):
		}
	}
}
