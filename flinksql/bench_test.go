package flinksql

import (
	"strings"
	"testing"

	"github.com/palink/palink/flinksql/internal/sqltest"
)

func TestJobScriptIsClean(t *testing.T) {
	r := Check(sqltest.JobScript(200), Options{})
	if len(r.Diagnostics) > 0 {
		t.Fatalf("benchmark script has diagnostics: %v", r.Diagnostics[0])
	}
}

// BenchmarkParseValidate2000Lines measures Check (parse and validate) over
// a 2,000-line script, as the editor runs it on every pause in typing.
func BenchmarkParseValidate2000Lines(b *testing.B) {
	src := sqltest.JobScript(2000)
	lines := strings.Count(src, "\n")
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := Check(src, Options{})
		if len(r.Diagnostics) != 0 {
			b.Fatal(r.Diagnostics[0])
		}
	}
	b.ReportMetric(float64(lines)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}

// BenchmarkFormat2000Lines measures Format over the same script.
func BenchmarkFormat2000Lines(b *testing.B) {
	script, errs := ParseScript(sqltest.JobScript(2000))
	if len(errs) > 0 {
		b.Fatal(errs[0])
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = Format(script)
	}
}
