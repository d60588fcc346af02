package script

import "testing"

func TestExplainable(t *testing.T) {
	for in, want := range map[string]string{
		"INSERT INTO s SELECT 1":                                                   "INSERT INTO s SELECT 1",
		"EXECUTE INSERT INTO s SELECT 1":                                           "INSERT INTO s SELECT 1",
		"EXECUTE STATEMENT SET BEGIN INSERT INTO s SELECT 1; END":                  "STATEMENT SET BEGIN INSERT INTO s SELECT 1; END",
		"BEGIN STATEMENT SET;\nINSERT INTO s SELECT 1;\nEND":                       "STATEMENT SET BEGIN\nINSERT INTO s SELECT 1;\nEND",
		"begin statement set; insert into a select 1; insert into b select 2; end": "STATEMENT SET BEGIN\ninsert into a select 1; insert into b select 2; end",
	} {
		got, err := Explainable(in)
		if err != nil || got != want {
			t.Errorf("Explainable(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := Explainable("BEGIN WORK"); err == nil {
		t.Error("BEGIN WORK was taken for a statement set")
	}
}
