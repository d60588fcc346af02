package sim

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

// The fixtures in testdata/yarn are the JSON examples of the Hadoop doc
// (shared/reference/yarn/ResourceManagerRest.md): cluster_info.json L86,
// cluster_metrics.json L203, scheduler.json L416, apps.json L4546,
// app.json L5067, appattempts.json L5220, app_state.json L6430.

func fixture(t *testing.T, name string) any {
	t.Helper()
	b, err := os.ReadFile("testdata/yarn/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("fixture %s: %v", name, err)
	}
	return v
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	}
	return "object"
}

// shape checks that every field of got exists in want (the doc's example)
// with the same JSON kind, recursively; arrays are checked against the
// example's first element. documented are fields that the doc's tables
// list but its example lacks. With exact, want's fields must all be in got
// too (except those in optional).
func shape(t *testing.T, path string, got, want any, documented, optional map[string]bool, exact bool) {
	t.Helper()
	if jsonKind(got) != jsonKind(want) {
		t.Errorf("%s: sim has a %s, the doc a %s", path, jsonKind(got), jsonKind(want))
		return
	}
	switch g := got.(type) {
	case map[string]any:
		w := want.(map[string]any)
		for k, gv := range g {
			wv, ok := w[k]
			if !ok {
				if !documented[k] {
					t.Errorf("%s.%s: not in the doc's example", path, k)
				}
				continue
			}
			shape(t, path+"."+k, gv, wv, documented, optional, exact)
		}
		if exact {
			for k := range w {
				if _, ok := g[k]; !ok && !optional[k] {
					t.Errorf("%s.%s: in the doc's example, missing from the sim", path, k)
				}
			}
		}
	case []any:
		w := want.([]any)
		if len(w) == 0 {
			return
		}
		for i, gv := range g {
			shape(t, fmt.Sprintf("%s[%d]", path, i), gv, w[0], documented, optional, exact)
		}
	}
}

func getAny(t *testing.T, url string) any {
	t.Helper()
	var v any
	mustJSON(t, "GET", url, nil, 200, &v)
	return v
}

