package join

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Connectors a lookup table may name in its WITH clause.
const (
	// ConnectorJDBC is Flink's JDBC connector: rows of 'table-name' whose key
	// columns equal the join keys.
	ConnectorJDBC = "jdbc"
	// ConnectorQuery is palink's custom-query connector (the platform's
	// custom-query join): the user writes the lookup SQL, with one `?` per
	// join key, in the order of the ON clause's equalities, and the query
	// returns the table's columns by name. Its other options are those of
	// ConnectorJDBC, with 'query' instead of 'table-name':
	//
	//	CREATE TABLE user_tier (id BIGINT, tier STRING) WITH (
	//	  'connector' = 'palink-query',
	//	  'url' = 'jdbc:postgresql://db:5432/crm',
	//	  'username' = 'reader', 'password' = '…',
	//	  'query' = 'SELECT u.id, t.name AS tier FROM users u JOIN tiers t ON t.id = u.tier_id WHERE u.id = ?',
	//	  'lookup.cache' = 'PARTIAL', 'lookup.partial-cache.max-rows' = '10000'
	//	);
	ConnectorQuery = "palink-query"
)

// SourceOptions are a lookup table's connector options: Flink's JDBC
// connector's, or palink-query's.
type SourceOptions struct {
	Connector  string
	URL        string // jdbc:postgresql://…, jdbc:mysql://… (jdbc:mariadb://…), jdbc:sqlite:PATH
	TableName  string // 'table-name', for ConnectorJDBC
	Query      string // 'query', for ConnectorQuery
	Username   string
	Password   string        // never logged nor put in an error
	Cache      *CacheOptions // nil: 'lookup.cache' = 'NONE'
	MaxRetries int           // 'lookup.max-retries': attempts after a failed query
	// ConnectTimeout bounds connecting to the database and preparing the
	// lookup query (the job's lookup timeout; 0: DefaultTimeout), so that
	// an unreachable host is said within it, not after the OS gives up.
	ConnectTimeout time.Duration
	// Log takes what a database driver would print itself (MySQL's
	// driver writes its own lines to stderr); nil: dropped. The error the
	// lookup returns says what went wrong either way.
	Log *slog.Logger
}

