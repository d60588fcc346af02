package localrun

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/flinksql/ast"
)

// Debug data sampled from Kafka: the last N records of a source table's
// topic, read with the table's own options, decoded with its schema, and
// written as the JSON lines a debug run reads (and a fixture keeps).

// sampleTimeout bounds a sample's talk with brokers that do not answer.
const sampleTimeout = 15 * time.Second

// sampleQuiet is how long a sample waits for more records once none come.
const sampleQuiet = 700 * time.Millisecond

// takeSamples reads each requested table's sample into a JSON lines file
// (in dir, or a temporary one) and gives the run that file.
func takeSamples(ctx context.Context, script *flinksql.Script, r *api.DebugRequest) ([]api.DebugSample, func(), error) {
	cleanup := func() {}
	if len(r.Samples) == 0 {
		return nil, cleanup, nil
	}
	dir := r.SaveSamples
	if dir == "" {
		tmp, err := os.MkdirTemp("", "palink-sample-")
		if err != nil {
			return nil, cleanup, err
		}
		dir, cleanup = tmp, func() { os.RemoveAll(tmp) }
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, cleanup, fmt.Errorf("--save-sample %s: %w", dir, err)
	}
	tables := map[string]*ast.CreateTable{}
	if script != nil {
		for _, st := range script.Stmts {
			if ct, ok := st.(*ast.CreateTable); ok {
				tables[ct.Name.Last()] = ct
			}
		}
	}
	names := make([]string, 0, len(r.Samples))
	for t := range r.Samples {
		names = append(names, t)
	}
	sort.Strings(names)
	var out []api.DebugSample
	for _, name := range names {
		ct := tables[name]
		if ct == nil {
			return out, cleanup, fmt.Errorf("sample %s: the job defines no such table (nor does the catalog)", name)
		}
		n := r.Samples[name]
		if n <= 0 {
			n = api.DefaultSample
		}
		s, err := sampleKafka(ctx, name, flinksql.TableInfoOf(ct), n, filepath.Join(dir, name+".jsonl"))
		if err != nil {
			return out, cleanup, err
		}
		if r.Data == nil {
			r.Data = map[string]string{}
		}
		r.Data[name] = s.File
		if r.SaveSamples == "" {
			s.File = ""
		}
		out = append(out, s)
	}
	return out, cleanup, nil
}

// sampleKafka reads the last n records of the table's topic and writes
// those that decode to path.
func sampleKafka(ctx context.Context, table string, info *flinksql.TableInfo, n int, path string) (api.DebugSample, error) {
	op := "sample " + table
	o := info.Options
	if info.Connector != "kafka" && info.Connector != "upsert-kafka" {
		return api.DebugSample{}, fmt.Errorf("%s: a %q table; sampling reads Kafka tables", op, info.Connector)
	}
	brokers, topic := o["properties.bootstrap.servers"], o["topic"]
	if brokers == "" || topic == "" {
		return api.DebugSample{}, fmt.Errorf("%s: the table names no 'properties.bootstrap.servers' or 'topic'", op)
	}
	if strings.Contains(topic, ";") {
		return api.DebugSample{}, fmt.Errorf("%s: the table reads several topics (%s); sample one table per topic", op, topic)
	}
	format := o["format"]
	if format == "" {
		format = o["value.format"]
	}
	decode, err := decoder(format, info)
	if err != nil {
		return api.DebugSample{}, fmt.Errorf("%s: %w", op, err)
	}
	records, err := lastRecords(ctx, strings.Split(brokers, ","), topic, n)
	if err != nil {
		return api.DebugSample{}, fmt.Errorf("%s from topic %s at %s: %w", op, topic, brokers, err)
	}
	if len(records) == 0 {
		return api.DebugSample{}, fmt.Errorf("%s: topic %s at %s has no records", op, topic, brokers)
	}
	s := api.DebugSample{Table: table, Topic: topic, Format: format, File: path}
	var buf bytes.Buffer
	for _, rec := range records {
		row, err := decode(rec.Value)
		if err != nil {
			s.Undecodable++
			if s.FirstError == "" {
				s.FirstError = fmt.Sprintf("partition %d offset %d: %v", rec.Partition, rec.Offset, err)
			}
			continue
		}
		line, err := json.Marshal(row)
		if err != nil {
			return s, err
		}
		buf.Write(append(line, '\n'))
		s.Records++
	}
	if s.Records == 0 {
		return s, fmt.Errorf("%s: none of the %d records of topic %s decodes as %s (%s)", op, len(records), topic, format, s.FirstError)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return s, fmt.Errorf("%s: %w", op, err)
	}
	return s, nil
}

