package yarn

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// missingKeys lists the paths of keys present in orig (decoded wire JSON)
// but absent from got (our struct, marshalled back): fields a decode lost.
func missingKeys(orig, got any, path string) []string {
	var out []string
	switch o := orig.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return []string{path + " (object became " + typeName(got) + ")"}
		}
		for k, v := range o {
			gv, ok := g[k]
			if !ok {
				out = append(out, path+"."+k)
				continue
			}
			out = append(out, missingKeys(v, gv, path+"."+k)...)
		}
	case []any:
		g, ok := got.([]any)
		if !ok {
			return []string{path + " (array became " + typeName(got) + ")"}
		}
		if len(g) != len(o) {
			return []string{path + " (length changed)"}
		}
		for i := range o {
			out = append(out, missingKeys(o[i], g[i], path+"[]")...)
		}
	}
	sort.Strings(out)
	return out
}

func typeName(v any) string {
	b, _ := json.Marshal(v)
	return strings.SplitN(string(b), ",", 2)[0]
}

// assertNoFieldLost decodes the wire JSON generically, marshals what the
// client returned, and fails on every key the client dropped.
func assertNoFieldLost(t *testing.T, wire string, pick func(map[string]any) any, decoded any) {
	t.Helper()
	var orig map[string]any
	if err := json.Unmarshal([]byte(wire), &orig); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(decoded)
	if err != nil {
		t.Fatalf("marshal decoded value: %v", err)
	}
	var got any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if m := missingKeys(pick(orig), got, "$"); len(m) > 0 {
		t.Errorf("fields lost in decoding: %s", strings.Join(m, ", "))
	}
}

func at(keys ...string) func(map[string]any) any {
	return func(m map[string]any) any {
		var v any = m
		for _, k := range keys {
			v = v.(map[string]any)[k]
		}
		return v
	}
}

