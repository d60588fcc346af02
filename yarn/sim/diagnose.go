package sim

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"
)

// The figures behind the diagnostic endpoints: a checkpoint's parts per
// subtask (one of them slow), TaskManager memory and garbage collection,
// thread dumps and flame graphs. Like the metrics, each is a pure function
// of the job's seed, its Diagnosis and the time, so nothing is stored.

// part is one subtask's share of a checkpoint (ms and bytes).
type part struct {
	startDelay, alignment, sync, async, e2e int64
	size, stateSize                         int64
	ack                                     time.Time
}

// slowPart is the vertex and subtask whose checkpoint part is the slowest:
// the Diagnosis's, else one the seed picks.
func (j *job) slowPart() (vertex, subtask int) {
	if d := j.diag; d != nil && d.SlowCheckpoint > 0 {
		return d.SlowVertex, d.SlowSubtask
	}
	v := int(noise(j.seed, 120) * float64(len(j.vertices)))
	return v, int(noise(j.seed, 121) * float64(j.vertices[v].parallelism))
}

// checkpointPart is subtask s of vertex v's part of cp: the slow part takes
// the whole checkpoint, mostly in its asynchronous phase; the others a
// fraction of it.
func (j *job) checkpointPart(cp *checkpoint, v *vertex, s int) part {
	total := max(cp.ack.Sub(cp.trigger).Milliseconds(), 4)
	k := uint64(cp.id)*7919 + uint64(v.idx)*131 + uint64(s)
	sv, ss := j.slowPart()
	var p part
	if v.idx == sv && s == ss {
		p.e2e = total
		p.startDelay = 1 + int64(noise(j.seed, k+1)*float64(total)/50)
		p.alignment = int64(noise(j.seed, k+2) * float64(total) / 40)
		p.sync = 2 + int64(noise(j.seed, k+3)*30)
	} else {
		p.e2e = max(int64((0.05+0.3*noise(j.seed, k))*float64(total)), 3)
		p.startDelay = int64(noise(j.seed, k+1) * float64(p.e2e) / 8)
		p.alignment = int64(noise(j.seed, k+2) * float64(p.e2e) / 8)
		p.sync = 1 + int64(noise(j.seed, k+3)*float64(min(p.e2e, 20))/2)
	}
	p.async = max(p.e2e-p.startDelay-p.alignment-p.sync, 0)
	parts := int64(max(cp.subtasks, 1))
	p.size = cp.size / parts
	if v.idx == sv && s == ss {
		p.size *= 3 // the slow part uploads the most
	}
	p.stateSize = p.size * 2
	p.ack = cp.trigger.Add(time.Duration(p.e2e) * time.Millisecond)
	return p
}

// acknowledged reports whether subtask s of v acknowledged cp: every one
// of a completed checkpoint, about half of a failed or pending one.
func (j *job) acknowledged(cp *checkpoint, v *vertex, s int) bool {
	if cp.status == "COMPLETED" {
		return true
	}
	return noise(j.seed, uint64(cp.id)*31+uint64(v.idx)*7+uint64(s)) < 0.5
}

// tmFigures are one TaskManager's JVM figures at t.
type tmFigures struct {
	heapUsed, heapMax, nonHeapUsed, directUsed int64
	youngCount, youngTime, oldCount, oldTime   int64
	cpuLoad                                    float64
}

