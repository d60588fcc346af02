package core

import (
	"fmt"
	"strings"

	"github.com/palink/palink/core/flinksql"
)

// scriptStatement is one statement of a SQL script with its first line.
type scriptStatement struct {
	Text string
	Line int
}

// splitScript cuts a SQL script into statements at top-level semicolons,
// using Flink SQL's lexer so that semicolons in strings, quoted names and
// comments do not cut, and a statement set (BEGIN STATEMENT SET; … END, or
// EXECUTE STATEMENT SET BEGIN … END) stays one statement. It does not parse:
// the gateway is the judge of what it runs, so a construct palink's parser
// does not know yet still deploys.
func splitScript(src string) ([]scriptStatement, error) {
	toks, _, errs := flinksql.Lex(src)
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s: %s", errs[0].Pos, errs[0].Msg)
	}
	var (
		out   []scriptStatement
		start = -1 // index of the statement's first token
		depth int
		inSet bool
	)
	word := func(i int, w string) bool {
		return i < len(toks) && toks[i].Kind == flinksql.Word && strings.EqualFold(toks[i].Text, w)
	}
	flush := func(end int) {
		if start < 0 {
			return
		}
		from, to := toks[start].Pos.Offset, toks[end-1].End.Offset
		out = append(out, scriptStatement{Text: src[from:to], Line: toks[start].Pos.Line})
		start = -1
	}
	for i, t := range toks {
		if t.Kind == flinksql.EOF {
			break
		}
		if t.Kind == flinksql.Semicolon && depth == 0 && !inSet {
			flush(i)
			continue
		}
		if start < 0 {
			start = i
		}
		switch t.Kind {
		case flinksql.LParen, flinksql.LBracket:
			depth++
		case flinksql.RParen, flinksql.RBracket:
			depth--
		case flinksql.Word:
			switch {
			case !inSet && word(i, "BEGIN") && word(i+1, "STATEMENT") && word(i+2, "SET"):
				inSet = true
			case !inSet && word(i, "SET") && i >= 2 && word(i-1, "STATEMENT") && word(i-2, "EXECUTE"):
				inSet = true
			case inSet && word(i, "END") && depth == 0:
				inSet = false
			}
		}
	}
	if inSet {
		return out, fmt.Errorf("line %d: statement set without END", toks[start].Pos.Line)
	}
	if start >= 0 {
		last := len(toks) - 1
		if toks[last].Kind != flinksql.EOF {
			last++
		}
		flush(last)
	}
	return out, nil
}