func newRM(t *testing.T, o Options, addrs ...string) *ResourceManager {
	t.Helper()
	c, err := NewResourceManager(addrs, o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestRMDocExamplesDecodeWithoutLoss(t *testing.T) {
	ctx := context.Background()
	f := newFake(t)
	f.json("GET", "/ws/v1/cluster/info", 200, fixture(t, "rm_cluster_info.json"))
	f.json("GET", "/ws/v1/cluster/metrics", 200, fixture(t, "rm_cluster_metrics.json"))
	f.json("GET", "/ws/v1/cluster/apps", 200, fixture(t, "rm_apps.json"))
	f.json("GET", "/ws/v1/cluster/apps/application_1476912658570_0002", 200, fixture(t, "rm_app.json"))
	f.json("GET", "/ws/v1/cluster/apps/application_1326821518301_0005/appattempts", 200, fixture(t, "rm_appattempts.json"))
	rm := newRM(t, fastOpts(), f.URL())

	t.Run("cluster info", func(t *testing.T) {
		ci, err := rm.ClusterInfo(ctx)
		if err != nil {
			t.Fatal(err)
		}
		assertNoFieldLost(t, fixture(t, "rm_cluster_info.json"), at("clusterInfo"), ci)
		mustEqual(t, "haState", ci.HAState, "ACTIVE")
		mustEqual(t, "id", ci.ID, int64(1324053971963))
		mustEqual(t, "hadoopVersion", ci.HadoopVersion, "3.0.0-SNAPSHOT")
	})
	t.Run("cluster metrics", func(t *testing.T) {
		cm, err := rm.ClusterMetrics(ctx)
		if err != nil {
			t.Fatal(err)
		}
		assertNoFieldLost(t, fixture(t, "rm_cluster_metrics.json"), at("clusterMetrics"), cm)
		mustEqual(t, "availableMB", cm.AvailableMB, int64(17408))
		mustEqual(t, "totalVirtualCores", cm.TotalVirtualCores, int64(8))
		mustEqual(t, "activeNodes", cm.ActiveNodes, 1)
	})
	t.Run("apps", func(t *testing.T) {
		apps, err := rm.Applications(ctx, AppFilter{WithResourceRequests: true})
		if err != nil {
			t.Fatal(err)
		}
		assertNoFieldLost(t, fixture(t, "rm_apps.json"), at("apps", "app"), apps)
		if len(apps) != 2 {
			t.Fatalf("%d apps, want 2", len(apps))
		}
		a := apps[0]
		mustEqual(t, "id", a.ID, "application_1476912658570_0002")
		mustEqual(t, "finalStatus", a.FinalStatus, FinalSucceeded)
		mustEqual(t, "priority", a.Priority, "-1")
		mustEqual(t, "elapsedTime", a.ElapsedTime, int64(304578))
		mustEqual(t, "resource requests", len(a.ResourceRequests), 3)
		mustEqual(t, "request memory", a.ResourceRequests[0].Capability.Memory, int64(4096))
		mustEqual(t, "request priority", a.ResourceRequests[1].Priority.Priority, 20)
		mustEqual(t, "trackingUrl", a.TrackingURL, "http://host.domain.com:8088/cluster/app/application_1476912658570_0002")
		if !a.Final() || a.Started().UnixMilli() != 1476913457320 {
			t.Errorf("Final/Started wrong: %v %v", a.Final(), a.Started())
		}
		if len(a.Tags()) != 0 {
			t.Errorf("Tags() of empty applicationTags = %q", a.Tags())
		}
	})
	t.Run("app", func(t *testing.T) {
		a, err := rm.Application(ctx, "application_1476912658570_0002")
		if err != nil {
			t.Fatal(err)
		}
		assertNoFieldLost(t, fixture(t, "rm_app.json"), at("app"), a)
		mustEqual(t, "allocatedMB", a.AllocatedMB, int64(-1))
		mustEqual(t, "logAggregationStatus", a.LogAggregationStatus, "DISABLED")
		mustEqual(t, "amHostHttpAddress", a.AMHostHTTPAddress, "host.domain.com:8042")
	})
	t.Run("attempts", func(t *testing.T) {
		as, err := rm.AppAttempts(ctx, "application_1326821518301_0005")
		if err != nil {
			t.Fatal(err)
		}
		assertNoFieldLost(t, fixture(t, "rm_appattempts.json"), at("appAttempts", "appAttempt"), as)
		if len(as) != 1 {
			t.Fatalf("%d attempts", len(as))
		}
		mustEqual(t, "id (a number on the wire)", as[0].ID, "1")
		mustEqual(t, "state", as[0].AppAttemptState, "RUNNING")
		mustEqual(t, "containerId", as[0].ContainerID, "container_1326821518301_0005_01_000001")
	})
}

func TestRMSchedulerShapes(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		fixture string
		typ     string
		check   func(t *testing.T, s Scheduler)
	}{
		{"rm_scheduler_capacity.json", SchedulerCapacity, func(t *testing.T, s Scheduler) {
			qs := s.Flatten()
			if len(qs) != 3 {
				t.Fatalf("queues = %+v", qs)
			}
			mustEqual(t, "queue a", qs[0].Name, "root.a")
			mustEqual(t, "a capacity", qs[0].Capacity, 12.5)
			mustEqual(t, "a max", qs[0].MaxCapacity, 50.0)
			mustEqual(t, "a leaf", qs[0].Leaf, true)
			mustEqual(t, "a state", qs[0].State, "RUNNING")
			mustEqual(t, "leaf type", s.Queues.Queue[0].Type, "capacitySchedulerLeafQueueInfo")
			if _, ok := s.Extra["health"]; !ok {
				t.Errorf("health not kept in Extra")
			}
		}},
		{"rm_scheduler_fair.json", SchedulerFair, func(t *testing.T, s Scheduler) {
			qs := s.Flatten()
			var names []string
			for _, q := range qs {
				names = append(names, q.Name)
			}
			if len(qs) < 3 || qs[0].Name != "root.default" || qs[0].Depth != 0 {
				t.Fatalf("queues = %v", names)
			}
			var sub *QueueInfo
			for i := range qs {
				if qs[i].Name == "root.sample_queue.sample_sub_queue" {
					sub = &qs[i]
				}
			}
			if sub == nil || sub.Depth != 1 || !sub.Leaf {
				t.Fatalf("nested fair queue missing or wrong: %v", names)
			}
			mustEqual(t, "default steady share % of cluster", qs[0].Capacity, 50.0)
		}},
		{"rm_scheduler_fifo.json", SchedulerFifo, func(t *testing.T, s Scheduler) {
			mustEqual(t, "qstate", s.QState, "RUNNING")
			mustEqual(t, "usedCapacity NaN decodes as 0", s.UsedCapacity, 0.0)
			mustEqual(t, "maxQueueMemoryCapacity", s.MaxQueueMemoryCapacity, int64(10240))
			qs := s.Flatten()
			if len(qs) != 1 || qs[0].Capacity != 100 {
				t.Fatalf("fifo queues = %+v", qs)
			}
		}},
	} {
		t.Run(tc.typ, func(t *testing.T) {
			f := newFake(t)
			wire := fixture(t, tc.fixture)
			f.json("GET", "/ws/v1/cluster/scheduler", 200, wire)
			s, err := newRM(t, fastOpts(), f.URL()).Scheduler(ctx)
			if err != nil {
				t.Fatal(err)
			}
			mustEqual(t, "type", s.Type, tc.typ)
			if tc.typ != SchedulerFifo { // fifo's "NaN" does not survive as a number; checked above
				assertNoFieldLost(t, wire, at("scheduler", "schedulerInfo"), s)
			}
			tc.check(t, s)
		})
	}
}

func TestRMFlinkAppFields(t *testing.T) {
	const wire = `{"app":{"id":"application_1732860000000_0042","user":"flink","name":"orders-enrich",
	"queue":"root.streaming","state":"RUNNING","finalStatus":"ENDED","progress":100,
	"trackingUI":"ApplicationMaster","trackingUrl":"http://rm1:8088/proxy/application_1732860000000_0042/",
	"applicationType":"Apache Flink","applicationTags":"palink,team-a, orders ","priority":"0",
	"amRPCAddress":"host-1.example.com:40321","unmanagedApplication":false}}`
	f := newFake(t)
	f.json("GET", "/ws/v1/cluster/apps/application_1732860000000_0042", 200, wire)
	a, err := newRM(t, fastOpts(), f.URL()).Application(context.Background(), "application_1732860000000_0042")
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "amRPCAddress", a.AMRPCAddress, "host-1.example.com:40321")
	mustEqual(t, "finalStatus", a.FinalStatus, FinalEnded)
	mustEqual(t, "priority given as string", a.Priority, "0")
	mustEqual(t, "trackingUI", a.TrackingUI, "ApplicationMaster")
	if got := strings.Join(a.Tags(), "|"); got != "palink|team-a|orders" {
		t.Errorf("Tags() = %q", got)
	}
}