// tmFigures computes TaskManager i's figures: a TaskManager that hosts a
// hot subtask or the bottleneck works harder and collects more garbage.
func (x *jmReq) tmFigures(i int, id string) tmFigures {
	a := x.a
	seed := a.seed ^ uint64(i+1)*0x9e37
	up := max(x.now.Sub(a.submitted).Seconds(), 1)
	load := 0.2 + 0.3*noise(seed, 1)
	for _, j := range a.jobs {
		if j.state != jobRunning {
			continue
		}
		for _, v := range j.vertices {
			if hot, f := j.skew(v); f > 1 && x.tmFor(hot) == id {
				load = math.Min(1, load+0.5)
			}
			if v.idx == j.bottleneck && j.pressure(x.now) > 0.3 && x.tmFor(0) == id {
				load = math.Min(1, load+0.3)
			}
		}
	}
	heapMax := int64(803209216)
	f := tmFigures{heapMax: heapMax, cpuLoad: load}
	f.heapUsed = int64(float64(heapMax) * (0.25 + 0.6*load*(0.8+0.2*noise(seed, uint64(x.now.Unix()/10)))))
	f.nonHeapUsed = 96<<20 + int64(noise(seed, 2)*(40<<20))
	f.directUsed = 268435460
	f.youngCount = int64(up * (0.05 + 0.4*load))
	f.youngTime = f.youngCount * (8 + int64(40*load))
	f.oldCount = int64(up * 0.0005 * load * load)
	f.oldTime = f.oldCount * (300 + int64(900*load))
	return f
}

// Flame graph samples: Flink takes rest.flamegraph.num-samples (100) per
// subtask; the first request starts the sampling, which takes a while.
const (
	flameSamples = 100
	dFlameSample = 2 * time.Second
)

// flameNode is one frame in VertexFlameGraph's field order.
type flameNode struct {
	Name     string       `json:"name"`
	Value    int          `json:"value"`
	Children []*flameNode `json:"children"`
}

func (n *flameNode) child(name string) *flameNode {
	for _, c := range n.Children {
		if c.Name == name {
			return c
		}
	}
	c := &flameNode{Name: name, Children: []*flameNode{}}
	n.Children = append(n.Children, c)
	return c
}

// add records samples through a stack given root first.
func (n *flameNode) add(samples int, stack ...string) {
	n.Value += samples
	cur := n
	for _, f := range stack {
		cur = cur.child(f)
		cur.Value += samples
	}
}

// Frames every task thread shares, from the thread down to the operator.
var taskFrames = []string{
	"java.lang.Thread.run:840",
	"org.apache.flink.runtime.taskmanager.Task.run:569",
	"org.apache.flink.runtime.taskmanager.Task.doRun:958",
	"org.apache.flink.runtime.taskmanager.Task.restoreAndInvoke:937",
	"org.apache.flink.streaming.runtime.tasks.StreamTask.invoke:806",
	"org.apache.flink.streaming.runtime.tasks.StreamTask.runMailboxLoop:936",
	"org.apache.flink.streaming.runtime.tasks.mailbox.MailboxProcessor.runMailboxLoop:231",
}

var inputFrames = []string{
	"org.apache.flink.streaming.runtime.tasks.StreamTask.processInput:569",
	"org.apache.flink.streaming.runtime.io.StreamOneInputProcessor.processInput:65",
	"org.apache.flink.streaming.runtime.io.AbstractStreamTaskNetworkInput.emitNext:118",
	"org.apache.flink.streaming.runtime.io.AbstractStreamTaskNetworkInput.processElement:163",
	"org.apache.flink.streaming.runtime.tasks.OneInputStreamTask$StreamTaskNetworkOutput.emitRecord:237",
}

var sourceFrames = []string{
	"org.apache.flink.streaming.runtime.tasks.StreamTask.processInput:569",
	"org.apache.flink.streaming.runtime.io.StreamMultipleInputProcessor.processInput:85",
	"org.apache.flink.streaming.runtime.io.StreamTaskSourceInput.emitNext:68",
	"org.apache.flink.streaming.api.operators.SourceOperator.emitNext:425",
	"org.apache.flink.connector.base.source.reader.SourceReaderBase.pollNext:160",
}

