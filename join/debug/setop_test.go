package debug

import "testing"

// INTERSECT ALL and EXCEPT ALL as Flink rewrites them: each change of a
// row's counts replicated as many times as copies are left, of the
// change's kind. l has 1, 1, 2, 3 and r has 1, 2, 2, read in turns (l 1,
// r 1, l 1, r 2, l 2, r 2, l 3); worked by hand:
//
//	INTERSECT ALL counts (left, right) per row: 1 (1,0) (1,1) +U[1]; (2,1)
//	-U[1] +U[1]; 2 (0,1) (1,1) +U[2]; (1,2) -U[2] +U[2]; 3 (1,0).
//	EXCEPT ALL sums: 1 +1 +I[1]; 0 -U[1]; +1 +U[1]; 2 -1, 0, -1; 3 +1 +I[3].
func TestAllSetOperations(t *testing.T) {
	ddl := `CREATE TABLE l (v INT) WITH ('connector' = 'kafka', 'format' = 'json');
CREATE TABLE r (v INT) WITH ('connector' = 'kafka', 'format' = 'json');
`
	files := map[string]string{
		"l.jsonl": "{\"v\": 1}\n{\"v\": 1}\n{\"v\": 2}\n{\"v\": 3}\n",
		"r.jsonl": "{\"v\": 1}\n{\"v\": 2}\n{\"v\": 2}\n",
	}
	for _, tc := range []struct {
		op          string
		want, final []string
	}{
		{"INTERSECT ALL", []string{"+U[1]", "-U[1]", "+U[1]", "+U[2]", "-U[2]", "+U[2]"}, []string{"+I[1]", "+I[2]"}},
		{"EXCEPT ALL", []string{"+I[1]", "-U[1]", "+U[1]", "+I[3]"}, []string{"+I[1]", "+I[3]"}},
	} {
		t.Run(tc.op, func(t *testing.T) {
			s := run(t, ddl+"SELECT v FROM l "+tc.op+" SELECT v FROM r", files).Sinks[0]
			expect(t, "changelog", changelog(s), tc.want)
			expect(t, "final", final(s), tc.final)
			if !s.Updating {
				t.Error("INTERSECT ALL and EXCEPT ALL end in a GroupAggregate: updating")
			}
		})
	}
	// Two copies on each side: two copies out, one change at a time.
	files["r.jsonl"] = "{\"v\": 1}\n{\"v\": 1}\n"
	s := run(t, ddl+"SELECT v FROM l INTERSECT ALL SELECT v FROM r", files).Sinks[0]
	expect(t, "two copies", final(s), []string{"+I[1]", "+I[1]"})
}