// decoder turns a record's value into a row of the table's physical
// columns, by the table's format.
func decoder(format string, info *flinksql.TableInfo) (func([]byte) (map[string]any, error), error) {
	var cols []string
	for _, c := range info.Columns {
		if c.Kind == ast.ColumnPhysical {
			cols = append(cols, c.Name)
		}
	}
	switch format {
	case "json":
		return func(v []byte) (map[string]any, error) {
			var row map[string]any
			d := json.NewDecoder(bytes.NewReader(v))
			d.UseNumber()
			if err := d.Decode(&row); err != nil {
				return nil, fmt.Errorf("not a JSON object: %v", err)
			}
			return row, nil
		}, nil
	case "csv":
		return func(v []byte) (map[string]any, error) {
			fields, err := csv.NewReader(bytes.NewReader(v)).Read()
			if err != nil {
				return nil, fmt.Errorf("not a CSV line: %v", err)
			}
			if len(fields) != len(cols) {
				return nil, fmt.Errorf("%d CSV fields for %d columns", len(fields), len(cols))
			}
			row := map[string]any{}
			for i, c := range cols {
				row[c] = fields[i]
			}
			return row, nil
		}, nil
	case "raw":
		if len(cols) != 1 {
			return nil, fmt.Errorf("format raw needs one physical column, the table has %d", len(cols))
		}
		return func(v []byte) (map[string]any, error) { return map[string]any{cols[0]: string(v)}, nil }, nil
	}
	return nil, fmt.Errorf("format %q: sampling decodes json, csv and raw", format)
}

// topicReadable asks the brokers for the topic's metadata first, so that
// a topic they deny (an ACL) or do not have is named as such, with the
// request it was refused on, instead of surfacing from the consumer's
// retries. Transient errors (a leader being elected) are left to them. It
// returns the topic's partitions.
func topicReadable(ctx context.Context, cl *kgo.Client, topic string) ([]int32, error) {
	req := kmsg.NewPtrMetadataRequest()
	t := kmsg.NewMetadataRequestTopic()
	t.Topic = kmsg.StringPtr(topic)
	req.Topics = []kmsg.MetadataRequestTopic{t}
	req.AllowAutoTopicCreation = false // reading must not create it
	request := "the Metadata request for topic " + topic
	resp, err := req.RequestWith(ctx, cl)
	if err != nil {
		return nil, kafkaRequestErr(err, request)
	}
	var parts []int32
	for _, rt := range resp.Topics {
		err := kerr.ErrorForCode(rt.ErrorCode)
		if err != nil && (!kerr.IsRetriable(err) || errors.Is(err, kerr.UnknownTopicOrPartition)) {
			answered, _ := kafkaAnswered(err, request)
			return nil, answered
		}
		for _, p := range rt.Partitions {
			parts = append(parts, p.Partition)
		}
	}
	return parts, nil
}

// partitionEnds returns, of each partition that holds records, the offset
// after its last one when the sample began (ListOffsets, latest and
// earliest): the sample is complete when it has read up to them all.
func partitionEnds(ctx context.Context, cl *kgo.Client, topic string, parts []int32) (map[int32]int64, error) {
	offsets := func(ts int64) (map[int32]int64, error) {
		req := kmsg.NewPtrListOffsetsRequest()
		req.ReplicaID = -1
		rt := kmsg.NewListOffsetsRequestTopic()
		rt.Topic = topic
		for _, p := range parts {
			rp := kmsg.NewListOffsetsRequestTopicPartition()
			rp.Partition, rp.Timestamp = p, ts
			rt.Partitions = append(rt.Partitions, rp)
		}
		req.Topics = []kmsg.ListOffsetsRequestTopic{rt}
		request := "the ListOffsets request for topic " + topic
		resp, err := req.RequestWith(ctx, cl)
		if err != nil {
			return nil, kafkaRequestErr(err, request)
		}
		out := map[int32]int64{}
		for _, t := range resp.Topics {
			for _, p := range t.Partitions {
				if err := kerr.ErrorForCode(p.ErrorCode); err != nil {
					answered, _ := kafkaAnswered(err, fmt.Sprintf("%s, partition %d", request, p.Partition))
					return nil, answered
				}
				out[p.Partition] = p.Offset
			}
		}
		return out, nil
	}
	latest, err := offsets(-1)
	if err != nil {
		return nil, err
	}
	earliest, err := offsets(-2)
	if err != nil {
		return nil, err
	}
	for p, end := range latest {
		if end <= earliest[p] {
			delete(latest, p) // empty: nothing to wait for
		}
	}
	return latest, nil
}