// ParseSourceOptions reads the WITH options of a lookup table. Options it
// does not know are refused, as Flink does, so that a typo is not silently
// ignored.
func ParseSourceOptions(with map[string]string) (SourceOptions, error) {
	o := SourceOptions{MaxRetries: 3}
	var cache CacheOptions
	cacheMode := "NONE"
	cacheMissing := true // Flink's default for 'lookup.partial-cache.cache-missing-key'
	legacy := false
	for k, v := range with {
		var err error
		switch strings.ToLower(k) {
		case "connector":
			o.Connector = strings.ToLower(v)
		case "url":
			o.URL = v
		case "table-name":
			o.TableName = v
		case "query":
			o.Query = v
		case "username":
			o.Username = v
		case "password":
			o.Password = v
		case "driver", "connection.max-retry-timeout", "scan.fetch-size", "scan.auto-commit",
			"sink.buffer-flush.max-rows", "sink.buffer-flush.interval", "sink.max-retries", "sink.parallelism",
			"scan.partition.column", "scan.partition.num", "scan.partition.lower-bound", "scan.partition.upper-bound":
			// Meaningful to Flink's runtime, not to a lookup.
		case "lookup.cache":
			cacheMode = strings.ToUpper(v)
		case "lookup.partial-cache.max-rows":
			cache.MaxRows, err = strconv.Atoi(v)
		case "lookup.partial-cache.expire-after-write":
			cache.ExpireAfterWrite, err = ParseFlinkDuration(v)
		case "lookup.partial-cache.expire-after-access":
			cache.ExpireAfterAccess, err = ParseFlinkDuration(v)
		case "lookup.partial-cache.cache-missing-key", "lookup.cache.caching-missing-key":
			cacheMissing, err = strconv.ParseBool(v)
		case "lookup.cache.max-rows": // before Flink 1.16
			legacy = true
			cache.MaxRows, err = strconv.Atoi(v)
		case "lookup.cache.ttl": // before Flink 1.16
			legacy = true
			cache.ExpireAfterWrite, err = ParseFlinkDuration(v)
		case "lookup.max-retries":
			o.MaxRetries, err = strconv.Atoi(v)
			if err == nil && o.MaxRetries < 0 {
				err = errors.New("negative")
			}
		default:
			return o, fmt.Errorf("unsupported option '%s'", k)
		}
		if err != nil {
			return o, fmt.Errorf("option '%s' = '%s': %w", k, v, err)
		}
	}
	switch o.Connector {
	case ConnectorJDBC:
		if o.TableName == "" {
			return o, errors.New("connector 'jdbc' needs 'table-name'")
		}
	case ConnectorQuery:
		if o.Query == "" {
			return o, errors.New("connector 'palink-query' needs 'query'")
		}
	case "":
		return o, errors.New("no 'connector' option")
	default:
		return o, fmt.Errorf("connector '%s' cannot be looked up locally (want 'jdbc' or 'palink-query')", o.Connector)
	}
	if o.URL == "" {
		return o, fmt.Errorf("connector '%s' needs 'url'", o.Connector)
	}
	switch {
	case cacheMode == "PARTIAL" || legacy && cacheMode == "NONE":
		cache.CacheMissingKey = cacheMissing
		if _, err := NewCache(cache); err != nil {
			return o, err
		}
		o.Cache = &cache
	case cacheMode == "NONE":
	case cacheMode == "FULL":
		return o, errors.New("'lookup.cache' = 'FULL' is not supported by local runs; use 'PARTIAL'")
	default:
		return o, fmt.Errorf("option 'lookup.cache' = '%s': want NONE or PARTIAL", cacheMode)
	}
	return o, nil
}

// Table is the dimension table that a lookup reads: its DDL columns and the
// columns the ON clause compares to the input (its keys).
type Table struct {
	Name    string // for messages
	Columns []Column
	Keys    []string // in the order of Lookup's key values
}

// Source is a dimension table that rows are looked up in.
type Source interface {
	// Lookup returns the rows whose key columns equal key, each with the
	// table's columns in DDL order. A NULL key matches nothing, as in SQL.
	Lookup(ctx context.Context, key []any) ([]Row, error)
	Columns() []Column
	Stats() SourceStats
	Close() error
}

// SourceStats count a source's work.
type SourceStats struct {
	Lookups int64 // calls to Lookup
	Queries int64 // round trips to the database
	Shared  int64 // lookups answered by an identical one in flight
	Retries int64 // queries repeated after an error
	Cache   CacheStats
}

// JDBCSource looks rows up in a database through database/sql: a prepared
// statement, a pool as large as the operator's capacity, identical keys in
// flight queried once, and an optional cache.
type JDBCSource struct {
	table   Table
	where   string // the url without credentials, for messages
	secret  string // the password, scrubbed from errors
	db      *sql.DB
	stmt    *sql.Stmt
	cols    []Type
	keyCols []Type
	shape   atomic.Pointer[resultShape]
	cache   *Cache
	flight  flight
	retries int
	backoff func(retry int) time.Duration

	flightHook func() // tests: called by the query leader before it asks

	lookups, queries, shared, retried atomic.Int64
}

var _ Source = (*JDBCSource)(nil)