var bufferWait = []string{
	"org.apache.flink.runtime.io.network.api.writer.RecordWriter.emit:108",
	"org.apache.flink.runtime.io.network.partition.BufferWritingResultPartition.emitRecord:104",
	"org.apache.flink.runtime.io.network.partition.BufferWritingResultPartition.requestNewUnicastBufferBuilder:337",
	"org.apache.flink.runtime.io.network.buffer.LocalBufferPool.requestBufferBuilderBlocking:354",
	"org.apache.flink.runtime.io.network.buffer.LocalBufferPool.requestMemorySegmentBlocking:385",
	"java.util.concurrent.CompletableFuture.get:2096",
	"java.util.concurrent.CompletableFuture.waitingGet:1871",
	"java.util.concurrent.locks.LockSupport.park:211",
	"jdk.internal.misc.Unsafe.park:-2",
}

var mailboxWait = []string{
	"org.apache.flink.streaming.runtime.tasks.mailbox.MailboxProcessor.processMail:393",
	"org.apache.flink.streaming.runtime.tasks.mailbox.TaskMailboxImpl.take:149",
	"java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await:1625",
	"java.util.concurrent.locks.LockSupport.park:341",
	"jdk.internal.misc.Unsafe.park:-2",
}

// operatorStacks are what a vertex's task threads do, by kind of work: on
// the CPU (runnable) and off it (waiting), as stacks below taskFrames.
func operatorStacks(v *vertex) (on, off [][]string) {
	switch {
	case v.role == roleSource:
		read := append(append([]string{}, sourceFrames...),
			"org.apache.flink.connector.kafka.source.reader.KafkaPartitionSplitReader.fetch:104",
			"org.apache.kafka.clients.consumer.KafkaConsumer.poll:1230",
			"org.apache.kafka.common.record.DefaultRecordBatch$1.readNext:640")
		emit := append(append([]string{}, sourceFrames...),
			"org.apache.flink.connector.base.source.reader.SourceReaderBase.pollNext:174",
			"org.apache.flink.table.runtime.operators.calc.StreamExecCalc$42.processElement:88",
			"org.apache.flink.formats.json.JsonRowDataDeserializationSchema.deserialize:131",
			"com.fasterxml.jackson.databind.ObjectMapper.readTree:3133")
		return [][]string{read, emit}, [][]string{append(append([]string{}, sourceFrames...), bufferWait...)}
	case v.lookup:
		join := append(append([]string{}, inputFrames...),
			"org.apache.flink.streaming.api.operators.async.AsyncWaitOperator.processElement:216",
			"org.apache.flink.table.runtime.operators.join.lookup.AsyncLookupJoinRunner.asyncInvoke:132",
			"org.apache.flink.connector.jdbc.table.JdbcRowDataLookupFunction.lookup:182",
			"org.postgresql.jdbc.PgPreparedStatement.executeQuery:134")
		wait := append(append([]string{}, inputFrames...),
			"org.apache.flink.streaming.api.operators.async.AsyncWaitOperator.processElement:216",
			"org.apache.flink.streaming.api.operators.async.AsyncWaitOperator.addToWorkQueue:375",
			"org.apache.flink.streaming.runtime.tasks.mailbox.MailboxExecutorImpl.yield:86",
			"org.apache.flink.streaming.runtime.tasks.mailbox.TaskMailboxImpl.take:149",
			"java.util.concurrent.locks.LockSupport.park:341",
			"jdk.internal.misc.Unsafe.park:-2")
		return [][]string{join}, [][]string{wait}
	case v.role == roleSink:
		write := append(append([]string{}, inputFrames...),
			"org.apache.flink.streaming.runtime.operators.sink.SinkWriterOperator.processElement:161",
			"org.apache.flink.connector.kafka.sink.KafkaWriter.write:209",
			"org.apache.kafka.clients.producer.KafkaProducer.send:964",
			"org.apache.kafka.common.serialization.ByteArraySerializer.serialize:35")
		return [][]string{write}, nil
	}
	calc := append(append([]string{}, inputFrames...),
		"org.apache.flink.table.runtime.operators.calc.StreamExecCalc$87.processElement:112",
		"org.apache.flink.table.data.binary.BinaryStringData.toString:108")
	agg := append(append([]string{}, inputFrames...),
		"org.apache.flink.table.runtime.operators.aggregate.GroupAggFunction.processElement:148",
		"org.apache.flink.contrib.streaming.state.RocksDBValueState.value:83",
		"org.rocksdb.RocksDB.get:-2")
	return [][]string{calc, agg}, nil
}

