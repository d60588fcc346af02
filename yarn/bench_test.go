package yarn

import (
	"context"
	"encoding/json"
	"fmt"
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
