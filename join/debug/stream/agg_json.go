package stream

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/palink/palink/join/debug/value"
)

// jsonAcc is JSON_OBJECTAGG and JSON_ARRAYAGG with retraction, as Flink's
// JsonObjectAggFunction and JsonArrayAggFunction keep them: a map view of
// key to the value's JSON text, a list view of the items' JSON texts. The
// planner hands over the JSON text already written (NULL for a NULL
// value) — for JSON_OBJECTAGG an array of the key and that text — so a
// value prints as it would in JSON_OBJECT. NULL ON NULL keeps a NULL as
// JSON null, ABSENT ON NULL leaves it out (JSON_OBJECTAGG's default is
// NULL ON NULL, JSON_ARRAYAGG's ABSENT ON NULL, as Flink documents).
type jsonAcc struct {
	object bool
	absent bool
	keys   map[string]string
	items  []string
}

func (j *jsonAcc) add(v any) error {
	if !j.object {
		if v == nil {
			if j.absent {
				return nil
			}
			v = "null"
		}
		s, _ := v.(string)
		j.items = append(j.items, s)
		return nil
	}
	k, text, err := j.entry(v)
	if err != nil {
		return err
	}
	if _, dup := j.keys[k]; dup {
		return fmt.Errorf("Duplicate key '%s' in JSON_OBJECTAGG", k)
	}
	if text == nil {
		if j.absent {
			return nil
		}
		text = "null"
	}
	if j.keys == nil {
		j.keys = map[string]string{}
	}
	j.keys[k], _ = text.(string)
	return nil
}

// retract takes a key away whatever its value (Flink removes the map
// view's entry), or the first equal item of the list.
func (j *jsonAcc) retract(v any) error {
	if !j.object {
		if v == nil {
			if j.absent {
				return nil
			}
			v = "null"
		}
		s, _ := v.(string)
		for i, it := range j.items {
			if it == s {
				j.items = append(j.items[:i:i], j.items[i+1:]...)
				return nil
			}
		}
		return nil
	}
	k, _, err := j.entry(v)
	if err != nil {
		return err
	}
	delete(j.keys, k)
	return nil
}

func (j *jsonAcc) entry(v any) (string, any, error) {
	kv, _ := v.(value.Array)
	if len(kv) != 2 {
		return "", nil, fmt.Errorf("JSON_OBJECTAGG: malformed entry")
	}
	k, ok := kv[0].(string)
	if !ok {
		return "", nil, fmt.Errorf("JSON_OBJECTAGG: a key is NULL (the key must be a non-nullable string)")
	}
	return k, kv[1], nil
}

// result writes the object's keys in order, as Flink's documented example
// shows them ({"Apple":2,"Banana":17,"Orange":0}); the map view itself
// has no order a test could rely on.
func (j *jsonAcc) result() any {
	var b strings.Builder
	if !j.object {
		b.WriteByte('[')
		b.WriteString(strings.Join(j.items, ","))
		b.WriteByte(']')
		return b.String()
	}
	keys := make([]string, 0, len(j.keys))
	for k := range j.keys {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		ks, _ := json.Marshal(k)
		b.Write(ks)
		b.WriteByte(':')
		b.WriteString(j.keys[k])
	}
	b.WriteByte('}')
	return b.String()
}

func (j *jsonAcc) size() int64 {
	n := int64(32)
	for k, v := range j.keys {
		n += int64(len(k)+len(v)) + 32
	}
	for _, it := range j.items {
		n += int64(len(it)) + 16
	}
	return n
}
