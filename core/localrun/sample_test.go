package localrun_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/localrun"
)

// kafkaWith starts an in-process Kafka (kfake speaks the real protocol)
// with the topics' records, in order, on partition 0 and 1 alternately.
func kafkaWith(t *testing.T, topics map[string][]string) string {
	t.Helper()
	_, addr := kafkaCluster(t, 1, topics)
	return addr
}

// kafkaCluster is kafkaWith on brokers brokers, with the cluster to
// control.
func kafkaCluster(t *testing.T, brokers int, topics map[string][]string) (*kfake.Cluster, string) {
	t.Helper()
	c, err := kfake.NewCluster(kfake.NumBrokers(brokers), kfake.SeedTopics(2, "orders_json", "orders_csv", "empty"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	addr := c.ListenAddrs()[0]
	cl, err := kgo.NewClient(kgo.SeedBrokers(addr), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	for topic, values := range topics {
		for i, v := range values {
			rec := &kgo.Record{Topic: topic, Partition: int32(i % 2), Value: []byte(v), Timestamp: at.Add(time.Duration(i) * time.Second)}
			if err := cl.ProduceSync(ctx, rec).FirstErr(); err != nil {
				t.Fatal(err)
			}
		}
	}
	return c, addr
}

// TestSampleWaitsForALatePartition: a sample is the topic's newest
// records, not those of the partitions that answered first. Partition 1's
// broker holds its first fetch back longer than a sample's quiet spell.
func TestSampleWaitsForALatePartition(t *testing.T) {
	var js []string
	for i := 1; i <= 8; i++ {
		js = append(js, `{"id": `+string(rune('0'+i))+`, "item": "i`+string(rune('0'+i))+`"}`)
	}
	c, addr := kafkaCluster(t, 2, map[string][]string{"orders_json": js})
	// The partitions on two brokers, so that their fetches are apart.
	if c.LeaderFor("orders_json", 0) == c.LeaderFor("orders_json", 1) {
		other := c.LeaderFor("orders_json", 0) ^ 1
		if err := c.MoveTopicPartition("orders_json", 1, other); err != nil {
			t.Fatal(err)
		}
	}
	held := false
	c.ControlKey(int16(kmsg.Fetch), func(req kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		for _, ft := range req.(*kmsg.FetchRequest).Topics {
			for _, fp := range ft.Partitions {
				if fp.Partition == 1 && !held {
					held = true
					c.SleepControl(func() { time.Sleep(2 * time.Second) })
				}
			}
		}
		return nil, nil, false
	})
	started, fin := sampleRun(t, kafkaJob(addr, "orders_json", "json"), api.DebugRequest{Samples: map[string]int{"orders": 5}})
	if fin.Err != nil {
		t.Fatal(fin.Err)
	}
	if !held {
		t.Fatal("no fetch of partition 1 was held back: the test proves nothing")
	}
	// The newest 5 of 8 alternate between the partitions: 4..8.
	if len(started.Sampled) != 1 || started.Sampled[0].Records != 5 {
		t.Fatalf("sampled %+v, want the topic's last 5", started.Sampled)
	}
	if fin.Sinks[0].Rows != 5 {
		t.Errorf("the run got %d rows, want the 5 sampled", fin.Sinks[0].Rows)
	}
}

func sampleRun(t *testing.T, sql string, r api.DebugRequest) (api.DebugEvent, api.DebugEvent) {
	t.Helper()
	r.SQL = sql
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ch, err := (&localrun.Debugger{}).Debug(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	var started, fin api.DebugEvent
	for ev := range ch {
		switch ev.Kind {
		case api.DebugStarted:
			started = ev
		case api.DebugFinished:
			fin = ev
		}
	}
	return started, fin
}

func kafkaJob(addr, topic, format string) string {
	return "CREATE TABLE orders (id BIGINT, item STRING) WITH ('connector' = 'kafka', 'topic' = '" + topic + "', " +
		"'properties.bootstrap.servers' = '" + addr + "', 'format' = '" + format + "', 'scan.startup.mode' = 'latest-offset');\n" +
		"CREATE TABLE out_t (id BIGINT, item STRING) WITH ('connector' = 'print');\n" +
		"INSERT INTO out_t SELECT id, item FROM orders;\n"
}

// TestDebugSamplesKafka: a debug run reads the last N records of a json and
// a csv topic (scan.startup.mode ignored), counts the records that do not
// decode and uses the rest, and keeps the sample as a JSONL fixture that
// repeats the run with --data.
func TestDebugSamplesKafka(t *testing.T) {
	var js, cs []string
	for i := 1; i <= 8; i++ {
		js = append(js, `{"id": `+string(rune('0'+i))+`, "item": "i`+string(rune('0'+i))+`"}`)
		cs = append(cs, string(rune('0'+i))+",i"+string(rune('0'+i)))
	}
	js[6] = `{"id": 7, "item": ` // cut short
	cs[7] = "8,i8,extra"
	addr := kafkaWith(t, map[string][]string{"orders_json": js, "orders_csv": cs})

	dir := t.TempDir()
	started, fin := sampleRun(t, kafkaJob(addr, "orders_json", "json"), api.DebugRequest{Samples: map[string]int{"orders": 5}, SaveSamples: dir})
	if fin.Err != nil {
		t.Fatal(fin.Err)
	}
	if len(started.Sampled) != 1 || started.Sampled[0].Records != 4 || started.Sampled[0].Undecodable != 1 ||
		!strings.Contains(started.Sampled[0].FirstError, "not a JSON object") {
		t.Fatalf("sampled %+v, want the last 5: 4 decoded, 1 not", started.Sampled)
	}
	if fin.Sinks[0].Rows != 4 {
		t.Errorf("the run got %d rows, want the 4 sampled", fin.Sinks[0].Rows)
	}
	saved, err := os.ReadFile(filepath.Join(dir, "orders.jsonl"))
	if err != nil || strings.Count(string(saved), "\n") != 4 || !strings.Contains(string(saved), `"item":"i8"`) || strings.Contains(string(saved), `"i3"`) {
		t.Errorf("saved sample (%v):\n%s", err, saved)
	}
	// The fixture repeats the run, no Kafka needed.
	if _, fin := sampleRun(t, kafkaJob("nowhere:9092", "orders_json", "json"), api.DebugRequest{Data: map[string]string{"orders": filepath.Join(dir, "orders.jsonl")}}); fin.Err != nil || fin.Sinks[0].Rows != 4 {
		t.Errorf("the run on the saved sample: %v, %+v", fin.Err, fin.Sinks)
	}

	started, fin = sampleRun(t, kafkaJob(addr, "orders_csv", "csv"), api.DebugRequest{Samples: map[string]int{"orders": 0}})
	if fin.Err != nil {
		t.Fatal(fin.Err)
	}
	if s := started.Sampled[0]; s.Records != 7 || s.Undecodable != 1 || !strings.Contains(s.FirstError, "3 CSV fields for 2 columns") || s.File != "" {
		t.Errorf("csv sample %+v, want 7 decoded and 1 not, no file kept", s)
	}

	// An empty topic and unreachable brokers are clear errors.
	if _, fin := sampleRun(t, kafkaJob(addr, "empty", "json"), api.DebugRequest{Samples: map[string]int{"orders": 5}}); fin.Err == nil ||
		!strings.Contains(fin.Err.Error(), "topic empty at "+addr+" has no records") {
		t.Errorf("a sample of an empty topic: %v", fin.Err)
	}
	began := time.Now()
	_, fin = sampleRun(t, kafkaJob("127.0.0.1:1", "orders_json", "json"), api.DebugRequest{Samples: map[string]int{"orders": 5}})
	if fin.Err == nil || !strings.Contains(fin.Err.Error(), "sample orders from topic orders_json at 127.0.0.1:1") || time.Since(began) > 30*time.Second {
		t.Errorf("unreachable brokers: %v after %s", fin.Err, time.Since(began))
	}
}
