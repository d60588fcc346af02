// Package join is Flink's async lookup join, locally: the async wait operator
// (ordered and unordered output, capacity, timeout, retry), lookup sources
// (JDBC through database/sql, custom queries) with a lookup cache, and the
// row/type API they share. The local SQL runtime of debug runs is join/debug.
//
// # The operator
//
// Operator is Flink's AsyncWaitOperator with its OrderedStreamElementQueue and
// UnorderedStreamElementQueue and its AsyncRetryStrategies:
//
//	in ──▶ [ queue of Capacity slots: records in flight or done, watermarks ] ──▶ out
//	         │ admit: a slot, a worker goroutine,      ▲ emit: Ordered, the head when done;
//	         │ the timeout clock starts                │ Unordered, the done records of the
//	         ▼                                         │ first segment (watermarks cut the
//	       Func(ctx, in) ── retries, backoff ──────────┘ queue into segments)
//
// A slot frees when its element is emitted; a full queue stops reading in. A
// timeout is final; without a handler it fails the run, as does an error that
// is not retried or outlasts the attempts. Run's goroutine owns all state;
// workers only fill in their own entry and hand it back.
//
// # Lookup sources
//
// OpenSource reads a table's Flink connector options (ParseSourceOptions):
// Flink's 'jdbc' connector on PostgreSQL (pgx), MySQL or MariaDB
// (go-sql-driver/mysql) and SQLite (modernc.org/sqlite), or palink's
// 'palink-query' connector whose lookup SQL the user writes (ConnectorQuery).
// A source prepares its query once, sizes its pool to the operator's
// capacity, asks the database once for identical keys in flight, and keeps
// an LRU cache when 'lookup.cache' is 'PARTIAL'. Rows come back with
// canonical values (Row), so a job gives equal rows on every database.
//
// LookupJoin turns a source into the operator's Func with Flink's join
// semantics; ParseLookupConfig reads the operator's options from SET
// 'table.exec.async-lookup.*' and the LOOKUP hint.
//
// # Rows and types
//
// Row, Column and Type are the values a lookup returns and the local SQL
// runtime (join/debug) computes with: ParseType reads a DDL type with
// flinksql's parser (TypeOf maps a parsed one), Canonical turns a value
// into its Row representation.
//
// It may import flinksql and model, nothing else of palink's (and never
// join/debug); it must not import net/http, bbolt, yarn or tui.
package join
