package debug

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/palink/palink/flinksql/ast"
	"github.com/palink/palink/join/debug/value"
)

// JSON and collection functions, as Flink's built-ins.

func init() {
	register(map[string]function{
		"JSON_STRING": {1, 1, true, fixed(tStr), func(x *fnCtx, a []any) (any, error) {
			if a[0] == nil {
				return nil, nil
			}
			return toJSON(a[0], x.types[0], x.rt.zone)
		}},
		"JSON_QUOTE": {1, 1, false, fixed(tStr), func(x *fnCtx, a []any) (any, error) {
			b, err := json.Marshal(x.str(a, 0))
			return string(b), err
		}},
		"JSON_UNQUOTE": {1, 1, false, fixed(tStr), func(x *fnCtx, a []any) (any, error) {
			var s string
			if err := json.Unmarshal([]byte(x.str(a, 0)), &s); err != nil {
				return x.str(a, 0), nil
			}
			return s, nil
		}},
		"CARDINALITY": {1, 1, false, fixed(tInt), func(x *fnCtx, a []any) (any, error) {
			switch v := a[0].(type) {
			case value.Array:
				return int64(len(v)), nil
			case *value.Map:
				if x.types[0].Kind == value.MultisetKind {
					var n int64
					for _, c := range v.Vals {
						k, _ := toInt(c)
						n += k
					}
					return n, nil
				}
				return int64(len(v.Keys)), nil
			}
			return nil, fmt.Errorf("CARDINALITY of %s", x.types[0])
		}},
		"ELEMENT": {1, 1, false, elemType, func(x *fnCtx, a []any) (any, error) {
			arr, _ := a[0].(value.Array)
			switch len(arr) {
			case 0:
				return nil, nil
			case 1:
				return arr[0], nil
			}
			return nil, fmt.Errorf("ELEMENT of an array of %d elements: it must have one", len(arr))
		}},
		"ARRAY_CONTAINS": {2, 2, true, fixed(tBool), func(x *fnCtx, a []any) (any, error) {
			arr, ok := a[0].(value.Array)
			if !ok {
				return nil, nil
			}
			for _, e := range arr {
				if value.Equal(e, a[1]) {
					return true, nil
				}
			}
			return false, nil
		}},
		"ARRAY_POSITION": {2, 2, true, fixed(tInt), func(x *fnCtx, a []any) (any, error) {
			arr, ok := a[0].(value.Array)
			if !ok {
				return nil, nil
			}
			for i, e := range arr {
				if value.Equal(e, a[1]) {
					return int64(i + 1), nil
				}
			}
			return int64(0), nil
		}},
		"ARRAY_DISTINCT": {1, 1, false, argType(0), func(x *fnCtx, a []any) (any, error) {
			out := value.Array{}
			seen := map[string]bool{}
			for _, e := range a[0].(value.Array) {
				k := string(value.AppendKey(nil, e))
				if !seen[k] {
					seen[k] = true
					out = append(out, e)
				}
			}
			return out, nil
		}},
		"ARRAY_REMOVE": {2, 2, true, argType(0), func(x *fnCtx, a []any) (any, error) {
			arr, ok := a[0].(value.Array)
			if !ok {
				return nil, nil
			}
			out := value.Array{}
			for _, e := range arr {
				if !value.Equal(e, a[1]) {
					out = append(out, e)
				}
			}
			return out, nil
		}},
		"ARRAY_REVERSE": {1, 1, false, argType(0), func(x *fnCtx, a []any) (any, error) {
			arr := a[0].(value.Array)
			out := make(value.Array, len(arr))
			for i, e := range arr {
				out[len(arr)-1-i] = e
			}
			return out, nil
		}},
		"ARRAY_CONCAT": {1, -1, false, argType(0), func(x *fnCtx, a []any) (any, error) {
			out := value.Array{}
			for _, v := range a {
				out = append(out, v.(value.Array)...)
			}
			return out, nil
		}},
		"ARRAY_UNION": {2, 2, false, argType(0), func(x *fnCtx, a []any) (any, error) {
			out := value.Array{}
			seen := map[string]bool{}
			for _, v := range a {
				for _, e := range v.(value.Array) {
					k := string(value.AppendKey(nil, e))
					if !seen[k] {
						seen[k] = true
						out = append(out, e)
					}
				}
			}
			return out, nil
		}},
		"ARRAY_SLICE": {2, 3, false, argType(0), func(x *fnCtx, a []any) (any, error) {
			arr := a[0].(value.Array)
			from, _ := toInt(a[1])
			to := int64(len(arr))
			if len(a) == 3 {
				to, _ = toInt(a[2])
			}
			norm := func(i int64) int64 {
				switch {
				case i < 0:
					return int64(len(arr)) + i + 1
				case i == 0:
					return 1
				}
				return i
			}
			from, to = norm(from), norm(to)
			if from > to || from > int64(len(arr)) {
				return value.Array{}, nil
			}
			return append(value.Array{}, arr[max(from-1, 0):min(to, int64(len(arr)))]...), nil
		}},
		"ARRAY_JOIN": {2, 3, true, fixed(tStr), func(x *fnCtx, a []any) (any, error) {
			arr, ok := a[0].(value.Array)
			if !ok || a[1] == nil {
				return nil, nil
			}
			var parts []string
			for _, e := range arr {
				switch {
				case e != nil:
					parts = append(parts, value.String(e, elemType(x.types), x.rt.zone))
				case len(a) == 3 && a[2] != nil:
					parts = append(parts, x.str(a, 2))
				}
			}
			return strings.Join(parts, x.str(a, 1)), nil
		}},
		"MAP_KEYS": {1, 1, false, func(ts []value.Type) value.Type { return value.ArrayOf(*ts[0].Elem) }, func(x *fnCtx, a []any) (any, error) {
			return append(value.Array{}, a[0].(*value.Map).Keys...), nil
		}},
		"MAP_VALUES": {1, 1, false, func(ts []value.Type) value.Type { return value.ArrayOf(*ts[0].Val) }, func(x *fnCtx, a []any) (any, error) {
			return append(value.Array{}, a[0].(*value.Map).Vals...), nil
		}},
	})
}

