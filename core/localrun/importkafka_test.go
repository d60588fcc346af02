package localrun_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/localrun"
)

// TestImportKafkaJSON: the proposed DDL of a JSON topic has a column per
// field with the type its values say, NOT NULL only where every record
// had a value, a field of two kinds read as STRING with a warning, and the
// record that does not decode counted and left out.
func TestImportKafkaJSON(t *testing.T) {
	addr := kafkaWith(t, map[string][]string{"orders_json": {
		`{"id": 1, "price": 9.5, "ok": true, "at": "2026-12-02T10:00:00.123", "user": {"name": "a", "tier": 1}, "tags": ["x"], "note": null, "mixed": 1}`,
		`{"id": 2, "price": 10, "ok": false, "at": "2026-12-02T10:00:01", "user": {"name": "b", "tier": 2}, "tags": [], "note": "n", "mixed": "s"}`,
		`not json`,
		`{"id": 3, "price": 1.25, "ok": true, "at": "2026-12-02T10:00:02.5", "user": {"name": "c", "tier": 3}, "tags": ["y", "z"], "mixed": 2}`,
	}})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	imp, err := localrun.ImportKafka(ctx, api.KafkaImportRequest{Name: "orders", Brokers: addr, Topic: "orders_json"})
	if err != nil {
		t.Fatal(err)
	}
	want := "CREATE TABLE `orders` (\n" +
		"  `id` BIGINT NOT NULL,\n" +
		"  `price` DOUBLE NOT NULL,\n" +
		"  `ok` BOOLEAN NOT NULL,\n" +
		"  `at` TIMESTAMP(3) NOT NULL,\n" +
		"  `user` ROW<`name` STRING, `tier` BIGINT> NOT NULL,\n" +
		"  `tags` ARRAY<STRING> NOT NULL,\n" +
		"  `note` STRING,\n" +
		"  `mixed` STRING NOT NULL\n" +
		") WITH (\n" +
		"  'connector' = 'kafka',\n" +
		"  'topic' = 'orders_json',\n" +
		"  'properties.bootstrap.servers' = '" + addr + "',\n" +
		"  'format' = 'json',\n" +
		"  'json.timestamp-format.standard' = 'ISO-8601',\n" +
		"  'scan.startup.mode' = 'latest-offset'\n" +
		")"
	if imp.SQL != want {
		t.Errorf("DDL:\n%s\nwant\n%s", imp.SQL, want)
	}
	if imp.Records != 3 || imp.Undecodable != 1 || !strings.Contains(imp.FirstError, "record 3: not a JSON object") {
		t.Errorf("records %d, undecodable %d (%s)", imp.Records, imp.Undecodable, imp.FirstError)
	}
	warns := strings.Join(imp.Warnings, "\n")
	if !strings.Contains(warns, "field mixed: seen as BIGINT and STRING; read as STRING") ||
		!strings.Contains(warns, "1 of 4 records did not decode as json") {
		t.Errorf("warnings:\n%s", warns)
	}
}

// TestImportKafkaCSV: csv records give positional columns, an empty field
// is null, a record of another width is counted as undecodable.
func TestImportKafkaCSV(t *testing.T) {
	addr := kafkaWith(t, map[string][]string{"orders_csv": {
		"1,apple,2.5,true,2026-12-02 10:00:00",
		"2,,3,false,2026-12-02 10:00:01.5",
		"3,pear,4.75",
		"4,plum,1,true,2026-12-02 10:00:02",
	}})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	imp, err := localrun.ImportKafka(ctx, api.KafkaImportRequest{Name: "fruit", Brokers: addr, Topic: "orders_csv", Format: "csv", Records: 10})
	if err != nil {
		t.Fatal(err)
	}
	want := "CREATE TABLE `fruit` (\n  `f0` BIGINT NOT NULL,\n  `f1` STRING,\n  `f2` DOUBLE NOT NULL,\n  `f3` BOOLEAN NOT NULL,\n  `f4` TIMESTAMP(3) NOT NULL\n) WITH (\n" +
		"  'connector' = 'kafka',\n  'topic' = 'orders_csv',\n  'properties.bootstrap.servers' = '" + addr + "',\n  'format' = 'csv',\n  'scan.startup.mode' = 'latest-offset'\n)"
	if imp.SQL != want {
		t.Errorf("DDL:\n%s\nwant\n%s", imp.SQL, want)
	}
	if imp.Records != 3 || imp.Undecodable != 1 || !strings.Contains(imp.FirstError, "3 CSV fields, the records before had 5") {
		t.Errorf("records %d, undecodable %d (%s)", imp.Records, imp.Undecodable, imp.FirstError)
	}
	// A topic none of whose records decode is an error that says why.
	_, err = localrun.ImportKafka(ctx, api.KafkaImportRequest{Name: "x", Brokers: addr, Topic: "orders_csv", Format: "json"})
	if err == nil || !strings.Contains(err.Error(), "none of the 4 records decodes as json") {
		t.Errorf("csv read as json: %v", err)
	}
}

