package complete

import (
	"strings"
	"testing"

	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/flinksql/internal/sqltest"
)

// BenchmarkComplete2000Lines measures At at a cursor near the end
// of a 2,000-line script, where an editor's cursor usually is: the column
// list of a view over a Kafka table, with a lookup join in the statement.
func BenchmarkComplete2000Lines(b *testing.B) {
	src := sqltest.JobScript(2000) + "INSERT INTO out_3\nSELECT b.order_id, u.\nFROM big_3 AS b\n" +
		"LEFT JOIN users_3 FOR SYSTEM_TIME AS OF b.proc_time AS u ON b.user_id = u.id;\n"
	line := strings.Count(src, "\n") - 2
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c := At(src, line, len("SELECT b.order_id, u.")+1, flinksql.Options{})
		if len(c.Items) != 2 {
			b.Fatalf("%d suggestions: %+v", len(c.Items), c.Items)
		}
	}
}
