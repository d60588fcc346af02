package script

import (
	"errors"
	"fmt"
	"strings"

	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/model"
)

// Script is a SQL job script sorted for deployment.
// Script is a SQL job script sorted the way the SQL Gateway runs it.
type Script struct {
	Sets []Statement // SET/RESET, in order
	DDL  []Statement // everything else before the job statement, in order
	Job  Statement   // the one INSERT, or STATEMENT SET
}

// Statement is one statement's text and the line it starts on.
type Statement struct {
	Text string
	Line int
}

// Plan splits a SQL job script into its statements and finds the one
// statement that submits the job. A script with two INSERTs outside a
// statement set would start two Flink jobs; palink refuses it.
func Plan(src string) (Script, error) {
	var p Script
	// Lex errors are the gateway's to report, at its line; the split is
	// still exact where the text is valid.
	if _, _, errs := flinksql.Lex(src); len(errs) > 0 {
		return p, fmt.Errorf("line %d:%d: %s", errs[0].Pos.Line, errs[0].Pos.Col, errs[0].Msg)
	}
	found := false
	for _, s := range flinksql.SplitStatements(src) {
		st := Statement{Text: s.Text, Line: s.Pos.Line}
		switch LeadKeyword(s.Text) {
		case "SET", "RESET":
			p.Sets = append(p.Sets, st)
		case "INSERT", "EXECUTE", "BEGIN":
			if found {
				return p, fmt.Errorf("line %d: a second job statement (line %d has the first); put several INSERTs in one EXECUTE STATEMENT SET BEGIN … END", st.Line, p.Job.Line)
			}
			st.Text = executeForm(st.Text)
			p.Job, found = st, true
		case "SELECT", "WITH":
			return p, fmt.Errorf("line %d: a query is not a job: it needs an INSERT INTO a sink", st.Line)
		default:
			if found {
				return p, fmt.Errorf("line %d: statements after the job statement (line %d) would not take effect", st.Line, p.Job.Line)
			}
			p.DDL = append(p.DDL, st)
		}
	}
	if !found {
		return p, errors.New("the script has no INSERT or STATEMENT SET: nothing would run")
	}
	return p, nil
}

// executeForm turns the SQL client's statement set (BEGIN STATEMENT SET;
// … END), which the gateway only knows statement by statement, into the
// one statement form EXECUTE STATEMENT SET BEGIN … END. The inner
// statements keep their text.
func executeForm(stmt string) string {
	toks, _, errs := flinksql.Lex(stmt)
	if len(errs) > 0 || len(toks) < 4 {
		return stmt
	}
	w := func(i int, s string) bool { return toks[i].Kind == flinksql.Word && strings.EqualFold(toks[i].Text, s) }
	if !w(0, "BEGIN") || !w(1, "STATEMENT") || !w(2, "SET") || toks[3].Kind != flinksql.Semicolon {
		return stmt
	}
	return stmt[:toks[0].Pos.Offset] + "EXECUTE STATEMENT SET BEGIN" + stmt[toks[3].End.Offset:]
}

// LeadKeyword is the statement's first word, upper-cased, after comments.
func LeadKeyword(stmt string) string {
	s := stmt
	for {
		s = strings.TrimSpace(s)
		switch {
		case strings.HasPrefix(s, "--"):
			i := strings.IndexByte(s, '\n')
			if i < 0 {
				return ""
			}
			s = s[i+1:]
		case strings.HasPrefix(s, "/*"):
			i := strings.Index(s, "*/")
			if i < 0 {
				return ""
			}
			s = s[i+2:]
		default:
			end := strings.IndexFunc(s, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') })
			if end < 0 {
				end = len(s)
			}
			return strings.ToUpper(s[:end])
		}
	}
}

// Explainable turns a job statement into what EXPLAIN takes: an INSERT or
// STATEMENT SET BEGIN … END. EXECUTE is dropped, and the SQL client's
// BEGIN STATEMENT SET; … END; is rewritten into the one-statement form.
func Explainable(stmt string) (string, error) {
	s := strings.TrimSpace(stmt)
	if w := LeadKeyword(s); w == "EXECUTE" {
		i := strings.Index(strings.ToUpper(s), "EXECUTE")
		s = strings.TrimSpace(s[i+len("EXECUTE"):])
	}
	up := strings.ToUpper(s)
	if strings.HasPrefix(up, "BEGIN") {
		rest := strings.TrimSpace(s[len("BEGIN"):])
		if !strings.HasPrefix(strings.ToUpper(rest), "STATEMENT") {
			return "", fmt.Errorf("cannot explain %q", model.FirstLine(strings.TrimSpace(stmt)))
		}
		rest = strings.TrimSpace(rest[len("STATEMENT"):])
		if !strings.HasPrefix(strings.ToUpper(rest), "SET") {
			return "", fmt.Errorf("cannot explain %q", model.FirstLine(strings.TrimSpace(stmt)))
		}
		rest = strings.TrimPrefix(strings.TrimSpace(rest[len("SET"):]), ";")
		return "STATEMENT SET BEGIN\n" + strings.TrimSpace(rest), nil
	}
	return s, nil
}