func TestRMResponsesHaveTheDocFields(t *testing.T) {
	c := startCluster(t, Options{Seed: 11, Apps: 30})
	rm := c.ActiveRMURL()
	none := map[string]bool{}
	shape(t, "clusterInfo", getAny(t, rm+"/ws/v1/cluster/info"), fixture(t, "cluster_info.json"), none, none, true)
	shape(t, "cluster", getAny(t, rm+"/ws/v1/cluster"), fixture(t, "cluster_info.json"), none, none, true)
	shape(t, "clusterMetrics", getAny(t, rm+"/ws/v1/cluster/metrics"), fixture(t, "cluster_metrics.json"), none, none, true)

	// Apps: the doc's table adds amRPCAddress; resourceRequests is only in
	// the list example; the tracking URL and AM fields are absent while an
	// application has no AM (AppInfo leaves them null).
	documented := map[string]bool{"amRPCAddress": true}
	optional := map[string]bool{"resourceRequests": true}
	var apps struct {
		Apps struct {
			App []map[string]any `json:"app"`
		} `json:"apps"`
	}
	mustJSON(t, "GET", rm+"/ws/v1/cluster/apps", nil, 200, &apps)
	if len(apps.Apps.App) < 30 {
		t.Fatalf("%d apps listed, want the 30 Flink ones and a few others", len(apps.Apps.App))
	}
	listFixture := fixture(t, "apps.json").(map[string]any)["apps"].(map[string]any)["app"].([]any)[0]
	appFixture := fixture(t, "app.json").(map[string]any)["app"]
	states := map[string]bool{}
	for _, a := range apps.Apps.App {
		states[a["state"].(string)] = true
		opt := optional
		if a["state"] != "RUNNING" && a["state"] != "FINISHED" && a["state"] != "FAILED" && a["state"] != "KILLED" {
			opt = map[string]bool{"resourceRequests": true, "trackingUrl": true, "amContainerLogs": true, "amHostHttpAddress": true}
		}
		shape(t, "apps.app", a, listFixture, documented, opt, true)
		if a["state"] == "RUNNING" && a["applicationType"] == "Apache Flink" && a["amRPCAddress"] == nil {
			t.Errorf("running Flink app %s has no amRPCAddress", a["id"])
		}
		id := a["id"].(string)
		single := getAny(t, rm+"/ws/v1/cluster/apps/"+id).(map[string]any)
		shape(t, "app", single["app"], appFixture, documented, opt, true)
		shape(t, "appstate", getAny(t, rm+"/ws/v1/cluster/apps/"+id+"/state"), fixture(t, "app_state.json"), none, none, true)
		if att := getAny(t, rm+"/ws/v1/cluster/apps/"+id+"/appattempts"); a["state"] != "NEW" && a["state"] != "NEW_SAVING" && a["state"] != "SUBMITTED" {
			shape(t, "appAttempts", att, fixture(t, "appattempts.json"), none, none, true)
		}
	}
	for _, s := range []string{"RUNNING", "FINISHED", "KILLED"} {
		if !states[s] {
			t.Errorf("the populated fleet has no %s application (states %v)", s, states)
		}
	}

	// The scheduler: the example only has leaf queues, the table lists a
	// parent queue's fields.
	sched := getAny(t, rm+"/ws/v1/cluster/scheduler")
	parentFields := map[string]bool{"queues": true, "usedResources": true}
	shape(t, "scheduler", sched, fixture(t, "scheduler.json"), parentFields, none, false)
	var s struct {
		Scheduler struct {
			SchedulerInfo struct {
				Queues struct {
					Queue []struct {
						QueueName       string `json:"queueName"`
						NumApplications int    `json:"numApplications"`
						Queues          *struct {
							Queue []struct {
								QueueName string `json:"queueName"`
							} `json:"queue"`
						} `json:"queues"`
					} `json:"queue"`
				} `json:"queues"`
			} `json:"schedulerInfo"`
		} `json:"scheduler"`
	}
	mustJSON(t, "GET", rm+"/ws/v1/cluster/scheduler", nil, 200, &s)
	var names []string
	total := 0
	for _, q := range s.Scheduler.SchedulerInfo.Queues.Queue {
		names = append(names, q.QueueName)
		total += q.NumApplications
		if q.Queues != nil {
			for _, ch := range q.Queues.Queue {
				names = append(names, q.QueueName+"."+ch.QueueName)
			}
		}
	}
	if strings.Join(names, ",") != "default,streaming,streaming.prod,streaming.dev,adhoc" || total == 0 {
		t.Errorf("queues %v with %d apps", names, total)
	}
}