func TestRMApplicationsFiltersAndShapes(t *testing.T) {
	ctx := context.Background()
	t.Run("query", func(t *testing.T) {
		f := newFake(t)
		f.json("GET", "/ws/v1/cluster/apps", 200, `{"apps":null}`)
		rm := newRM(t, Options{SimpleAuthUser: "ops"}, f.URL())
		apps, err := rm.Applications(ctx, AppFilter{
			States: []string{"RUNNING", "ACCEPTED"}, ApplicationTypes: []string{"Apache Flink"},
			Queue: "root.streaming", User: "flink", ApplicationTags: []string{"palink", "team-a"}, Limit: 50,
		})
		if err != nil {
			t.Fatal(err)
		}
		if apps != nil {
			t.Errorf(`{"apps":null} gave %v, want no apps`, apps)
		}
		q, _ := url.ParseQuery(f.lastQuery("GET", "/ws/v1/cluster/apps"))
		want := map[string]string{
			"states": "RUNNING,ACCEPTED", "applicationTypes": "Apache Flink", "queue": "root.streaming",
			"user": "flink", "applicationTags": "palink,team-a", "limit": "50",
			"deSelects": "resourceRequests", "user.name": "ops",
		}
		for k, v := range want {
			if q.Get(k) != v {
				t.Errorf("query %s = %q, want %q (query %s)", k, q.Get(k), v, q.Encode())
			}
		}
		if len(q) != len(want) {
			t.Errorf("query has extra parameters: %s", q.Encode())
		}
	})
	t.Run("lone object", func(t *testing.T) {
		f := newFake(t)
		f.json("GET", "/ws/v1/cluster/apps", 200, `{"apps":{"app":{"id":"application_1_0001","state":"RUNNING"}}}`)
		apps, err := newRM(t, fastOpts(), f.URL()).Applications(ctx, AppFilter{})
		if err != nil || len(apps) != 1 || apps[0].ID != "application_1_0001" {
			t.Fatalf("apps = %+v, err %v", apps, err)
		}
	})
}

