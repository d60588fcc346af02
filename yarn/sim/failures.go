package sim

import (
	"strconv"
	"strings"
	"time"
)

// Task failures as Java prints them: the exception a task fails with,
// wrapped the way Flink and the connectors wrap it, each "Caused by:" with
// its own frames. The failure messages are the innermost causes.

// wrappers say what wraps each kind of innermost cause, outermost first:
// the exception and the frames below its first line.
var wrappers = []struct {
	match  string // a substring of the innermost cause
	wrap   []string
	frames [][]string
}{
	{"org.apache.kafka.common.errors.TimeoutException",
		[]string{"java.lang.RuntimeException: One or more fetchers have encountered exception"},
		[][]string{{"org.apache.flink.connector.base.source.reader.fetcher.SplitFetcherManager.checkErrors(SplitFetcherManager.java:263)",
			"org.apache.flink.connector.base.source.reader.SourceReaderBase.getNextFetch(SourceReaderBase.java:185)",
			"org.apache.flink.connector.base.source.reader.SourceReaderBase.pollNext(SourceReaderBase.java:147)",
			"org.apache.flink.streaming.api.operators.SourceOperator.emitNext(SourceOperator.java:425)"}}},
	{"java.io.IOException: Connection reset by peer",
		[]string{"org.apache.flink.runtime.io.network.netty.exception.LocalTransportException: Connection reset by peer (connection to '127.0.0.1/127.0.0.1:36001')"},
		[][]string{{"org.apache.flink.runtime.io.network.netty.CreditBasedPartitionRequestClientHandler.exceptionCaught(CreditBasedPartitionRequestClientHandler.java:168)",
			"org.apache.flink.shaded.netty4.io.netty.channel.AbstractChannelHandlerContext.invokeExceptionCaught(AbstractChannelHandlerContext.java:346)"}}},
	{"java.util.concurrent.TimeoutException: Async function call has timed out.",
		[]string{"java.lang.Exception: Could not complete the stream element: Record @ (undef) : +I(1042,42.50,2024-11-28T09:01:02)."},
		[][]string{{"org.apache.flink.streaming.api.operators.async.AsyncWaitOperator$ResultHandler.completeExceptionally(AsyncWaitOperator.java:434)",
			"org.apache.flink.table.runtime.operators.join.lookup.AsyncLookupJoinRunner$JoinedRowResultFuture.completeExceptionally(AsyncLookupJoinRunner.java:257)",
			"org.apache.flink.streaming.api.functions.async.AsyncFunction.timeout(AsyncFunction.java:97)",
			"org.apache.flink.streaming.api.operators.async.AsyncWaitOperator$ResultHandler.timerTriggered(AsyncWaitOperator.java:393)"}}},
	{"Exceeded checkpoint tolerable failure threshold",
		nil, nil},
	{"java.lang.NullPointerException",
		[]string{"org.apache.flink.streaming.runtime.tasks.ExceptionInChainedOperatorException: Could not forward element to next operator"},
		[][]string{{"org.apache.flink.streaming.runtime.tasks.ChainingOutput.pushToOperator(ChainingOutput.java:92)",
			"org.apache.flink.streaming.runtime.tasks.ChainingOutput.collect(ChainingOutput.java:50)",
			"org.apache.flink.streaming.api.operators.CountingOutput.collect(CountingOutput.java:52)"}}},
}

// innerFrames are the frames of each innermost cause.
var innerFrames = map[string][]string{
	"org.apache.kafka.common.errors.TimeoutException": {
		"org.apache.kafka.clients.consumer.internals.Fetcher.getOffsetsByTimes(Fetcher.java:512)",
		"org.apache.flink.connector.kafka.source.reader.KafkaPartitionSplitReader.fetch(KafkaPartitionSplitReader.java:104)"},
	"java.io.IOException": {
		"java.base/sun.nio.ch.SocketDispatcher.read0(Native Method)",
		"java.base/sun.nio.ch.IOUtil.read(IOUtil.java:276)"},
	"java.util.concurrent.TimeoutException": {
		"org.apache.flink.streaming.api.functions.async.AsyncFunction.timeout(AsyncFunction.java:97)",
		"org.apache.flink.streaming.api.operators.async.AsyncWaitOperator$ResultHandler.timerTriggered(AsyncWaitOperator.java:393)",
		"org.apache.flink.streaming.runtime.tasks.StreamTask.invokeProcessingTimeCallback(StreamTask.java:1866)"},
	"org.apache.flink.util.FlinkRuntimeException": {
		"org.apache.flink.runtime.checkpoint.CheckpointFailureManager.checkFailureAgainstCounter(CheckpointFailureManager.java:212)",
		"org.apache.flink.runtime.checkpoint.CheckpointCoordinator.abortPendingCheckpoint(CheckpointCoordinator.java:2212)"},
	"java.lang.NullPointerException": {
		"com.example.orders.EnrichFunction.map(EnrichFunction.java:41)",
		"org.apache.flink.streaming.api.operators.StreamMap.processElement(StreamMap.java:38)"},
}