func TestAppsListFilters(t *testing.T) {
	c := startCluster(t, Options{Seed: 5, Apps: 60})
	rm := c.ActiveRMURL()
	all := c.Apps()
	list := func(q string) []appJSON {
		var got struct {
			Apps *struct {
				App []appJSON `json:"app"`
			} `json:"apps"`
		}
		mustJSON(t, "GET", rm+"/ws/v1/cluster/apps?"+q, nil, 200, &got)
		if got.Apps == nil {
			return nil
		}
		return got.Apps.App
	}
	count := func(pred func(App) bool) int {
		n := 0
		for _, a := range all {
			if pred(a) {
				n++
			}
		}
		return n
	}
	cases := []struct {
		query string
		want  func(App) bool
	}{
		{"states=running", func(a App) bool { return a.State == "RUNNING" }},
		{"states=FINISHED,KILLED", func(a App) bool { return a.State == "FINISHED" || a.State == "KILLED" }},
		{"state=KILLED", func(a App) bool { return a.State == "KILLED" }},
		{"finalStatus=SUCCEEDED", func(a App) bool { return a.FinalStatus == "SUCCEEDED" }},
		{"applicationTypes=Apache%20Flink", func(a App) bool { return a.Type == "Apache Flink" }},
		{"applicationTypes=spark,MAPREDUCE", func(a App) bool { return a.Type == "SPARK" || a.Type == "MAPREDUCE" }},
		{"applicationTags=TEAM:PAYMENTS,owner:alice", func(a App) bool {
			return strings.Contains(strings.Join(a.Tags, ","), "team:payments") || strings.Contains(strings.Join(a.Tags, ","), "owner:alice")
		}},
		{"queue=prod", func(a App) bool { return a.Queue == "prod" && !yarnFinal(a.State) }},
		{"queue=root.streaming.prod", func(a App) bool { return a.Queue == "prod" && !yarnFinal(a.State) }},
		{"user=alice", func(a App) bool { return a.User == "alice" }},
		{"states=RUNNING&applicationTypes=Apache%20Flink&user=flink", func(a App) bool {
			return a.State == "RUNNING" && a.Type == "Apache Flink" && a.User == "flink"
		}},
	}
	for _, tc := range cases {
		got := list(tc.query)
		if want := count(tc.want); len(got) != want || want == 0 {
			t.Errorf("?%s: %d apps, want %d (and more than none)", tc.query, len(got), want)
		}
	}
	if got := list("limit=5"); len(got) != 5 || got[0].ID != all[len(all)-1].ID {
		t.Errorf("limit=5: %d apps, first %s; want the 5 newest", len(got), got[0].ID)
	}
	mid := all[len(all)/2].StartedAt.UnixMilli()
	if got := list(fmt.Sprintf("startedTimeBegin=%d", mid)); len(got) != count(func(a App) bool { return a.StartedAt.UnixMilli() >= mid }) {
		t.Errorf("startedTimeBegin: %d apps", len(got))
	}
	if got := list("applicationTags=no-such-tag"); got != nil {
		t.Errorf("no match: %v, want {\"apps\":null}", got)
	}
	if r := do(t, "GET", rm+"/ws/v1/cluster/apps?applicationTags=no-such-tag", nil); string(r.body) != `{"apps":null}` {
		t.Errorf("empty list body %s, want the RM's {\"apps\":null}", r.body)
	}
	var rex remoteException
	mustJSON(t, "GET", rm+"/ws/v1/cluster/apps?states=BOGUS", nil, 400, &rex)
	if rex.RemoteException.Exception != "BadRequestException" {
		t.Errorf("bad state filter: %+v", rex)
	}
	mustJSON(t, "GET", rm+"/ws/v1/cluster/apps/application_1_9999", nil, 404, &rex)
	if rex.RemoteException.Exception != "NotFoundException" || !strings.Contains(rex.RemoteException.Message, "application_1_9999 not found") {
		t.Errorf("unknown app: %+v", rex)
	}
	mustJSON(t, "GET", rm+"/ws/v1/cluster/apps/bogus", nil, 400, &rex)
}

func TestKillNeedsUserWhenRequired(t *testing.T) {
	c := startCluster(t, Options{Seed: 5, Speed: 50, RequireUser: true})
	out, _ := c.Submit(t.Context(), SubmitRequest{Name: "x"})
	url := c.ActiveRMURL() + "/ws/v1/cluster/apps/" + out.AppID + "/state"
	var rex remoteException
	mustJSON(t, "PUT", url, map[string]string{"state": "KILLED"}, http.StatusUnauthorized, &rex)
	if rex.RemoteException.Exception != "AuthorizationException" {
		t.Errorf("401 body %+v", rex)
	}
	mustJSON(t, "PUT", url+"?user.name=ops", map[string]string{"state": "KILLED"}, http.StatusAccepted, nil)
}

