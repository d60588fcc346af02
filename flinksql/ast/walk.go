package ast

import "reflect"

// Inspect walks the tree rooted at n depth-first, calling f for each node
// in source order of fields; if f returns false, the node's children are
// skipped. It visits every node type of this package, including those
// added later, because it walks struct fields by reflection.
func Inspect(n Node, f func(Node) bool) {
	if n == nil || isNilNode(n) {
		return
	}
	if !f(n) {
		return
	}
	walkChildren(reflect.ValueOf(n), f)
}

var nodeType = reflect.TypeOf((*Node)(nil)).Elem()

func isNilNode(n Node) bool {
	v := reflect.ValueOf(n)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

func walkChildren(v reflect.Value, f func(Node) bool) {
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return
	}
	for i := 0; i < v.NumField(); i++ {
		if !v.Type().Field(i).IsExported() {
			continue
		}
		walkValue(v.Field(i), f)
	}
}

func walkValue(fv reflect.Value, f func(Node) bool) {
	switch fv.Kind() {
	case reflect.Interface, reflect.Pointer:
		if fv.IsNil() {
			return
		}
		if fv.Type().Implements(nodeType) || fv.Kind() == reflect.Interface && fv.Elem().Type().Implements(nodeType) {
			if n, ok := fv.Interface().(Node); ok {
				Inspect(n, f)
			}
		}
	case reflect.Slice:
		for j := 0; j < fv.Len(); j++ {
			walkValue(fv.Index(j), f)
		}
	}
}
