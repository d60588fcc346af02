package core_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/internal/coretest"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn/sim"
)

const dimSQL = "CREATE TABLE dim (id BIGINT, name STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '3')"

// TestCatalogTableThatNoLongerValidatesRefusesDeploys: a catalog table
// whose stored definition does not validate (written by an older palink,
// or valid for another Flink release) refuses the submissions of jobs that
// use it, with the reason, in Plan and Act; jobs that do not use it, or
// define it themselves, are not touched.
func TestCatalogTableThatNoLongerValidatesRefusesDeploys(t *testing.T) {
	e := coretest.New(t, sim.Options{}, nil)
	if _, err := e.Svc.PutTable(e.Ctx, api.PutTableRequest{Cluster: "sim", Name: "dim", SQL: dimSQL, Create: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Svc.PutTable(e.Ctx, api.PutTableRequest{Cluster: "sim", Name: "dim", SQL: dimSQL, Create: true}); !errors.Is(err, model.ErrExists) {
		t.Errorf("a second add = %v, want ErrExists", err)
	}
	if _, err := e.Svc.PutTable(e.Ctx, api.PutTableRequest{Cluster: "nowhere", Name: "dim", SQL: dimSQL, Create: true}); !errors.Is(err, model.ErrNotFound) {
		t.Errorf("an add to an unknown cluster = %v, want ErrNotFound", err)
	}
	uses := "CREATE TABLE out_t (id BIGINT, name STRING) WITH ('connector' = 'blackhole');\nINSERT INTO out_t SELECT id, name FROM dim;"
	if _, err := e.Svc.CreateJob(e.Ctx, api.CreateJobRequest{Name: "uses", Cluster: "sim", Kind: model.KindSQL, Spec: model.Spec{SQL: uses}}); err != nil {
		t.Fatal(err)
	}
	own := "CREATE TABLE dim (id BIGINT, name STRING) WITH ('connector' = 'datagen');\n" + uses
	if _, err := e.Svc.CreateJob(e.Ctx, api.CreateJobRequest{Name: "own", Cluster: "sim", Kind: model.KindSQL, Spec: model.Spec{SQL: own}}); err != nil {
		t.Fatal(err)
	}
	e.CreateSQL("other")
	// The definition breaks under palink's feet: no 'number-of-rows' issue,
	// a kafka table without its topic.
	err := e.St.Update(e.Ctx, func(tx store.Tx) error {
		_, err := tx.PutCatalogTable(model.CatalogTable{Cluster: "sim", Name: "dim", SQL: "CREATE TABLE dim (id BIGINT, name STRING) WITH ('connector' = 'kafka')"})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	p, err := e.Svc.Plan(e.Ctx, api.ActionRequest{JobRef: "uses", Kind: model.CmdSubmit})
	if err != nil || p.Allowed || !strings.Contains(p.Reason, "catalog table dim@v2 does not validate") || !strings.Contains(p.Reason, "topic") {
		t.Errorf("Plan = %+v, %v; want refused naming dim@v2 and the missing topic", p, err)
	}
	_, err = e.Svc.Act(e.Ctx, api.ActionRequest{JobRef: "uses", Kind: model.CmdSubmit})
	if !errors.Is(err, model.ErrRefused) || !strings.Contains(err.Error(), "dim@v2") {
		t.Errorf("Act = %v, want refused naming dim@v2", err)
	}
	if c := e.Act("own", model.CmdSubmit, 0); c.State != model.CmdSucceeded || len(c.Params.Catalog) != 0 ||
		!strings.Contains(strings.Join(coretest.LogTexts(c), "\n"), "the script defines dim itself") {
		t.Errorf("the job that defines dim itself: %s %v %v", c.State, c.Params.Catalog, coretest.LogTexts(c))
	}
	if c := e.Act("other", model.CmdSubmit, 0); c.State != model.CmdSucceeded {
		t.Errorf("a job without catalog tables: %s %s", c.State, c.Error)
	}
	d, err := e.Svc.Table(e.Ctx, api.TableRef{Cluster: "sim", Name: "dim"})
	if err != nil || d.Error == "" || len(d.Versions) != 2 || len(d.Jobs) != 2 {
		t.Errorf("Table = %+v, %v; want the error, 2 versions and 2 jobs", d, err)
	}
}