func TestPopulatedFleetIsPlausible(t *testing.T) {
	epoch := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	c := startCluster(t, Options{Seed: 99, Apps: 200, Clock: NewManualClock(epoch)})
	apps := c.Apps()
	count := map[string]int{}
	sessions, restored, withSavepoint := 0, 0, 0
	for i, a := range apps {
		if i > 0 && a.StartedAt.Before(apps[i-1].StartedAt) {
			t.Fatalf("apps are not in submission order at %d", i)
		}
		count[a.State+"/"+a.FinalStatus]++
		if a.Mode == ModeSession {
			sessions++
		}
		for _, j := range a.Jobs {
			if j.RestoredFrom != "" {
				restored++
			}
			if len(j.Savepoints) > 0 {
				withSavepoint++
			}
			if a.State == "RUNNING" && a.Mode != ModeSession && j.State == "RUNNING" && j.CompletedCheckpoints == 0 {
				t.Errorf("long-running job %s of %s has no checkpoints", j.ID, a.ID)
			}
		}
		for _, tag := range a.Tags {
			if strings.Contains(tag, "palink") {
				t.Errorf("pre-existing app %s has a palink tag %q", a.ID, tag)
			}
		}
	}
	for _, k := range []string{"RUNNING/UNDEFINED", "FINISHED/SUCCEEDED", "FINISHED/FAILED", "KILLED/KILLED"} {
		if count[k] == 0 {
			t.Errorf("no %s application in the fleet: %v", k, count)
		}
	}
	if sessions == 0 || restored == 0 || withSavepoint == 0 {
		t.Errorf("sessions %d, restored jobs %d, jobs with savepoints %d: want some of each", sessions, restored, withSavepoint)
	}
	// A finished (stopped) job's savepoint can be restored from.
	for _, a := range apps {
		if a.State == "FINISHED" && a.FinalStatus == "SUCCEEDED" && len(a.Jobs) > 0 && len(a.Jobs[0].Savepoints) > 0 {
			c2 := c
			out, err := c2.Submit(t.Context(), SubmitRequest{Name: "restart", SavepointPath: a.Jobs[0].Savepoints[0]})
			if err != nil {
				t.Fatal(err)
			}
			c2.mu.Lock()
			j := c2.flink.byID[out.JobID]
			from, failure := c2.flink.points.lookup(j.restorePath)
			c2.mu.Unlock()
			if from == nil || failure != "" || !from.savepoint {
				t.Errorf("restore from the fleet's savepoint %s: %v %q", a.Jobs[0].Savepoints[0], from, failure)
			}
			break
		}
	}
	// Same seed, same fleet.
	c3, err := New(Options{Seed: 99, Apps: 200, Clock: NewManualClock(epoch)})
	if err != nil {
		t.Fatal(err)
	}
	defer c3.Close()
	other := c3.Apps()
	for i := range apps {
		if apps[i].ID != other[i].ID || apps[i].Name != other[i].Name || apps[i].State != other[i].State ||
			strings.Join(apps[i].Tags, ",") != strings.Join(other[i].Tags, ",") || len(apps[i].Jobs) != len(other[i].Jobs) ||
			len(apps[i].Jobs) > 0 && apps[i].Jobs[0].ID != other[i].Jobs[0].ID {
			t.Fatalf("seed 99 made different fleets at %d: %+v vs %+v", i, apps[i], other[i])
		}
	}
}

// TestAppsRunningMakesAProductionFleet: with AppsRunning every Flink
// application of the fleet is RUNNING with a job that checkpoints, and no
// session cluster, as a scale measurement needs.
func TestAppsRunningMakesAProductionFleet(t *testing.T) {
	epoch := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	c := startCluster(t, Options{Seed: 99, Apps: 300, AppsRunning: true, Clock: NewManualClock(epoch)})
	flinkApps := 0
	for _, a := range c.Apps() {
		if a.Type != "Apache Flink" {
			continue
		}
		flinkApps++
		if a.State != "RUNNING" || a.Mode == ModeSession || len(a.Jobs) != 1 {
			t.Fatalf("app %s: %s, mode %v, %d jobs; want a RUNNING application of one job", a.ID, a.State, a.Mode, len(a.Jobs))
		}
		if j := a.Jobs[0]; j.State != "RUNNING" || j.CompletedCheckpoints == 0 {
			t.Errorf("app %s: job %s with %d checkpoints; want RUNNING with checkpoints", a.ID, j.State, j.CompletedCheckpoints)
		}
	}
	if flinkApps != 300 {
		t.Errorf("%d Flink applications, want 300", flinkApps)
	}
}
