package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/palink/palink/core"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui"
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
		Long: "Starts a simulated YARN + Flink + SQL Gateway cluster in this process and opens the UI on a\n" +
			"fleet that has lived an hour: its jobs were deployed an hour ago, paused, killed, savepointed,\n" +
			"strained and failed on the way, and palink measured them all along (the hour is lived in a\n" +
			"second or two, as the UI opens). Then things keep happening. Its cluster has a table catalog,\n" +
			"variables (one a secret), a registered UDF and, with git on the PATH, a project built from a\n" +
			"local repository, which its jobs use. The demo keeps its state in a throwaway store, never in yours.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, cancel := signalContext(cmd.Context())
			defer cancel()
			d, err := startDemo(ctx, g, f)
			if err != nil {
				return err
			}
			defer d.close()
			bg, stopBG := context.WithCancel(ctx)
			defer stopBG()
			done := make(chan error, 1)
			go func() { done <- runBackground(bg, d.svc) }()
			// The fleet lives its hour while the UI opens, then the rest
			// of a large fleet is created and things keep happening.
			// The project's build runs beside the warm-up: it takes git
			// and a shell a moment.
			go d.seedProject(bg, d.dir)
			go func() {
				if err := d.warm(bg, jobs); err != nil && bg.Err() == nil {
					d.log.Error("demo: warm up", "err", err)
				}
				d.rest(bg, jobs)
				d.live(bg)
			}()
			if noTUI {
				return watchJobs(ctx, cmd.OutOrStdout(), d.svc)
			}
			// The UI reads the demo's clock: while the hour is lived, ages
			// and the header's clock are the hour's.
			err = tui.Run(ctx, d.env.svc, tui.Options{Context: "demo", Version: buildVersion(), Debugger: d.debug, Now: d.clock.Now})
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
	{"user-features", demoSQLFeatures},
	{"fraud-scoring", demoSQLFraud},
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

// demoSQLFeatures defines only its sink: orders and users are the
// cluster's catalog tables (demoTables), injected when it is checked,
// debugged and deployed.
const demoSQLFeatures = `-- Orders with the user's name. orders and users come from the
-- cluster's table catalog (:tables): this script defines only its sink.
CREATE TABLE enriched (
  order_id BIGINT,
  name STRING,
  amount DECIMAL(10, 2)
) WITH (
  'connector' = 'kafka',
  'topic' = 'user-features',
  'properties.bootstrap.servers' = '${kafka}',
  'format' = 'json'
);
INSERT INTO enriched
SELECT o.order_id, u.name, o.amount
FROM orders AS o
LEFT JOIN users FOR SYSTEM_TIME AS OF o.proc_time AS u ON o.user_id = u.id;
`

// demoSQLFraud calls the registered UDF risk_score (demoUDF) without
// creating it: the deploy does.
const demoSQLFraud = `-- Score payments with the fraud team's model: risk_score is in the
-- UDF registry (:udfs), created for this job when it is deployed.
CREATE TABLE payments (
  payment_id STRING,
  amount DOUBLE,
  ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH (
  'connector' = 'kafka',
  'topic' = 'payments',
  'properties.bootstrap.servers' = '${kafka}',
  'format' = 'json'
);
CREATE TABLE payment_risk (
  payment_id STRING,
  amount DOUBLE,
  risk DOUBLE
) WITH (
  'connector' = 'kafka',
  'topic' = 'payment-risk',
  'properties.bootstrap.servers' = '${kafka}',
  'format' = 'json'
);
INSERT INTO payment_risk
SELECT payment_id, amount, risk_score(payment_id, amount) FROM payments;
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

// live keeps things happening once the fleet has lived its hour: the
// failing jobs fail again after each policy restart, until the policy
// gives up on them, and now and then a job is interrupted.
func (d *demoRun) live(ctx context.Context) {
	svc, c, log := d.svc, d.c, d.log
	failed := map[string]bool{}
	for tick := 1; ; tick++ {
		select {
		case <-ctx.Done():
			return
		case <-time.After(2 * time.Second):
		}
		jobs, err := svc.ListJobs(ctx, api.JobFilter{})
		if err != nil {
			continue
		}
		var running []api.JobView
		for _, j := range jobs {
			if j.State != model.StateRunning || j.Pending != nil || j.AppID == "" {
				continue
			}
			running = append(running, j)
			if demoFailing[j.Name] && !failed[j.AppID] {
				failed[j.AppID] = true
				if err := c.FailJobWith(j.AppID, demoTimeout); err != nil {
					log.Warn("demo: fail", "job", j.Name, "err", err)
				}
			}
		}
		if tick%45 == 0 && len(running) > 0 { // about every 90s
			j := running[(tick/45)%len(running)]
			if err := c.InterruptJob(j.AppID); err != nil {
				log.Warn("demo: interrupt", "job", j.Name, "err", err)
			}
		}
	}
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
