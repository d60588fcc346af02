package yarn

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// BenchmarkApplications10k lists 10,000 applications the size of the doc's
// example (a big cluster's state sync does one such call per cycle).
func BenchmarkApplications10k(b *testing.B) {
	var one map[string]any
	if err := json.Unmarshal([]byte(fixture(b, "rm_app.json")), &one); err != nil {
		b.Fatal(err)
	}
	app := one["app"].(map[string]any)
	var sb strings.Builder
	sb.WriteString(`{"apps":{"app":[`)
	for i := range 10000 {
		app["id"] = fmt.Sprintf("application_1476912658570_%04d", i)
		js, _ := json.Marshal(app)
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.Write(js)
	}
	sb.WriteString(`]}}`)
	body := sb.String()
	f := newFake(b)
	f.json("GET", "/ws/v1/cluster/apps", 200, body)
	rm, err := NewResourceManager([]string{f.URL()}, fastOpts()) // the default cap must fit
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		apps, err := rm.Applications(context.Background(), AppFilter{})
		if err != nil || len(apps) != 10000 {
			b.Fatalf("%d apps, %v", len(apps), err)
		}
	}
}

// BenchmarkFlinkJobsOverview is one job's state read through the RM proxy,
// the request sync makes per job per cycle. "net/http" is the floor: the
// same GET and decode with the standard client alone.
func BenchmarkFlinkJobsOverview(b *testing.B) {
	const body = `{"jobs":[{"jid":"a1b2c3d4e5f60718293a4b5c6d7e8f90","name":"orders-enrich","start-time":1733400000000,"end-time":-1,"duration":3600000,"state":"RUNNING","last-modification":1733400005000,"tasks":{"running":4,"canceling":0,"canceled":0,"total":4,"created":0,"scheduled":0,"deploying":0,"reconciling":0,"finished":0,"initializing":0,"failed":0}}]}`
	f := newFake(b)
	f.json("GET", "/proxy/application_1_0001/jobs/overview", 200, body)
	base := f.URL() + "/proxy/application_1_0001/"
	b.Run("palink", func(b *testing.B) {
		c, err := NewFlink(base, "", fastOpts())
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			jobs, err := c.Jobs(context.Background())
			if err != nil || len(jobs) != 1 {
				b.Fatalf("%d jobs, %v", len(jobs), err)
			}
		}
	})
	b.Run("net/http", func(b *testing.B) {
		hc := &http.Client{}
		b.ReportAllocs()
		for b.Loop() {
			res, err := hc.Get(base + "jobs/overview")
			if err != nil {
				b.Fatal(err)
			}
			raw, _ := io.ReadAll(res.Body)
			res.Body.Close()
			var v struct {
				Jobs []JobOverview `json:"jobs"`
			}
			if err := json.Unmarshal(raw, &v); err != nil || len(v.Jobs) != 1 {
				b.Fatal(err)
			}
		}
	})
}
