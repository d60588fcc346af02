package builtin

// ConfigKeys are configuration keys commonly SET in Flink SQL scripts. A
// SET of a key Flink does not know is silently ignored, so the validator
// reports a key one typo away from one of these; completion offers them in
// SET '…'.
var ConfigKeys = []string{
	"pipeline.name", "pipeline.jars", "pipeline.classpaths", "pipeline.auto-watermark-interval",
	"pipeline.operator-chaining", "pipeline.object-reuse", "parallelism.default",
	"execution.runtime-mode", "execution.checkpointing.interval", "execution.checkpointing.mode",
	"execution.checkpointing.timeout", "execution.checkpointing.min-pause",
	"execution.checkpointing.max-concurrent-checkpoints",
	"execution.checkpointing.externalized-checkpoint-retention",
	"execution.checkpointing.tolerable-failed-checkpoints", "execution.checkpointing.unaligned",
	"execution.checkpointing.unaligned.enabled", "execution.savepoint.path",
	"execution.savepoint.ignore-unclaimed-state", "execution.savepoint-restore-mode",
	"state.backend", "state.backend.type", "state.backend.incremental", "state.checkpoints.dir",
	"state.savepoints.dir", "state.checkpoint-storage", "restart-strategy", "restart-strategy.type",
	"restart-strategy.fixed-delay.attempts", "restart-strategy.fixed-delay.delay",
	"restart-strategy.failure-rate.max-failures-per-interval",
	"restart-strategy.failure-rate.failure-rate-interval", "restart-strategy.failure-rate.delay",
	"yarn.application.queue", "yarn.application.name", "yarn.application.priority",
	"jobmanager.memory.process.size", "taskmanager.memory.process.size", "taskmanager.numberOfTaskSlots",
	"table.exec.state.ttl", "table.exec.mini-batch.enabled", "table.exec.mini-batch.allow-latency",
	"table.exec.mini-batch.size", "table.exec.sink.not-null-enforcer", "table.exec.sink.upsert-materialize",
	"table.exec.source.idle-timeout", "table.exec.async-lookup.buffer-capacity",
	"table.exec.async-lookup.timeout", "table.exec.async-lookup.output-mode",
	"table.exec.resource.default-parallelism", "table.exec.source.cdc-events-duplicate",
	"table.exec.emit.early-fire.enabled", "table.exec.emit.early-fire.delay",
	"table.optimizer.agg-phase-strategy", "table.optimizer.distinct-agg.split.enabled",
	"table.optimizer.join-reorder-enabled", "table.optimizer.reuse-source-enabled",
	"table.local-time-zone", "table.dml-sync", "table.sql-dialect", "table.planner",
	"sql-client.execution.result-mode", "sql-client.execution.max-table-result.rows",
	"sql-client.verbose", "sql-client.display.max-column-width",
}