// flameGraph builds a vertex's flame graph of the given type (FULL,
// ON_CPU, OFF_CPU) at t, from how busy, backpressured and idle its
// subtasks are; with Diagnosis.FlameFrames, a synthetic graph that large.
func (j *job) flameGraph(v *vertex, typ string, subtask int, t time.Time) *flameNode {
	root := &flameNode{Name: "root", Children: []*flameNode{}}
	on, off := operatorStacks(v)
	subs := []int{subtask}
	if subtask < 0 {
		subs = subs[:0]
		for s := 0; s < v.parallelism; s++ {
			subs = append(subs, s)
		}
	}
	for _, s := range subs {
		f := j.figures(v, s, t)
		busy := int(math.Round(f.busy / 1000 * flameSamples))
		bp := int(math.Round(f.backpressured / 1000 * flameSamples))
		idle := max(flameSamples-busy-bp, 0)
		if typ != "OFF_CPU" {
			for k, st := range on {
				n := busy / len(on)
				if k == 0 {
					n += busy % len(on)
				}
				if n > 0 {
					root.add(n, append(append([]string{}, taskFrames...), st...)...)
				}
			}
		}
		if typ != "ON_CPU" {
			if bp > 0 {
				root.add(bp, append(append(append([]string{}, taskFrames...), inputFrames...), bufferWait...)...)
			}
			waiting := idle
			for _, st := range off {
				root.add(waiting/2, append(append([]string{}, taskFrames...), st...)...)
				waiting -= waiting / 2
			}
			if waiting > 0 {
				root.add(waiting, append(append([]string{}, taskFrames...), mailboxWait...)...)
			}
		}
	}
	if d := j.diag; d != nil && d.FlameFrames > 0 {
		synthetic(root, d.FlameFrames)
	}
	return root
}

// synthetic grows root to about n frames: a few deep stacks, many leaves.
func synthetic(root *flameNode, n int) {
	base := root.child("org.example.Synthetic.run:1")
	count := 1
	parent := base
	for d := 0; d < 60 && count < n; d++ {
		parent = parent.child(fmt.Sprintf("org.example.udf.Deep%02d.eval:%d", d, 10+d))
		parent.Value = n
		count++
	}
	for i := 0; count < n; i++ { // distinct names: appended, not looked up
		parent.Children = append(parent.Children, &flameNode{Name: fmt.Sprintf("org.example.udf.Leaf%05d.call:%d", i, i%900+1),
			Value: 1, Children: []*flameNode{}})
		count++
	}
	base.Value = n
	root.Value += n
}

// threadInfo is one entry of ThreadDumpInfo.
type threadInfo struct {
	ThreadName            string `json:"threadName"`
	StringifiedThreadInfo string `json:"stringifiedThreadInfo"`
}