// lastRecords reads the last n records of a topic: from each partition
// its last n, then the n newest of them by time.
func lastRecords(ctx context.Context, brokers []string, topic string, n int) ([]*kgo.Record, error) {
	ctx, cancel := context.WithTimeout(ctx, sampleTimeout)
	defer cancel()
	cl, err := kgo.NewClient(kgo.SeedBrokers(brokers...), kgo.ConsumeTopics(topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtEnd().Relative(-int64(n))), kgo.DialTimeout(5*time.Second))
	if err != nil {
		return nil, err
	}
	defer cl.Close()
	if err := cl.Ping(ctx); err != nil {
		// Of Ping's requests only the connection's ApiVersions carries an
		// error code (palink configures no SASL).
		if answered, ok := kafkaAnswered(err, "the ApiVersions request"); ok {
			return nil, answered
		}
		return nil, fmt.Errorf("no broker answered within %s: %w", sampleTimeout, err)
	}
	parts, err := topicReadable(ctx, cl, topic)
	if err != nil {
		return nil, err
	}
	// Which partitions hold records, and up to where, is asked first: a
	// sample that ended when the partitions that answered were read, or
	// after a quiet spell, missed those whose fetch came late (a broker
	// under load) and took the newest records of the others for the
	// topic's.
	ends, err := partitionEnds(ctx, cl, topic, parts)
	if err != nil {
		return nil, err
	}
	var (
		out  []*kgo.Record
		next = map[int32]int64{} // next offset to read by partition, once it answered
	)
	done := func() bool {
		for p, end := range ends {
			if next[p] < end {
				return false
			}
		}
		return true
	}
	// Every partition with records has answered: past its last offset
	// there may be only a transaction's markers, which no fetch returns,
	// so a quiet spell ends the sample.
	allAnswered := func() bool {
		for p := range ends {
			if _, ok := next[p]; !ok {
				return false
			}
		}
		return true
	}
	for !done() {
		wait := sampleQuiet
		if !allAnswered() {
			wait = sampleTimeout // the overall deadline bounds it
		}
		pctx, pcancel := context.WithTimeout(ctx, wait)
		fs := cl.PollFetches(pctx)
		pcancel()
		if errs := fs.Errors(); len(errs) > 0 {
			if errors.Is(errs[0].Err, context.DeadlineExceeded) || errors.Is(errs[0].Err, context.Canceled) {
				if ctx.Err() != nil && len(out) == 0 {
					return nil, fmt.Errorf("topic %s gave no record within %s", topic, sampleTimeout)
				}
				break // quiet, or out of time: what came is all there is
			}
			fe := errs[0]
			request := fmt.Sprintf("reading partition %d of topic %s (Fetch, or the ListOffsets before it)", fe.Partition, topic)
			if fe.Partition < 0 {
				request = "the Metadata request for topic " + topic
			}
			if answered, ok := kafkaAnswered(fe.Err, request); ok {
				return nil, answered
			}
			return nil, fe.Err
		}
		fs.EachPartition(func(p kgo.FetchTopicPartition) {
			for _, r := range p.Records {
				out = append(out, r)
				next[p.Partition] = r.Offset + 1
			}
		})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].Timestamp.Equal(out[j].Timestamp) {
			return out[i].Timestamp.Before(out[j].Timestamp)
		}
		if out[i].Partition != out[j].Partition {
			return out[i].Partition < out[j].Partition
		}
		return out[i].Offset < out[j].Offset
	})
	if len(out) > n {
		out = out[len(out)-n:]
	}
	return out, nil
}
