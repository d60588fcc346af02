// Package logs reads a job's logs — the JobManager's and TaskManagers'
// through Flink's REST API of the running application, and the links of its
// YARN containers — in chunks of at most api.MaxLogChunk, so no call holds a
// whole log whatever its size. Searches run on this side (FindInLog), so a
// client of the agent never downloads a log to search it. The application
// is looked up afresh for every call: its tracking URL changes when the
// JobManager fails over.
package logs