func TestRMNotFound(t *testing.T) {
	f := newFake(t)
	f.json("GET", "/ws/v1/cluster/apps/application_1_0001", 404,
		`{"RemoteException":{"exception":"NotFoundException","message":"java.lang.Exception: app with id: application_1_0001 not found","javaClassName":"org.apache.hadoop.yarn.webapp.NotFoundException"}}`)
	_, err := newRM(t, fastOpts(), f.URL()).Application(context.Background(), "application_1_0001")
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("err = %v, want ErrNotFound", err)
	}
	want := "GET /ws/v1/cluster/apps/application_1_0001 on " + f.Host() +
		": not found: NotFoundException: app with id: application_1_0001 not found"
	mustEqual(t, "message", err.Error(), want)
	if f.hits("GET", "/ws/v1/cluster/apps/application_1_0001") != 1 {
		t.Errorf("a 404 was retried")
	}
}

func TestRMKill(t *testing.T) {
	ctx := context.Background()
	t.Run("202 then poll until KILLED", func(t *testing.T) {
		f := newFake(t)
		const id = "application_1399397633663_0003"
		f.on("PUT", "/ws/v1/cluster/apps/"+id+"/state", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Location", "http://rm:8088/ws/v1/cluster/apps/"+id)
			jsonHandler(202, `{"state":"ACCEPTED"}`)(w, r)
		})
		var mu sync.Mutex
		polls := 0
		f.on("GET", "/ws/v1/cluster/apps/"+id, func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			polls++
			state := "RUNNING"
			if polls >= 3 {
				state = "KILLED"
			}
			mu.Unlock()
			jsonHandler(200, `{"app":{"id":"`+id+`","state":"`+state+`","finalStatus":"KILLED"}}`)(w, r)
		}).times(3)
		app, err := newRM(t, fastOpts(), f.URL()).Kill(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		mustEqual(t, "state", app.State, AppKilled)
		var body map[string]string
		if err := json.Unmarshal([]byte(f.lastBody("PUT", "/ws/v1/cluster/apps/"+id+"/state")), &body); err != nil {
			t.Fatal(err)
		}
		mustEqual(t, "PUT body state", body["state"], "KILLED")
		if ct := f.lastHeader("PUT", "/ws/v1/cluster/apps/"+id+"/state").Get("Content-Type"); ct != "application/json" {
			t.Errorf("Content-Type = %q", ct)
		}
	})
	t.Run("200 KILLED at once", func(t *testing.T) {
		f := newFake(t)
		f.json("PUT", "/ws/v1/cluster/apps/application_1_0001/state", 200, `{"state":"KILLED"}`)
		f.json("GET", "/ws/v1/cluster/apps/application_1_0001", 200, `{"app":{"id":"application_1_0001","state":"KILLED"}}`)
		app, err := newRM(t, fastOpts(), f.URL()).Kill(ctx, "application_1_0001")
		if err != nil || app.State != AppKilled {
			t.Fatalf("app %+v err %v", app, err)
		}
	})
	t.Run("unauthorized", func(t *testing.T) {
		f := newFake(t)
		f.json("PUT", "/ws/v1/cluster/apps/application_1_0001/state", 401, ``)
		_, err := newRM(t, fastOpts(), f.URL()).Kill(ctx, "application_1_0001")
		if !errors.Is(err, ErrUnauthorized) {
			t.Fatalf("err = %v, want ErrUnauthorized", err)
		}
	})
	t.Run("bad request keeps the RM's reason", func(t *testing.T) {
		f := newFake(t)
		f.json("PUT", "/ws/v1/cluster/apps/application_1_0001/state", 400,
			`{"RemoteException":{"exception":"BadRequestException","message":"java.lang.Exception: Only 'KILLED' is allowed as a target state.","javaClassName":"org.apache.hadoop.yarn.webapp.BadRequestException"}}`)
		_, err := newRM(t, fastOpts(), f.URL()).RequestKill(ctx, "application_1_0001")
		var he *HTTPError
		if !errors.As(err, &he) || he.Status != 400 || !strings.Contains(err.Error(), "Only 'KILLED' is allowed") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("wait ends with ctx", func(t *testing.T) {
		f := newFake(t)
		f.json("PUT", "/ws/v1/cluster/apps/application_1_0001/state", 202, `{"state":"RUNNING"}`)
		f.json("GET", "/ws/v1/cluster/apps/application_1_0001", 200, `{"app":{"id":"application_1_0001","state":"RUNNING"}}`)
		ctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
		defer cancel()
		app, err := newRM(t, fastOpts(), f.URL()).Kill(ctx, "application_1_0001")
		if !errors.Is(err, ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want ErrTimeout and DeadlineExceeded", err)
		}
		mustEqual(t, "last seen state", app.State, "RUNNING")
	})
}

// standbyRM answers like RMWebAppFilter on a standby RM.
func standbyRM(active string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", active+r.URL.RequestURI())
		w.WriteHeader(http.StatusTemporaryRedirect)
		io.WriteString(w, "This is standby RM. The redirect url is: "+r.URL.RequestURI()+"\n")
	}
}

