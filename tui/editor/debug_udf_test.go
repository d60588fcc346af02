package editor

import (
	"slices"
	"testing"
)

// TestDebugFormStandIns: the form notes each UDF the script calls and how
// to stand in for it; a NAME(P…)=EXPR line goes to the run as a stand-in,
// not as a table's file.
func TestDebugFormStandIns(t *testing.T) {
	const job = `CREATE TABLE a (s STRING) WITH ('connector' = 'kafka');
CREATE TABLE s (s STRING) WITH ('connector' = 'print');
INSERT INTO s SELECT mask(s, 4) FROM a WHERE UPPER(s) <> '';`
	want := "a=\n# mask is a UDF a local run cannot load: stand in for it with a line like mask(a, b)=EXPRESSION"
	if got := debugTemplate(job, nil, nil, nil); got != want {
		t.Errorf("template %q, want %q", got, want)
	}
	// A debugger that knows a stand-in for mask offers its line, ready to run.
	want = "a=/a.jsonl\n# mask is a UDF a local run cannot load: this line stands in for it\nmask(s, n)=LEFT(s, n)"
	known := knownStandIns{"a": "/a.jsonl"}
	if got := debugTemplate(job, known, known, nil); got != want {
		t.Errorf("template with a known stand-in %q, want %q", got, want)
	}
	in := debugInput{data: "a=/a.jsonl\n# mask(a)=note\nmask(s, n) = LEFT(s, n)"}
	d, err := parseDebugInput(in)
	if err != nil || len(d.files) != 1 || d.files["a"] != "/a.jsonl" {
		t.Errorf("parse: %v %v", d.files, err)
	}
	if got := debugStandIns(in); !slices.Equal(got, []string{"mask(s, n) = LEFT(s, n)"}) {
		t.Errorf("stand-ins %q", got)
	}
}

// knownStandIns is a debugger's samples that knows a stand-in for mask.
type knownStandIns map[string]string

func (k knownStandIns) SampleFile(table string) (string, bool) {
	f, ok := k[table]
	return f, ok
}

func (knownStandIns) StandIn(function string) (string, bool) {
	return "mask(s, n)=LEFT(s, n)", function == "mask"
}
