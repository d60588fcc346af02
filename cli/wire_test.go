package cli

import (
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"time"
)

// decodeWire reads the documented output form back into Go values, the
// inverse of wire: the tests read -o json the way a script would, then
// check what they mean.
func decodeWire(data []byte, v any) error {
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		return err
	}
	return unwire(doc, reflect.ValueOf(v).Elem())
}

func unwire(doc any, v reflect.Value) error {
	if doc == nil {
		v.SetZero()
		return nil
	}
	t := v.Type()
	switch {
	case t == timeType:
		s, _ := doc.(string)
		tm, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return err
		}
		v.Set(reflect.ValueOf(tm))
		return nil
	case t == durationType:
		f, _ := doc.(float64)
		v.SetInt(int64(f * float64(time.Second)))
		return nil
	case reflect.PointerTo(t).Implements(reflect.TypeFor[encoding.TextUnmarshaler]()) && t.Kind() != reflect.Struct:
		s, ok := doc.(string)
		if !ok {
			return fmt.Errorf("%s: want a name, got %v", t, doc)
		}
		return v.Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(s))
	}
	switch t.Kind() {
	case reflect.Pointer:
		nv := reflect.New(t.Elem())
		if err := unwire(doc, nv.Elem()); err != nil {
			return err
		}
		v.Set(nv)
	case reflect.Struct:
		m, ok := doc.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: want an object, got %T", t, doc)
		}
		return unwireFields(m, v)
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			s, _ := doc.(string)
			v.SetBytes([]byte(s))
			return nil
		}
		list, ok := doc.([]any)
		if !ok {
			return fmt.Errorf("%s: want a list, got %T", t, doc)
		}
		s := reflect.MakeSlice(t, len(list), len(list))
		for i, x := range list {
			if err := unwire(x, s.Index(i)); err != nil {
				return err
			}
		}
		v.Set(s)
	case reflect.Map:
		m, _ := doc.(map[string]any)
		mv := reflect.MakeMapWithSize(t, len(m))
		for k, x := range m {
			ev := reflect.New(t.Elem()).Elem()
			if err := unwire(x, ev); err != nil {
				return err
			}
			mv.SetMapIndex(reflect.ValueOf(k).Convert(t.Key()), ev)
		}
		v.Set(mv)
	default:
		b, _ := json.Marshal(doc)
		return json.Unmarshal(b, v.Addr().Interface())
	}
	return nil
}

func unwireFields(m map[string]any, v reflect.Value) error {
	for _, f := range fieldsOf(v.Type()) {
		fv := v.FieldByIndex(f.index)
		if f.embedded {
			if fv.Kind() == reflect.Pointer {
				fv.Set(reflect.New(fv.Type().Elem()))
				fv = fv.Elem()
			}
			if err := unwireFields(m, fv); err != nil {
				return err
			}
			continue
		}
		x, ok := m[f.name]
		if !ok {
			continue
		}
		if err := unwire(x, fv); err != nil {
			return fmt.Errorf("%s: %w", f.name, err)
		}
	}
	return nil
}