func TestRMFailover(t *testing.T) {
	ctx := context.Background()
	const apps = `{"apps":{"app":[{"id":"application_1_0001","state":"RUNNING"}]}}`

	t.Run("standby redirect moves to the active RM and remembers it", func(t *testing.T) {
		active := newFake(t)
		standby := newFake(t)
		standby.on("GET", "/ws/v1/cluster/apps", standbyRM(active.URL())).times(1)
		active.json("GET", "/ws/v1/cluster/apps", 200, apps).times(2)
		rm := newRM(t, fastOpts(), standby.URL(), active.URL())
		mustEqual(t, "Active before", rm.Active(), standby.URL())
		for range 2 {
			got, err := rm.Applications(ctx, AppFilter{})
			if err != nil || len(got) != 1 {
				t.Fatalf("apps %v err %v", got, err)
			}
		}
		mustEqual(t, "Active after", rm.Active(), active.URL())
		mustEqual(t, "standby asked once, then remembered", standby.hits("GET", "/ws/v1/cluster/apps"), 1)
	})

	t.Run("redirect Location wins over list order", func(t *testing.T) {
		standby := newFake(t)
		other := newFake(t)
		active := newFake(t)
		standby.on("GET", "/ws/v1/cluster/metrics", standbyRM(active.URL()))
		active.json("GET", "/ws/v1/cluster/metrics", 200, fixture(t, "rm_cluster_metrics.json"))
		_ = other // no route: asking it would fail the test
		rm := newRM(t, fastOpts(), standby.URL(), other.URL(), active.URL())
		if _, err := rm.ClusterMetrics(ctx); err != nil {
			t.Fatal(err)
		}
		mustEqual(t, "Active", rm.Active(), active.URL())
	})

	t.Run("down RM is skipped", func(t *testing.T) {
		active := newFake(t)
		active.json("GET", "/ws/v1/cluster/apps", 200, apps)
		rm := newRM(t, fastOpts(), deadAddr(t), active.URL())
		if _, err := rm.Applications(ctx, AppFilter{}); err != nil {
			t.Fatal(err)
		}
		mustEqual(t, "Active", rm.Active(), active.URL())
	})

	t.Run("no active RM text", func(t *testing.T) {
		noActive := newFake(t)
		noActive.on("GET", "/ws/v1/cluster/apps", func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, "There is no active RM right now.\nHA Zookeeper Connection State: CONNECTING\n")
		})
		retrying := newFake(t)
		retrying.on("GET", "/ws/v1/cluster/apps", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Refresh", "5;url=http://rm2:8088/ws/v1/cluster/apps?next-refresh-interval=1")
			w.WriteHeader(http.StatusTemporaryRedirect)
			io.WriteString(w, "Can not find any active RM. Will retry in next 5 seconds.\n")
		})
		rm := newRM(t, Options{Retries: -1}, noActive.URL(), retrying.URL())
		_, err := rm.Applications(ctx, AppFilter{})
		if !errors.Is(err, ErrUnavailable) {
			t.Fatalf("err = %v, want ErrUnavailable", err)
		}
		for _, want := range []string{"no active ResourceManager", noActive.Host() + ": standby", retrying.Host() + ": standby"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("message %q lacks %q", err, want)
			}
		}
	})

	t.Run("cluster info of a standby is not taken for the active's", func(t *testing.T) {
		standby := newFake(t)
		active := newFake(t)
		standby.json("GET", "/ws/v1/cluster/info", 200, strings.Replace(fixture(t, "rm_cluster_info.json"), `"ACTIVE"`, `"STANDBY"`, 1))
		active.json("GET", "/ws/v1/cluster/info", 200, fixture(t, "rm_cluster_info.json"))
		rm := newRM(t, fastOpts(), standby.URL(), active.URL())
		ci, err := rm.ClusterInfo(ctx)
		if err != nil {
			t.Fatal(err)
		}
		mustEqual(t, "haState", ci.HAState, "ACTIVE")
		mustEqual(t, "Active", rm.Active(), active.URL())
	})

	t.Run("kill PUT fails over from a standby, which did not act", func(t *testing.T) {
		active := newFake(t)
		standby := newFake(t)
		standby.on("PUT", "/ws/v1/cluster/apps/application_1_0001/state", standbyRM(active.URL()))
		active.json("PUT", "/ws/v1/cluster/apps/application_1_0001/state", 200, `{"state":"KILLED"}`)
		state, err := newRM(t, fastOpts(), standby.URL(), active.URL()).RequestKill(ctx, "application_1_0001")
		if err != nil || state != AppKilled {
			t.Fatalf("state %q err %v", state, err)
		}
	})

	t.Run("concurrent callers", func(t *testing.T) {
		active := newFake(t)
		standby := newFake(t)
		standby.on("GET", "/ws/v1/cluster/apps", standbyRM(active.URL())).optional()
		active.json("GET", "/ws/v1/cluster/apps", 200, apps).times(16)
		rm := newRM(t, fastOpts(), standby.URL(), active.URL())
		var wg sync.WaitGroup
		for range 16 {
			wg.Go(func() {
				if _, err := rm.Applications(ctx, AppFilter{}); err != nil {
					t.Error(err)
				}
				_ = rm.Active()
			})
		}
		wg.Wait()
		mustEqual(t, "Active", rm.Active(), active.URL())
	})
}