// taskFramesText are the frames every task failure ends in.
var taskFramesText = []string{
	"org.apache.flink.streaming.runtime.tasks.StreamTask.processInput(StreamTask.java:569)",
	"org.apache.flink.streaming.runtime.tasks.mailbox.MailboxProcessor.runMailboxLoop(MailboxProcessor.java:231)",
	"org.apache.flink.streaming.runtime.tasks.StreamTask.invoke(StreamTask.java:810)",
	"org.apache.flink.runtime.taskmanager.Task.doRun(Task.java:953)",
	"org.apache.flink.runtime.taskmanager.Task.run(Task.java:566)",
	"java.base/java.lang.Thread.run(Thread.java:829)",
}

// failureTrace is the stack trace of a task that failed with cause msg:
// its wrappers, then "Caused by:" msg with its own frames.
func failureTrace(msg string) string {
	var b strings.Builder
	frames := func(fs []string, more int) {
		for _, f := range fs {
			b.WriteString("\tat ")
			b.WriteString(f)
			b.WriteByte('\n')
		}
		if more > 0 {
			b.WriteString("\t... ")
			b.WriteString(strconv.Itoa(more))
			b.WriteString(" more\n")
		}
	}
	first := true
	for _, w := range wrappers {
		if !strings.Contains(msg, w.match) {
			continue
		}
		for i, line := range w.wrap {
			if !first {
				b.WriteString("Caused by: ")
			}
			b.WriteString(line)
			b.WriteByte('\n')
			frames(w.frames[i], 0)
			if first {
				frames(taskFramesText, 0)
			}
			first = false
		}
		break
	}
	if !first {
		b.WriteString("Caused by: ")
	}
	b.WriteString(msg)
	b.WriteByte('\n')
	class := msg
	if i := strings.Index(msg, ":"); i > 0 {
		class = msg[:i]
	}
	frames(innerFrames[class], 0)
	if first {
		frames(taskFramesText, 0)
	} else {
		b.WriteString("\t... " + strconv.Itoa(len(taskFramesText)) + " more\n")
	}
	return b.String()
}

// suppressedTrace is the job's failure once its restart strategy gave up:
// Flink's JobException wrapping the task's failure (and its causes).
func suppressedTrace(restarts int, taskTrace string) string {
	return "org.apache.flink.runtime.JobException: Recovery is suppressed by FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=" +
		strconv.Itoa(restarts) + ", backoffTimeMS=1000)\n" +
		"\tat org.apache.flink.runtime.executiongraph.failover.ExecutionFailureHandler.handleFailure(ExecutionFailureHandler.java:180)\n" +
		"\tat org.apache.flink.runtime.executiongraph.failover.ExecutionFailureHandler.getFailureHandlingResult(ExecutionFailureHandler.java:107)\n" +
		"\tat org.apache.flink.runtime.scheduler.DefaultScheduler.recordTaskFailure(DefaultScheduler.java:277)\n" +
		"\tat org.apache.flink.runtime.scheduler.SchedulerBase.updateTaskExecutionState(SchedulerBase.java:806)\n" +
		"Caused by: " + taskTrace
}

// failingVertex is where a failure with msg happens: an async timeout in
// the lookup join, a Kafka timeout in the source, else a vertex the seed
// picks.
func (j *job) failingVertex(msg string) *vertex {
	for _, v := range j.vertices {
		if strings.Contains(msg, "Async function") && v.lookup ||
			strings.Contains(msg, "kafka") && v.role == roleSource {
			return v
		}
	}
	return j.vertices[int(noise(j.seed, uint64(j.totalRestarts)+5)*float64(len(j.vertices)))]
}

// recordTask adds a task failure of subtask s of v to the exception
// history, with where it ran and, when another subtask failed with it,
// that one as a concurrent exception.
func (j *job) recordTask(t time.Time, msg string, v *vertex, s int) {
	trace := failureTrace(msg)
	e := j.taskException(t, msg, trace, v, s)
	if v.parallelism > 1 && noise(j.seed, uint64(j.totalRestarts)+77) < 0.5 {
		other := (s + 1) % v.parallelism
		e.concurrent = append(e.concurrent, j.taskException(t.Add(12*time.Millisecond), msg, trace, v, other))
	}
	j.push(e)
}

// taskException is the exception of subtask s of v.
func (j *job) taskException(t time.Time, msg, trace string, v *vertex, s int) exception {
	name := msg
	if i := strings.Index(msg, ":"); i > 0 {
		name = msg[:i]
	}
	e := exception{at: t, name: name, trace: trace,
		task: v.name + " (" + strconv.Itoa(s+1) + "/" + strconv.Itoa(v.parallelism) + ")#" + strconv.Itoa(j.restarts)}
	if len(j.app.attempts) > 0 {
		n := max(j.app.containers()-1, 1)
		tm := (s / slotsPerTM) % n
		host := "127.0.0.1"
		if j.app.jm != nil {
			host = j.app.jm.addr[:strings.LastIndexByte(j.app.jm.addr, ':')]
		}
		e.tm = containerID(j.app, len(j.app.attempts), tm+2)
		e.endpoint = host + ":" + strconv.Itoa(36000+tm)
	}
	return e
}

// push adds e to the history, newest first, keeping 16.
func (j *job) push(e exception) {
	j.exceptions = append([]exception{e}, j.exceptions...)
	if len(j.exceptions) > 16 {
		j.exceptions = j.exceptions[:16]
	}
}