// threadDump is TaskManager id's threads at t: one task thread per
// subtask it runs (waiting where its vertex waits), and the usual others.
func (x *jmReq) threadDump(id string) []threadInfo {
	var out []threadInfo
	n := 30
	add := func(name, state string, stack ...string) {
		var b strings.Builder
		fmt.Fprintf(&b, "%q Id=%d %s\n", name, n, state)
		for _, f := range stack {
			b.WriteString("\tat ")
			b.WriteString(javaFrame(f))
			b.WriteByte('\n')
		}
		b.WriteByte('\n')
		out = append(out, threadInfo{ThreadName: name, StringifiedThreadInfo: b.String()})
		n++
	}
	pad := 0
	for _, j := range x.a.jobs {
		if j.state != jobRunning {
			continue
		}
		if d := j.diag; d != nil {
			pad = max(pad, d.ThreadDumpBytes)
		}
		for _, v := range j.vertices {
			on, off := operatorStacks(v)
			for s := 0; s < v.parallelism; s++ {
				if x.tmFor(s) != id {
					continue
				}
				name := fmt.Sprintf("%s (%d/%d)#%d", v.name, s+1, v.parallelism, j.restarts)
				f := j.figures(v, s, x.now)
				switch {
				case f.backpressured > f.busy:
					add(name, "WAITING on java.util.concurrent.CompletableFuture$Signaller@5b1e0a3c",
						reverse(append(append(append([]string{}, taskFrames...), inputFrames...), bufferWait...))...)
				case len(off) > 0 && f.idle > f.busy:
					add(name, "WAITING on java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject@2f1e8a41",
						reverse(append(append([]string{}, taskFrames...), off[0]...))...)
				default:
					add(name, "RUNNABLE", reverse(append(append([]string{}, taskFrames...), on[0]...))...)
				}
			}
		}
	}
	add("Flink Netty Server (0) Thread 0", "RUNNABLE",
		"org.apache.flink.shaded.netty4.io.netty.channel.epoll.Native.epollWait:-2",
		"org.apache.flink.shaded.netty4.io.netty.channel.epoll.EpollEventLoop.run:306",
		"java.lang.Thread.run:840")
	add("flink-pekko.actor.default-dispatcher-4", "WAITING on java.util.concurrent.ForkJoinPool@6d1e7682",
		"jdk.internal.misc.Unsafe.park:-2", "java.util.concurrent.ForkJoinPool.awaitWork:1724",
		"java.util.concurrent.ForkJoinWorkerThread.run:165")
	add("Time Trigger for Source: orders[1]", "TIMED_WAITING on java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject@4c2b1f8e",
		"jdk.internal.misc.Unsafe.park:-2", "java.util.concurrent.ScheduledThreadPoolExecutor$DelayedWorkQueue.take:1182",
		"java.lang.Thread.run:840")
	add("GC Thread#0", "RUNNABLE")
	size := 0
	for _, t := range out {
		size += jsonLen(t)
	}
	for k := 0; size < pad; k++ {
		add(fmt.Sprintf("pool-%d-thread-%d", 3+k/64, 1+k%64), "TIMED_WAITING on java.util.concurrent.SynchronousQueue$TransferStack@1b2c3d4e",
			"jdk.internal.misc.Unsafe.park:-2", "java.util.concurrent.locks.LockSupport.parkNanos:252",
			"java.util.concurrent.SynchronousQueue$TransferStack.transfer:401",
			"java.util.concurrent.ThreadPoolExecutor.getTask:1061", "java.util.concurrent.ThreadPoolExecutor.runWorker:1122",
			"java.lang.Thread.run:840")
		size += jsonLen(out[len(out)-1])
	}
	return out
}

// jsonLen is how many bytes a thread takes in the JSON answer.
func jsonLen(t threadInfo) int {
	b, _ := json.Marshal(t)
	return len(b) + 1
}

// javaFrame turns a flame frame ("a.b.C.m:12") into a stack trace line
// ("a.b.C.m(C.java:12)"; line -2 is native).
func javaFrame(f string) string {
	i := strings.LastIndexByte(f, ':')
	if i < 0 {
		return f
	}
	method, line := f[:i], f[i+1:]
	if line == "-2" {
		return method + "(Native Method)"
	}
	cls := method[:max(strings.LastIndexByte(method, '.'), 0)]
	file := cls[strings.LastIndexByte(cls, '.')+1:]
	if k := strings.IndexByte(file, '$'); k >= 0 {
		file = file[:k]
	}
	return method + "(" + file + ".java:" + line + ")"
}

func reverse(s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[len(s)-1-i] = x
	}
	return out
}
