package complete

import (
	"strings"

	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/flinksql/builtin"
)

// tableRef is a table the statement reads or writes, with its alias.
type tableRef struct {
	name   string
	alias  string
	window bool     // a window TVF over it: window_start, window_end, window_time
	cols   []string // AS t(a, b): the columns are named here
	// query is the text of a subquery in FROM, or of the CTE the name
	// refers to: its select list gives the columns.
	query string
	// visible is false for a table of a subquery or CTE the cursor is not
	// in: its columns are not the statement's.
	visible bool
}

// windowTVFs add window_start, window_end and window_time to their table.
var windowTVFs = map[string]bool{"TUMBLE": true, "HOP": true, "CUMULATE": true, "SESSION": true}

// refs finds the tables of the statement from its tokens: after FROM,
// JOIN, a comma of a FROM list and UPDATE (not INTO: a sink's columns are
// not read), a name with an optional
// FOR SYSTEM_TIME AS OF and alias; TABLE(TUMBLE(TABLE t, …)) AS w; a
// subquery's alias (its columns unknown). Tokens tolerate a statement
// half typed, where a parse would give up.
func (c *completer) refs() []tableRef {
	toks := c.stmt
	var out []tableRef
	ctes := c.ctes()
	inFrom := map[int]bool{} // paren depths where a FROM list is open
	depth := 0
	var opens []int // the '(' still open, innermost last
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch t.Kind {
		case flinksql.LParen:
			depth++
			opens = append(opens, i)
			continue
		case flinksql.RParen:
			delete(inFrom, depth)
			depth--
			if len(opens) > 0 {
				opens = opens[:len(opens)-1]
			}
			continue
		case flinksql.Comma:
			if !inFrom[depth] {
				continue
			}
		case flinksql.Word:
			switch builtin.UpperWord(t.Text) {
			case "FROM", "JOIN", "UPDATE":
				inFrom[depth] = builtin.UpperWord(t.Text) == "FROM" || inFrom[depth]
			case "WHERE", "GROUP", "HAVING", "ORDER", "LIMIT", "WINDOW", "UNION", "ON", "SELECT":
				delete(inFrom, depth)
				continue
			default:
				continue
			}
		default:
			continue
		}
		ref, next := c.readRef(toks, i+1)
		if q, ok := ctes[ref.name]; ok && ref.query == "" {
			ref.query = q
		}
		ref.visible = true
		if n := len(opens); n > 0 {
			open := toks[opens[n-1]].Pos.Offset
			end := toks[matchParen(toks, opens[n-1])]
			ref.visible = open < c.cur && (end.Kind != flinksql.RParen || c.cur <= end.Pos.Offset)
		}
		if ref.name != "" || ref.alias != "" {
			out = append(out, ref)
		}
		i = next - 1
	}
	return out
}

// ctes reads WITH name [(cols)] AS (query), … at the statement's start
// (after INSERT INTO t, too): the queries' texts by name.
func (c *completer) ctes() map[string]string {
	toks := c.stmt
	out := map[string]string{}
	i := 0
	for i < len(toks) && !(toks[i].Kind == flinksql.Word && strings.EqualFold(toks[i].Text, "WITH")) {
		if toks[i].Kind == flinksql.Word && strings.EqualFold(toks[i].Text, "SELECT") || toks[i].Kind == flinksql.LParen {
			return out
		}
		i++
	}
	for i++; i+2 < len(toks) && (toks[i].Kind == flinksql.Word || toks[i].Kind == flinksql.QuotedIdent); {
		name := toks[i].Value
		i++
		if toks[i].Kind == flinksql.LParen {
			i = matchParen(toks, i) + 1
		}
		if i+1 >= len(toks) || !strings.EqualFold(toks[i].Text, "AS") || toks[i+1].Kind != flinksql.LParen {
			break
		}
		end := matchParen(toks, i+1)
		if end > i+2 && toks[end].Kind == flinksql.RParen {
			out[name] = c.src[toks[i+2].Pos.Offset:toks[end-1].End.Offset]
		}
		i = end + 1
		if i >= len(toks) || toks[i].Kind != flinksql.Comma {
			break
		}
		i++
	}
	return out
}