// OpenSource connects to the table's database and prepares its lookup
// query. capacity is the operator's: the pool is as large, so that every
// lookup in flight has a connection.
func OpenSource(ctx context.Context, opts SourceOptions, table Table, capacity int) (*JDBCSource, error) {
	s := &JDBCSource{table: table, where: redactURL(opts.URL), secret: opts.Password, retries: opts.MaxRetries,
		// Flink's JDBC lookup waits 1s, 2s, … between attempts.
		backoff: func(retry int) time.Duration { return time.Duration(retry) * time.Second }}
	fail := func(err error) (*JDBCSource, error) {
		if s.db != nil {
			s.db.Close()
		}
		return nil, fmt.Errorf("open lookup table %s (%s): %w", table.Name, s.where, s.redact(err))
	}
	if len(table.Keys) == 0 {
		return fail(errors.New("no key columns: the ON clause needs an equality on the table's columns"))
	}
	for _, c := range table.Columns {
		t, err := ParseType(c.Type)
		if err != nil {
			return fail(fmt.Errorf("column %s: %w", c.Name, err))
		}
		s.cols = append(s.cols, t)
	}
	for _, k := range table.Keys {
		i := ColumnIndex(table.Columns, k)
		if i < 0 {
			return fail(fmt.Errorf("key %s is not a column of the table", k))
		}
		s.keyCols = append(s.keyCols, s.cols[i])
	}
	if opts.Cache != nil {
		c, err := NewCache(*opts.Cache)
		if err != nil {
			return fail(err)
		}
		s.cache = c
	}
	timeout := opts.ConnectTimeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	d, db, err := openDB(opts.URL, opts.Username, opts.Password, timeout, opts.Log)
	if err != nil {
		return fail(err)
	}
	s.db = db
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	capacity = max(capacity, 1)
	s.db.SetMaxOpenConns(capacity)
	s.db.SetMaxIdleConns(capacity)
	var query string
	switch opts.Connector {
	case ConnectorQuery:
		query, err = placeholders(opts.Query, d, len(table.Keys))
		if err != nil {
			return fail(err)
		}
	default:
		query = selectByKeys(d, opts.TableName, table)
	}
	if s.stmt, err = s.db.PrepareContext(ctx, query); err != nil {
		if ctx.Err() != nil {
			return fail(fmt.Errorf("%s did not answer within %s (the lookup timeout): %w", d.name, timeout, err))
		}
		return fail(fmt.Errorf("prepare %s on %s: %w", query, d.name, err))
	}
	return s, nil
}

// ColumnIndex is the position of the column named name (in any case) in
// cols, -1 if there is none.
func ColumnIndex(cols []Column, name string) int {
	for i, c := range cols {
		if strings.EqualFold(c.Name, name) {
			return i
		}
	}
	return -1
}

// Columns returns the table's columns, in the order of a Row's values.
func (s *JDBCSource) Columns() []Column { return s.table.Columns }

// Lookup returns the rows of the table whose keys equal key.
func (s *JDBCSource) Lookup(ctx context.Context, key []any) ([]Row, error) {
	s.lookups.Add(1)
	if len(key) != len(s.keyCols) {
		return nil, fmt.Errorf("lookup in %s: %d key values for %d key columns", s.table.Name, len(key), len(s.keyCols))
	}
	args := make([]any, len(key))
	for i, v := range key {
		if v == nil {
			return nil, nil // NULL = anything is never true
		}
		c, err := Canonical(v, s.keyCols[i])
		if err != nil {
			return nil, fmt.Errorf("lookup in %s: key %s: %w", s.table.Name, s.table.Keys[i], err)
		}
		args[i] = c
	}
	k := cacheKey(args)
	if s.cache != nil {
		if rows, ok := s.cache.Get(k); ok {
			return rows, nil
		}
	}
	rows, shared, err := s.flight.do(ctx, k, func() ([]Row, error) {
		if s.flightHook != nil {
			s.flightHook()
		}
		return s.query(ctx, args)
	})
	if shared {
		s.shared.Add(1)
	}
	if err != nil {
		return nil, err
	}
	if s.cache != nil && !shared {
		s.cache.Put(k, rows)
	}
	return rows, nil
}