func elemType(ts []value.Type) value.Type {
	if len(ts) > 0 && ts[0].Elem != nil {
		return ts[0].Elem.Nullable()
	}
	return value.TNull
}

// toJSON writes a value as JSON text.
func toJSON(v any, t value.Type, loc *time.Location) (string, error) {
	var b bytes.Buffer
	if err := writeJSON(&b, v, t, loc); err != nil {
		return "", err
	}
	return b.String(), nil
}

func writeJSON(b *bytes.Buffer, v any, t value.Type, loc *time.Location) error {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case float64:
		b.WriteString(value.String(x, value.TDouble, nil))
	case *big.Rat:
		b.WriteString(value.String(x, t, nil))
	case value.Array:
		b.WriteByte('[')
		et := value.Type{Kind: value.Raw}
		if t.Elem != nil {
			et = *t.Elem
		}
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := writeJSON(b, e, et, loc); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case value.Row:
		b.WriteByte('{')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			name, ft := fmt.Sprintf("f%d", i), value.Type{Kind: value.Raw}
			if i < len(t.Fields) {
				name, ft = t.Fields[i].Name, t.Fields[i].Type
			}
			k, _ := json.Marshal(name)
			b.Write(k)
			b.WriteByte(':')
			if err := writeJSON(b, e, ft, loc); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	case *value.Map:
		b.WriteByte('{')
		for i := range x.Keys {
			if i > 0 {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(value.Guess(x.Keys[i], loc))
			b.Write(k)
			b.WriteByte(':')
			vt := value.Type{Kind: value.Raw}
			if t.Val != nil {
				vt = *t.Val
			}
			if err := writeJSON(b, x.Vals[i], vt, loc); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	default:
		s, _ := json.Marshal(value.String(v, t, loc))
		b.Write(s)
	}
	return nil
}

// jsonCall compiles the JSON functions with keyword clauses.
func (c *compiler) jsonCall(x *ast.JSONCallExpr) (evalFn, value.Type, error) {
	clause := func(word string) *ast.JSONClause {
		for _, cl := range x.Clauses {
			if strings.Contains(cl.Text, word) {
				return cl
			}
		}
		return nil
	}
	switch x.Name {
	case "JSON_OBJECT", "JSON_ARRAY":
		absent := x.Name == "JSON_ARRAY"
		if cl := clause("ON NULL"); cl != nil {
			absent = strings.HasPrefix(cl.Text, "ABSENT")
		}
		type part struct {
			key, val evalFn
			vt       value.Type
			nested   bool
		}
		var parts []part
		add := func(k, v ast.Expr) error {
			var kf evalFn
			if k != nil {
				f, _, err := c.compile(k)
				if err != nil {
					return err
				}
				kf = f
			}
			vf, vt, err := c.compile(v)
			if err != nil {
				return err
			}
			_, nested := v.(*ast.JSONCallExpr)
			parts = append(parts, part{kf, vf, vt, nested})
			return nil
		}
		for _, e := range x.Entries {
			if err := add(e.Key, e.Value); err != nil {
				return nil, value.Type{}, err
			}
		}
		for _, a := range x.Args {
			if err := add(nil, a); err != nil {
				return nil, value.Type{}, err
			}
		}
		loc := c.rt.zone
		isObject := x.Name == "JSON_OBJECT"
		return func(row value.Row) (any, error) {
			var b bytes.Buffer
			open, close := byte('['), byte(']')
			if isObject {
				open, close = '{', '}'
			}
			b.WriteByte(open)
			n := 0
			for _, p := range parts {
				v, err := p.val(row)
				if err != nil {
					return nil, err
				}
				if v == nil && absent {
					continue
				}
				if n > 0 {
					b.WriteByte(',')
				}
				n++
				if isObject {
					k, err := p.key(row)
					if err != nil {
						return nil, err
					}
					if k == nil {
						return nil, fmt.Errorf("JSON_OBJECT: a key is NULL")
					}
					ks, _ := json.Marshal(value.Guess(k, loc))
					b.Write(ks)
					b.WriteByte(':')
				}
				if s, ok := v.(string); ok && p.nested {
					b.WriteString(s)
					continue
				}
				if err := writeJSON(&b, v, p.vt, loc); err != nil {
					return nil, err
				}
			}
			b.WriteByte(close)
			return b.String(), nil
		}, value.Type{Kind: value.Varchar, Precision: value.MaxLength, NotNull: true}, nil
	case "JSON_VALUE", "JSON_QUERY", "JSON_EXISTS":
		if len(x.Args) != 2 {
			return nil, value.Type{}, errorAt(x, "%s takes a JSON value and a path", x.Name)
		}
		doc, _, err := c.compile(x.Args[0])
		if err != nil {
			return nil, value.Type{}, err
		}
		pathFn, _, err := c.compile(x.Args[1])
		if err != nil {
			return nil, value.Type{}, err
		}
		return c.jsonPathCall(x, doc, pathFn, clause)
	}
	return nil, value.Type{}, errorAt(x, "%s is not supported in debug runs", x.Name)
}

func (c *compiler) jsonPathCall(x *ast.JSONCallExpr, doc, pathFn evalFn, clause func(string) *ast.JSONClause) (evalFn, value.Type, error) {
	out := tStr
	if x.Name == "JSON_EXISTS" {
		out = tBool
	}
	if x.Returning != nil {
		t, err := value.FromAST(x.Returning)
		if err != nil {
			return nil, out, errorAt(x, "%v", err)
		}
		out = t
	}
	var onEmpty, onError evalFn
	emptyErr, errorErr := false, false
	for _, cl := range x.Clauses {
		switch {
		case strings.HasSuffix(cl.Text, "ON EMPTY"):
			emptyErr = strings.HasPrefix(cl.Text, "ERROR")
			if cl.Default != nil {
				f, _, err := c.compile(cl.Default)
				if err != nil {
					return nil, out, err
				}
				onEmpty = f
			}
		case strings.HasSuffix(cl.Text, "ON ERROR"):
			errorErr = strings.HasPrefix(cl.Text, "ERROR")
			if cl.Default != nil {
				f, _, err := c.compile(cl.Default)
				if err != nil {
					return nil, out, err
				}
				onError = f
			}
		}
	}
	wrap := ""
	if cl := clause("WRAPPER"); cl != nil && !strings.Contains(cl.Text, "WITHOUT") {
		wrap = "UNCONDITIONAL"
		if strings.Contains(cl.Text, "CONDITIONAL") && !strings.Contains(cl.Text, "UNCONDITIONAL") {
			wrap = "CONDITIONAL"
		}
	}
	name, loc := x.Name, c.rt.zone
	return func(row value.Row) (any, error) {
		d, p, err := both(row, doc, pathFn)
		if err != nil || d == nil || p == nil {
			return nil, err
		}
		var root any
		dec := json.NewDecoder(strings.NewReader(fmt.Sprint(d)))
		dec.UseNumber()
		if err := dec.Decode(&root); err != nil {
			if name == "JSON_EXISTS" {
				return false, nil
			}
			return fallback(row, onError, errorErr, out, fmt.Errorf("%s: not JSON: %v", name, err))
		}
		found, ok, err := jsonPath(root, p.(string))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		switch name {
		case "JSON_EXISTS":
			return ok, nil
		case "JSON_VALUE":
			if !ok || found == nil {
				return fallback(row, onEmpty, emptyErr, out, fmt.Errorf("JSON_VALUE: no value at %s", p))
			}
			var s string
			switch v := found.(type) {
			case string:
				s = v
			case json.Number:
				s = v.String()
			case bool:
				s = strconv.FormatBool(v)
			default:
				return fallback(row, onError, errorErr, out, fmt.Errorf("JSON_VALUE: the value at %s is not a scalar", p))
			}
			if out.IsString() {
				return s, nil
			}
			v, err := value.Cast(s, tStr, out, loc)
			if err != nil {
				return fallback(row, onError, errorErr, out, err)
			}
			return v, nil
		}
		if !ok {
			return nil, nil
		}
		_, isArr := found.([]any)
		_, isObj := found.(map[string]any)
		switch {
		case wrap == "UNCONDITIONAL" || wrap == "CONDITIONAL" && !isArr && !isObj:
			found = []any{found}
		case !isArr && !isObj:
			return nil, nil
		}
		b, err := json.Marshal(found)
		return string(b), err
	}, out, nil
}

func fallback(row value.Row, def evalFn, fail bool, out value.Type, cause error) (any, error) {
	if fail {
		return nil, cause
	}
	if def == nil {
		return nil, nil
	}
	v, err := def(row)
	if err != nil || v == nil {
		return nil, err
	}
	return value.Cast(v, value.Type{Kind: value.Raw}, out, nil)
}

// jsonAggArg is what JSON_OBJECTAGG and JSON_ARRAYAGG (as aggCall makes
// them) accumulate: the value written as JSON text, NULL for a NULL, and
// for JSON_OBJECTAGG an array of the key and that text. A value that is a
// JSON function's result is inserted as JSON, as JSON_OBJECT does.
func (c *compiler) jsonAggArg(f *ast.FuncCall) (evalFn, error) {
	name := f.FuncName()
	args := f.Args[:len(f.Args)-1]
	want := 1
	if name == "JSON_OBJECTAGG" {
		want = 2
	}
	if len(args) != want {
		return nil, errorAt(f, "%s takes %s", name, map[int]string{1: "one value", 2: "one KEY … VALUE … pair"}[want])
	}
	var key evalFn
	if want == 2 {
		k, kt, err := c.compile(args[0])
		if err != nil {
			return nil, err
		}
		if !kt.IsString() {
			return nil, errorAt(args[0], "JSON_OBJECTAGG's key must be a character string, not %s", kt)
		}
		key = k
	}
	v := args[len(args)-1]
	vf, vt, err := c.compile(v)
	if err != nil {
		return nil, err
	}
	_, nested := v.(*ast.JSONCallExpr)
	loc := c.rt.zone
	text := func(row value.Row) (any, error) {
		x, err := vf(row)
		if err != nil || x == nil {
			return nil, err
		}
		if s, ok := x.(string); ok && nested {
			return s, nil
		}
		var b bytes.Buffer
		if err := writeJSON(&b, x, vt, loc); err != nil {
			return nil, err
		}
		return b.String(), nil
	}
	if key == nil {
		return text, nil
	}
	return func(row value.Row) (any, error) {
		k, err := key(row)
		if err != nil {
			return nil, err
		}
		t, err := text(row)
		if err != nil {
			return nil, err
		}
		return value.Array{k, t}, nil
	}, nil
}
