package flinksql

import (
	"github.com/palink/palink/flinksql/ast"

	"github.com/palink/palink/flinksql/builtin"
)

// StatementText is the source of one statement as SplitStatements found
// it: from its first token to its last, without the ';' and without the
// comments around it.
type StatementText struct {
	Text string
	Pos  ast.Pos
	End  ast.Pos
}

// SplitStatements cuts a script into statements at the semicolons that end
// them, without parsing: a ';' inside a string, a quoted name, a comment or
// parentheses does not count, and a statement set (BEGIN STATEMENT SET;
// ... END, EXECUTE STATEMENT SET BEGIN ... END) stays one statement. It
// splits the same way ParseScript does, so the deployer can send each
// statement's text even when some of them do not parse.
func SplitStatements(src string) []StatementText {
	toks, _, _ := Lex(src)
	var out []StatementText
	for _, r := range StatementRanges(toks) {
		out = append(out, statementText(src, toks[r[0]], toks[r[1]]))
	}
	return out
}

// StatementRanges finds the statements of a token stream (Lex's) as the
// indexes of their first and last tokens, the ';' left out:
// SplitStatements cuts the text with them, and completion finds the
// statement under the cursor.
func StatementRanges(toks []Token) [][2]int {
	var out [][2]int
	start := -1 // index of the current statement's first token
	depth := 0
	inBlock, atInnerStart, blockEnded := false, false, false
	for i, t := range toks {
		if t.Kind == EOF {
			break
		}
		if start < 0 {
			if t.Kind == Semicolon {
				continue
			}
			start = i
			depth, inBlock, atInnerStart, blockEnded = 0, false, false, false
		}
		switch t.Kind {
		case LParen, LBracket:
			depth++
		case RParen, RBracket:
			if depth > 0 {
				depth--
			}
		case Semicolon:
			if depth > 0 {
				continue
			}
			if inBlock && !blockEnded {
				atInnerStart = true
				continue
			}
			out = append(out, [2]int{start, i - 1})
			start = -1
			continue
		case Word:
			w := builtin.UpperASCII(t.Text)
			switch {
			case w == "STATEMENT" && i+2 < len(toks) && builtin.UpperASCII(toks[i+1].Text) == "SET":
				next := toks[i+2]
				if next.Kind == Semicolon || next.Kind == Word && builtin.UpperASCII(next.Text) == "BEGIN" {
					inBlock = true
				}
			case w == "BEGIN" && inBlock:
				atInnerStart = true
				continue
			case w == "END" && inBlock && atInnerStart:
				blockEnded = true
			}
		}
		atInnerStart = false
	}
	if start >= 0 {
		last := start
		for j := start; j < len(toks) && toks[j].Kind != EOF; j++ {
			last = j
		}
		out = append(out, [2]int{start, last})
	}
	return out
}

func statementText(src string, first, last Token) StatementText {
	return StatementText{Text: src[first.Pos.Offset:last.End.Offset], Pos: first.Pos, End: last.End}
}

// Inserts returns the INSERT statements of the script in order, including
// those inside statement sets and behind EXECUTE or EXPLAIN: the statements
// that make up the job.
func (s *Script) Inserts() []*ast.InsertStmt {
	var out []*ast.InsertStmt
	var visit func(st ast.Statement)
	visit = func(st ast.Statement) {
		switch x := st.(type) {
		case *ast.InsertStmt:
			out = append(out, x)
		case *ast.StatementSet:
			for _, inner := range x.Stmts {
				visit(inner)
			}
		case *ast.ExecuteStmt:
			visit(x.Stmt)
		}
	}
	for _, st := range s.Stmts {
		visit(st)
	}
	return out
}