// cacheKey encodes canonical key values; the type is part of it, so 1 and
// "1" differ.
func cacheKey(args []any) string {
	var b strings.Builder
	for _, a := range args {
		switch v := a.(type) {
		case time.Time:
			b.WriteString("t:" + v.Format(time.RFC3339Nano))
		case []byte:
			fmt.Fprintf(&b, "b:%x", v)
		default:
			fmt.Fprintf(&b, "%T:%v", v, v)
		}
		b.WriteByte(0)
	}
	return b.String()
}

// query runs the lookup, retrying failed queries as Flink's JDBC lookup does.
func (s *JDBCSource) query(ctx context.Context, args []any) ([]Row, error) {
	for retry := 0; ; retry++ {
		s.queries.Add(1)
		rows, err := s.queryOnce(ctx, args)
		if err == nil {
			return rows, nil
		}
		if ctx.Err() != nil || retry >= s.retries {
			return nil, fmt.Errorf("lookup in %s (%s): %w", s.table.Name, s.where, s.redact(err))
		}
		s.retried.Add(1)
		t := time.NewTimer(s.backoff(retry + 1))
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("lookup in %s (%s): %w, then %w", s.table.Name, s.where, s.redact(err), ctx.Err())
		}
	}
}

func (s *JDBCSource) queryOnce(ctx context.Context, args []any) ([]Row, error) {
	rs, err := s.stmt.QueryContext(ctx, args...)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	shape := s.shape.Load()
	if shape == nil {
		names, err := rs.Columns()
		if err != nil {
			return nil, err
		}
		order, err := s.columnOrder(names)
		if err != nil {
			return nil, err
		}
		shape = &resultShape{order: order, width: len(names)} // the same for every execution
		s.shape.Store(shape)
	}
	var out []Row
	raw := make([]any, shape.width)
	ptrs := make([]any, len(raw))
	for i := range raw {
		ptrs[i] = &raw[i]
	}
	for rs.Next() {
		if err := rs.Scan(ptrs...); err != nil {
			return nil, err
		}
		row := make(Row, len(s.table.Columns))
		for i, at := range shape.order {
			v, err := Canonical(raw[at], s.cols[i])
			if err != nil {
				return nil, fmt.Errorf("column %s: %w", s.table.Columns[i].Name, err)
			}
			row[i] = v
		}
		out = append(out, row)
	}
	return out, rs.Err()
}

// resultShape maps the query's result to the table's columns.
type resultShape struct {
	order []int // position in the result of each table column
	width int   // columns in the result
}

// columnOrder maps the table's columns to the query's result columns, by name.
func (s *JDBCSource) columnOrder(names []string) ([]int, error) {
	order := make([]int, len(s.table.Columns))
	for i, c := range s.table.Columns {
		order[i] = -1
		for j, n := range names {
			if strings.EqualFold(n, c.Name) {
				order[i] = j
				break
			}
		}
		if order[i] < 0 {
			return nil, fmt.Errorf("the query returns no column %s (it returns %s)", c.Name, strings.Join(names, ", "))
		}
	}
	return order, nil
}

// Stats returns the counts so far.
func (s *JDBCSource) Stats() SourceStats {
	st := SourceStats{Lookups: s.lookups.Load(), Queries: s.queries.Load(), Shared: s.shared.Load(), Retries: s.retried.Load()}
	if s.cache != nil {
		st.Cache = s.cache.Stats()
	}
	return st
}

// Close closes the statement and the pool.
func (s *JDBCSource) Close() error {
	return errors.Join(s.stmt.Close(), s.db.Close())
}

// redact keeps the password out of an error's text; the chain stays for errors.Is.
func (s *JDBCSource) redact(err error) error {
	if err == nil || s.secret == "" || !strings.Contains(err.Error(), s.secret) {
		return err
	}
	return redacted{err: err, text: strings.ReplaceAll(err.Error(), s.secret, "******")}
}

type redacted struct {
	err  error
	text string
}

// Error is the text without the password.
func (r redacted) Error() string { return r.text }

// Unwrap keeps the chain for errors.Is.
func (r redacted) Unwrap() error { return r.err }
