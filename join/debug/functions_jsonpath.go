package debug

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// jsonPath follows a SQL/JSON path ($.a.b[0], $['k'], lax/strict, [*]).
func jsonPath(root any, path string) (any, bool, error) {
	p := strings.TrimSpace(path)
	p = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(p, "lax"), "strict"))
	if !strings.HasPrefix(p, "$") {
		return nil, false, fmt.Errorf("path %q does not start with $", path)
	}
	cur := []any{root}
	p = p[1:]
	wild := false
	for p != "" {
		var next []any
		switch {
		case strings.HasPrefix(p, "."):
			p = p[1:]
			end := strings.IndexAny(p, ".[")
			if end < 0 {
				end = len(p)
			}
			key := p[:end]
			p = p[end:]
			for _, c := range cur {
				if m, ok := c.(map[string]any); ok {
					if key == "*" {
						wild = true
						for _, v := range m {
							next = append(next, v)
						}
					} else if v, ok := m[key]; ok {
						next = append(next, v)
					}
				}
			}
		case strings.HasPrefix(p, "["):
			end := strings.IndexByte(p, ']')
			if end < 0 {
				return nil, false, fmt.Errorf("path %q: unclosed [", path)
			}
			sel := strings.TrimSpace(p[1:end])
			p = p[end+1:]
			for _, c := range cur {
				switch {
				case sel == "*":
					wild = true
					if a, ok := c.([]any); ok {
						next = append(next, a...)
					}
				case strings.HasPrefix(sel, "'") || strings.HasPrefix(sel, "\""):
					if m, ok := c.(map[string]any); ok {
						if v, ok := m[strings.Trim(sel, "'\"")]; ok {
							next = append(next, v)
						}
					}
				default:
					i, err := strconv.Atoi(sel)
					if err != nil {
						return nil, false, fmt.Errorf("path %q: bad index %s", path, sel)
					}
					if a, ok := c.([]any); ok && i >= 0 && i < len(a) {
						next = append(next, a[i])
					}
				}
			}
		default:
			return nil, false, fmt.Errorf("path %q: unexpected %q", path, p)
		}
		cur = next
	}
	switch {
	case wild:
		return cur, len(cur) > 0, nil
	case len(cur) == 0:
		return nil, false, nil
	}
	return cur[0], true, nil
}

// isJSON is IS JSON [VALUE|SCALAR|ARRAY|OBJECT].
func isJSON(s string, ok bool, what string) bool {
	if !ok {
		return false
	}
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return false
	}
	switch what {
	case "JSON SCALAR":
		switch v.(type) {
		case map[string]any, []any:
			return false
		}
	case "JSON ARRAY":
		_, ok := v.([]any)
		return ok
	case "JSON OBJECT":
		_, ok := v.(map[string]any)
		return ok
	}
	return true
}
