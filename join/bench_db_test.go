package join

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/palink/palink/join/internal/dbtest"
)

// BenchmarkLookupPostgres1M: lookups per second through the operator against
// a 1M-row PostgreSQL table (id primary key), without and with the cache.
// Needs PALINK_TEST_POSTGRES_DSN; the table is made once and kept.
func BenchmarkLookupPostgres1M(b *testing.B) {
	const (
		rows     = 1_000_000
		table    = "palink_bench_users_1m"
		capacity = 50 // PostgreSQL's default max_connections is 100
	)
	d := dbtest.Postgres(b)
	ctx := context.Background()
	var n int
	if err := d.SQL.QueryRowContext(ctx, "SELECT count(*) FROM "+table).Scan(&n); err != nil || n != rows {
		b.Logf("creating %s (%d rows)", table, rows)
		d.Exec(b, "DROP TABLE IF EXISTS "+table)
		d.Exec(b, fmt.Sprintf(`CREATE TABLE %s AS SELECT g::bigint AS id, 'user-' || g AS name,
			(ARRAY['gold','silver','bronze'])[1 + g %% 3] AS tier, (g %% 10000) / 100.0 AS score
			FROM generate_series(1, %d) g`, table, rows))
		d.Exec(b, "ALTER TABLE "+table+" ADD PRIMARY KEY (id)")
		d.Exec(b, "ANALYZE "+table)
	}
	tbl := Table{Name: table, Keys: []string{"id"},
		Columns: []Column{{"id", "BIGINT"}, {"name", "STRING"}, {"tier", "STRING"}, {"score", "DECIMAL(10, 2)"}}}
	uniform := func(r *rand.Rand) int64 { return 1 + r.Int64N(rows) }
	zipf := func(r *rand.Rand) func(*rand.Rand) int64 {
		z := rand.NewZipf(r, 1.1, 1, rows-1)
		return func(*rand.Rand) int64 { return 1 + int64(z.Uint64()) }
	}
	for _, tc := range []struct {
		name    string
		inputs  int
		cache   bool
		uniform bool
	}{
		{"uniform/no-cache", 20_000, false, true},
		{"zipf-1.1/no-cache", 20_000, false, false},
		{"zipf-1.1/cache-100k", 100_000, true, false},
	} {
		b.Run(tc.name, func(b *testing.B) {
			extra := []string{}
			if tc.cache {
				extra = []string{"lookup.cache", "PARTIAL", "lookup.partial-cache.max-rows", "100000"}
			}
			var lookups, found int
			var elapsed time.Duration
			var stats SourceStats
			for range b.N {
				s := openSource(b, d, d.Options(table, extra...), tbl, capacity)
				j := &LookupJoin{Source: s, Kind: InnerJoin, Keys: []int{0}}
				r := rand.New(rand.NewPCG(1, 2))
				key := uniform
				if !tc.uniform {
					key = zipf(r)
				}
				keys := make([]Row, tc.inputs)
				for i := range keys {
					keys[i] = Row{key(r)}
				}
				b.ResetTimer()
				began := time.Now()
				got, err := runRows(New(j.Func(), Options{Mode: Unordered, Capacity: capacity}), keys)
				elapsed += time.Since(began)
				b.StopTimer()
				if err != nil {
					b.Fatal(err)
				}
				lookups += len(keys)
				found += len(got)
				stats = s.Stats()
			}
			if found != lookups {
				b.Fatalf("%d of %d keys found", found, lookups)
			}
			b.ReportMetric(float64(lookups)/elapsed.Seconds(), "lookups/s")
			b.ReportMetric(float64(stats.Queries)/float64(stats.Lookups), "queries/lookup")
			b.ReportMetric(stats.Cache.HitRatio(), "cache-hit-ratio")
			b.ReportMetric(0, "ns/op")
		})
	}
}