// kafkaAnswering is a kfake cluster with one topic of records whose
// brokers answer requests of key as answer says (handled false: as Kafka
// would).
func kafkaAnswering(t *testing.T, key int16, answer func(kmsg.Request) (kmsg.Response, bool)) string {
	t.Helper()
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, "clicks"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	addr := c.ListenAddrs()[0]
	cl, err := kgo.NewClient(kgo.SeedBrokers(addr))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := cl.ProduceSync(ctx, &kgo.Record{Topic: "clicks", Value: []byte(`{"url": "/a"}`)}).FirstErr(); err != nil {
		t.Fatal(err)
	}
	c.ControlKey(key, func(req kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		resp, handled := answer(req)
		return resp, nil, handled
	})
	return addr
}

// TestImportKafkaNamesProtocolErrors: a broker that answers with a Kafka
// error code did answer: the import says which error it answered which
// request with, never that no broker answered, and fails at once.
func TestImportKafkaNamesProtocolErrors(t *testing.T) {
	denied := kerr.TopicAuthorizationFailed.Code
	cases := []struct {
		name   string
		key    int16
		answer func(kmsg.Request) (kmsg.Response, bool)
		want   string
	}{
		{"the handshake refused", int16(kmsg.ApiVersions), func(req kmsg.Request) (kmsg.Response, bool) {
			resp := req.ResponseKind().(*kmsg.ApiVersionsResponse)
			resp.ErrorCode = kerr.ClusterAuthorizationFailed.Code
			return resp, true
		}, "a broker answered the ApiVersions request with error CLUSTER_AUTHORIZATION_FAILED (code 31)"},
		{"the topic's metadata denied (an ACL)", int16(kmsg.Metadata), func(req kmsg.Request) (kmsg.Response, bool) {
			m := req.(*kmsg.MetadataRequest)
			if len(m.Topics) == 0 {
				return nil, false
			}
			resp := m.ResponseKind().(*kmsg.MetadataResponse)
			for _, rt := range m.Topics {
				t := kmsg.NewMetadataResponseTopic()
				t.Topic, t.TopicID, t.ErrorCode = rt.Topic, rt.TopicID, denied
				resp.Topics = append(resp.Topics, t)
			}
			return resp, true
		}, "a broker answered the Metadata request for topic clicks with error TOPIC_AUTHORIZATION_FAILED (code 29)"},
		{"the fetch denied", int16(kmsg.Fetch), func(req kmsg.Request) (kmsg.Response, bool) {
			f := req.(*kmsg.FetchRequest)
			resp := f.ResponseKind().(*kmsg.FetchResponse)
			for _, ft := range f.Topics {
				rt := kmsg.NewFetchResponseTopic()
				rt.Topic, rt.TopicID = ft.Topic, ft.TopicID
				for _, fp := range ft.Partitions {
					p := kmsg.NewFetchResponseTopicPartition()
					p.Partition, p.ErrorCode = fp.Partition, denied
					rt.Partitions = append(rt.Partitions, p)
				}
				resp.Topics = append(resp.Topics, rt)
			}
			return resp, true
		}, "a broker answered reading partition 0 of topic clicks (Fetch, or the ListOffsets before it) with error TOPIC_AUTHORIZATION_FAILED (code 29)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			addr := kafkaAnswering(t, c.key, c.answer)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			began := time.Now()
			_, err := localrun.ImportKafka(ctx, api.KafkaImportRequest{Name: "clicks", Brokers: addr, Topic: "clicks"})
			if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "no broker answered") {
				t.Errorf("import: %v\nwant it to say %q", err, c.want)
			}
			if took := time.Since(began); took > 10*time.Second {
				t.Errorf("the import took %s to give up", took)
			}
		})
	}
	// A topic the brokers do not have is named at once, and not created.
	t.Run("no such topic", func(t *testing.T) {
		addr := kafkaAnswering(t, int16(kmsg.Metadata), func(kmsg.Request) (kmsg.Response, bool) { return nil, false })
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		began := time.Now()
		_, err := localrun.ImportKafka(ctx, api.KafkaImportRequest{Name: "clicks", Brokers: addr, Topic: "clickz"})
		want := "a broker answered the Metadata request for topic clickz with error UNKNOWN_TOPIC_OR_PARTITION (code 3)"
		if err == nil || !strings.Contains(err.Error(), want) || time.Since(began) > 10*time.Second {
			t.Errorf("import of a missing topic: %v (after %s)\nwant it to say %q", err, time.Since(began), want)
		}
	})
}
