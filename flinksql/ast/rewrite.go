package ast

import "reflect"

// Rewriting a parsed script in place — what a debug run does to its job
// instead of rewriting the text and parsing it again: stand-ins for user
// functions (ApplyStandIns), secrets put in their options (FillOptions).
// Like Inspect, these walk the nodes' exported fields by reflection, so
// they cover every node type, including those added later.

// Clone is a deep copy of the tree rooted at n: nothing of it is shared
// with n, so one subtree can be put in several places.
func Clone[N Node](n N) N {
	v := reflect.ValueOf(n)
	if !v.IsValid() || v.Kind() == reflect.Pointer && v.IsNil() {
		return n
	}
	return deepCopy(v).Interface().(N)
}

func deepCopy(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		c := reflect.New(v.Type().Elem())
		c.Elem().Set(deepCopy(v.Elem()))
		return c
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		c := reflect.New(v.Type()).Elem()
		c.Set(deepCopy(v.Elem()))
		return c
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			c.Index(i).Set(deepCopy(v.Index(i)))
		}
		return c
	case reflect.Struct:
		c := reflect.New(v.Type()).Elem()
		c.Set(v) // the unexported fields, shallow
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				c.Field(i).Set(deepCopy(v.Field(i)))
			}
		}
		return c
	}
	return v
}

// RewriteExprs walks the tree rooted at n and asks f of each expression,
// parents before their children, what stands in its place: f returns the
// replacement and true, or false to keep the expression and walk into it.
// A replacement is not walked. A field that holds one kind of node only
// (CallStmt's *FuncCall) keeps its node when the replacement is of another
// kind.
func RewriteExprs(n Node, f func(Expr) (Expr, bool)) {
	if n == nil || isNilNode(n) {
		return
	}
	rewriteIn(reflect.ValueOf(n), f)
}

var exprType = reflect.TypeOf((*Expr)(nil)).Elem()

func rewriteIn(v reflect.Value, f func(Expr) (Expr, bool)) {
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return
	}
	for i := range v.NumField() {
		if v.Type().Field(i).IsExported() {
			rewriteField(v.Field(i), f)
		}
	}
}

func rewriteField(fv reflect.Value, f func(Expr) (Expr, bool)) {
	switch fv.Kind() {
	case reflect.Interface, reflect.Pointer:
		if fv.IsNil() {
			return
		}
		if e, ok := fv.Interface().(Expr); ok {
			if to, replace := f(e); replace {
				if to != nil && reflect.TypeOf(to).AssignableTo(fv.Type()) && fv.CanSet() {
					fv.Set(reflect.ValueOf(to))
				}
				return
			}
		}
		if _, ok := fv.Interface().(Node); ok {
			rewriteIn(fv.Elem(), f)
		}
	case reflect.Slice:
		for j := range fv.Len() {
			rewriteField(fv.Index(j), f)
		}
	}
}

// Place gives every node of the tree rooted at n the span at: a tree
// that was not written where it now stands (a stand-in's expression, a
// secret's value) reports its errors where it stands.
func Place(n Node, at Span) {
	if n == nil || isNilNode(n) {
		return
	}
	place(reflect.ValueOf(n), at)
}

var spanType = reflect.TypeOf(Span{})

func place(v reflect.Value, at Span) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			place(v.Elem(), at)
		}
	case reflect.Slice:
		for i := range v.Len() {
			place(v.Index(i), at)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if !v.Type().Field(i).IsExported() {
				continue
			}
			fv := v.Field(i)
			if fv.Type() == spanType && fv.CanSet() {
				fv.Set(reflect.ValueOf(at))
				continue
			}
			place(fv, at)
		}
	}
}