// readRef reads one table reference at toks[i] and says where the scan
// goes on: after it, or inside a subquery's parentheses, whose own FROM
// clauses are references too.
func (c *completer) readRef(toks []flinksql.Token, i int) (tableRef, int) {
	var ref tableRef
	if i >= len(toks) {
		return ref, i
	}
	next := -1
	switch {
	case toks[i].Kind == flinksql.Word && strings.EqualFold(toks[i].Text, "LATERAL"):
		return ref, i + 1
	case toks[i].Kind == flinksql.Word && strings.EqualFold(toks[i].Text, "TABLE") && i+1 < len(toks) && toks[i+1].Kind == flinksql.LParen:
		end := matchParen(toks, i+1)
		if i+2 < len(toks) && windowTVFs[builtin.UpperWord(toks[i+2].Text)] {
			for j := i + 2; j < end; j++ {
				if toks[j].Kind == flinksql.Word && strings.EqualFold(toks[j].Text, "TABLE") {
					ref.name, _ = dottedName(toks, j+1)
					ref.window = true
					break
				}
			}
		}
		i = end + 1
	case toks[i].Kind == flinksql.LParen:
		end := matchParen(toks, i)
		if end > i+1 && toks[end].Kind == flinksql.RParen {
			ref.query = c.src[toks[i+1].Pos.Offset:toks[end-1].End.Offset]
		}
		next = i
		i = end + 1
	case toks[i].Kind == flinksql.Word || toks[i].Kind == flinksql.QuotedIdent:
		if toks[i].Kind == flinksql.Word && builtin.StructuralWords[builtin.UpperWord(toks[i].Text)] {
			return ref, i
		}
		ref.name, i = dottedName(toks, i)
	default:
		return ref, i
	}
	if i < len(toks) && toks[i].Kind == flinksql.Word && strings.EqualFold(toks[i].Text, "FOR") {
		// FOR SYSTEM_TIME AS OF expr: the alias is after the next AS.
		for i += 4; i < len(toks); i++ {
			if toks[i].Kind == flinksql.Word && (strings.EqualFold(toks[i].Text, "AS") || builtin.StructuralWords[builtin.UpperWord(toks[i].Text)]) {
				break
			}
		}
	}
	if i < len(toks) && toks[i].Kind == flinksql.Word && strings.EqualFold(toks[i].Text, "AS") {
		i++
	}
	if i < len(toks) && (toks[i].Kind == flinksql.QuotedIdent || toks[i].Kind == flinksql.Word && !builtin.IsReserved(toks[i].Text) &&
		!builtin.StructuralWords[builtin.UpperWord(toks[i].Text)] && !builtin.NoAliasWords[builtin.UpperWord(toks[i].Text)] && toks[i].Pos.Offset != c.start) {
		ref.alias = toks[i].Value
		i++
		if i < len(toks) && toks[i].Kind == flinksql.LParen {
			end := matchParen(toks, i)
			for j := i + 1; j < end; j++ {
				if toks[j].Kind == flinksql.Word || toks[j].Kind == flinksql.QuotedIdent {
					ref.cols = append(ref.cols, toks[j].Value)
				}
			}
			i = end + 1
		}
	}
	if next >= 0 {
		return ref, next
	}
	return ref, i
}