// TestApplicationStatesAreTheApplicationsBrief: every field the brief list
// decodes holds what the full list holds, every other field is zero, and a
// field added to briefApp without a copy into Application fails here.
func TestApplicationStatesAreTheApplicationsBrief(t *testing.T) {
	ctx := context.Background()
	var one map[string]json.RawMessage
	if err := json.Unmarshal([]byte(fixture(t, "rm_app.json")), &one); err != nil {
		t.Fatal(err)
	}
	lone := `{"apps":{"app":` + string(one["app"]) + `}}` // an old RM's list of one
	for name, body := range map[string]string{"array": fixture(t, "rm_apps.json"), "lone object": lone, "none": `{"apps":null}`} {
		t.Run(name, func(t *testing.T) {
			f := newFake(t)
			f.json("GET", "/ws/v1/cluster/apps", 200, body).times(2)
			rm := newRM(t, fastOpts(), f.URL())
			full, err := rm.Applications(ctx, AppFilter{})
			if err != nil {
				t.Fatal(err)
			}
			brief, err := rm.ApplicationStates(ctx, AppFilter{})
			if err != nil {
				t.Fatal(err)
			}
			if len(brief) != len(full) || (name != "none" && len(full) == 0) {
				t.Fatalf("brief %d applications, full %d", len(brief), len(full))
			}
			kept := map[string]bool{}
			for f := range reflect.TypeFor[briefApp]().Fields() {
				kept[f.Name] = true
				if _, ok := reflect.TypeFor[Application]().FieldByName(f.Name); !ok {
					t.Errorf("briefApp.%s is no field of Application", f.Name)
				}
			}
			for i := range full {
				fv, bv := reflect.ValueOf(full[i]), reflect.ValueOf(brief[i])
				for j := range fv.NumField() {
					field := fv.Type().Field(j).Name
					switch {
					case kept[field] && !reflect.DeepEqual(fv.Field(j).Interface(), bv.Field(j).Interface()):
						t.Errorf("app %d %s: brief %v, full %v", i, field, bv.Field(j), fv.Field(j))
					case !kept[field] && !bv.Field(j).IsZero():
						t.Errorf("app %d %s: brief has %v, not decoded", i, field, bv.Field(j))
					case kept[field] && fv.Field(j).IsZero() && name == "array" && field != "Diagnostics" && field != "AMRPCAddress" && field != "FinishedTime":
						t.Errorf("app %d %s: the fixture leaves it zero, so the test cannot see it copied", i, field)
					}
				}
			}
		})
	}
}