// matchParen returns the index of the ')' closing toks[i], or the last
// index when the statement stops before it.
func matchParen(toks []flinksql.Token, i int) int {
	depth := 0
	for j := i; j < len(toks); j++ {
		switch toks[j].Kind {
		case flinksql.LParen:
			depth++
		case flinksql.RParen:
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return len(toks) - 1
}

// qualified suggests what follows name. : the columns of the table or
// alias of that name in the statement.
func (c *completer) qualified(name flinksql.Token) {
	if name.Kind != flinksql.Word && name.Kind != flinksql.QuotedIdent {
		return
	}
	c.columns(name.Value)
}

// columns suggests the columns of the statement's tables, or of the one
// whose alias (or name) is qual.
func (c *completer) columns(qual string) {
	refs := c.refs()
	var pick []tableRef
	if qual != "" {
		for _, r := range refs {
			if r.alias == qual || r.alias == "" && lastPart(r.name) == qual {
				pick = append(pick, r)
			}
		}
		if len(pick) == 0 {
			for _, r := range refs {
				if strings.EqualFold(r.alias, qual) || r.alias == "" && strings.EqualFold(lastPart(r.name), qual) {
					pick = append(pick, r)
				}
			}
		}
	} else {
		for _, r := range refs {
			if r.visible {
				pick = append(pick, r)
			}
		}
	}
	if len(pick) == 0 {
		return
	}
	cat := c.tablesFor(refs)
	for _, r := range pick {
		of := r.alias
		if of == "" {
			of = r.name
		}
		if r.cols != nil {
			for _, col := range r.cols {
				c.add(Suggestion{Text: col, Kind: Column, Doc: "column of " + of})
			}
			continue
		}
		var cols []flinksql.ColumnInfo
		if r.query != "" {
			cols = c.queryColumns(r.query)
		} else {
			cols, _ = cat.Columns(r.name)
		}
		for _, col := range cols {
			detail := ""
			if col.Type != nil {
				detail = col.Type.String()
			}
			switch {
			case col.RowTime:
				detail += " · event time"
			case col.ProcTime:
				detail = "processing time"
			}
			c.add(Suggestion{Text: col.Name, Kind: Column, Detail: detail, Doc: "column of " + of})
		}
		if r.window {
			for _, w := range []string{"window_start", "window_end", "window_time"} {
				c.add(Suggestion{Text: w, Kind: Column, Detail: "TIMESTAMP(3)", Doc: "window column of " + of})
			}
		}
	}
}

func lastPart(name string) string { return name[strings.LastIndexByte(name, '.')+1:] }

// definedColumns suggests the columns a CREATE TABLE has defined so far,
// where WATERMARK FOR and PRIMARY KEY (…) name one: the first word of each
// element of its parentheses that is not a keyword.
func (c *completer) definedColumns() {
	open := -1
	for i, t := range c.stmt {
		if t.Kind == flinksql.LParen {
			open = i
			break
		}
	}
	if open < 0 {
		return
	}
	end := matchParen(c.stmt, open)
	depth := 0
	for i := open; i <= end && i < len(c.stmt); i++ {
		t := c.stmt[i]
		switch t.Kind {
		case flinksql.LParen:
			depth++
			continue
		case flinksql.RParen:
			depth--
			continue
		}
		if depth != 1 || c.stmt[i-1].Kind != flinksql.LParen && c.stmt[i-1].Kind != flinksql.Comma {
			continue
		}
		if t.Kind == flinksql.Word && (builtin.IsReserved(t.Text) || builtin.StructuralWords[builtin.UpperWord(t.Text)]) || t.Kind != flinksql.Word && t.Kind != flinksql.QuotedIdent ||
			t.Value == "" || t.Pos.Offset == c.start {
			continue
		}
		detail := ""
		if i+1 < len(c.stmt) && c.stmt[i+1].Kind == flinksql.Word {
			detail = builtin.UpperWord(c.stmt[i+1].Text)
		}
		c.add(Suggestion{Text: t.Value, Kind: Column, Detail: detail, Doc: "column of this table"})
	}
}

// sinkColumns suggests the columns of INSERT's table, for its column list.
func (c *completer) sinkColumns() {
	for i, t := range c.stmt {
		if t.Kind == flinksql.Word && strings.EqualFold(t.Text, "INTO") {
			name, _ := dottedName(c.stmt, i+1)
			cols, ok := c.tablesFor([]tableRef{{name: name}}).Columns(name)
			if !ok {
				return
			}
			for _, col := range cols {
				detail := ""
				if col.Type != nil {
					detail = col.Type.String()
				}
				c.add(Suggestion{Text: col.Name, Kind: Column, Detail: detail, Doc: "column of " + name})
			}
			return
		}
	}
}
