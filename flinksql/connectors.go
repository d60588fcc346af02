package flinksql

import (
	"sort"
	"strings"

	"github.com/palink/palink/flinksql/ast"
)

// option describes one WITH option of a connector or format: what the
// completion popup shows (type, default, a line of description, the
// values of an enum) and what the validator checks.
type option struct {
	key  string // exact key; for a prefix family, the prefix ending in '.'
	typ  string // String, Integer, Long, Boolean, Double, Duration, MemorySize, Enum, List, Map
	def  string // the default as the docs give it; "" for none
	desc string
	enum []string
	// prefix is set for an open family such as 'properties.' (passed on to
	// a client) or 'fields.' (per column): any key under it is accepted.
	prefix   bool
	required bool
	since    Version // the release that brought the option; zero for all
}

// o makes an option; the chained methods below refine it. The data files
// (connectors_flink.go, connectors_external.go, formats.go) read as tables.
func o(key, typ, def, desc string) option {
	return option{key: key, typ: typ, def: def, desc: desc}
}

func (op option) values(vs ...string) option { op.typ, op.enum = "Enum", vs; return op }
func (op option) req() option                { op.required = true; return op }
func (op option) from(major, minor int) option {
	op.since = Version{major, minor}
	return op
}
func (op option) open() option { op.prefix = true; return op }

// connectorSpec is what palink knows of a connector.
type connectorSpec struct {
	name string
	desc string
	// checked connectors are Apache Flink's own, whose options palink
	// follows release by release: an unknown option is an error. The others
	// (Flink CDC, Paimon, Iceberg, Pulsar, Doris, faker, ...) ship on their
	// own schedule, so their options help completion but are never
	// reported, and nothing is assumed of their capabilities.
	checked bool
	options []option
	// required lists the options of which one must be set, as alternatives.
	required [][]string
	// formats are the option keys that name a format ('format',
	// 'key.format', 'value.format'); each enables that format's options
	// under the matching prefix.
	formats []string
	// lookup is true for connectors that can serve a lookup join.
	lookup bool
	// scanOnly connectors are known not to serve lookups: a lookup join
	// against them is an error (checked connectors only).
	scanOnly bool
	// upsert is true for connectors that need a primary key.
	upsert bool
	// appendOnlySink is true for sinks that cannot take updates.
	appendOnlySink bool
}

// connectors are the connectors palink knows, by 'connector' value.
var connectors = map[string]*connectorSpec{}

func register(specs ...*connectorSpec) {
	for _, s := range specs {
		for _, op := range s.options {
			if op.required {
				s.required = append(s.required, []string{op.key})
			}
		}
		connectors[s.name] = s
	}
}

// alias registers a connector under another name with the same options.
func alias(name, of string, change func(*connectorSpec)) {
	c := *connectors[of]
	c.name = name
	c.options = append([]option(nil), c.options...)
	c.required = append([][]string(nil), c.required...)
	if change != nil {
		change(&c)
	}
	connectors[name] = &c
}

// option returns the connector's option with the exact key, or nil.
func (c *connectorSpec) option(key string) *option {
	for i := range c.options {
		if !c.options[i].prefix && c.options[i].key == key {
			return &c.options[i]
		}
	}
	return nil
}

// optionFor finds what describes key among the connector's and its
// formats' options, prefixes included.
func optionFor(c *connectorSpec, props ast.Properties, key string) *option {
	if op := c.option(key); op != nil {
		return op
	}
	for _, fk := range c.formats {
		format, ok := props.Get(fk)
		if !ok {
			continue
		}
		prefix := strings.TrimSuffix(fk, "format") + format + "."
		if f := formats[format]; f != nil && strings.HasPrefix(key, prefix) {
			rest := strings.TrimPrefix(key, prefix)
			for i := range f.options {
				if f.options[i].key == rest {
					return &f.options[i]
				}
			}
		}
	}
	for i := range c.options {
		if c.options[i].prefix && strings.HasPrefix(key, c.options[i].key) {
			return &c.options[i]
		}
	}
	return nil
}

// allowedOptions returns the option keys the table's connector accepts
// given the formats it names, and the open prefixes.
func allowedOptions(spec *connectorSpec, props ast.Properties) (exact map[string]bool, prefixes []string) {
	exact = map[string]bool{"connector": true}
	for _, op := range spec.options {
		if op.prefix {
			prefixes = append(prefixes, op.key)
		} else {
			exact[op.key] = true
		}
	}
	for _, fk := range spec.formats {
		format, ok := props.Get(fk)
		if !ok {
			continue
		}
		prefix := strings.TrimSuffix(fk, "format") // "", "key." or "value."
		f, known := formats[format]
		if !known || f.open {
			prefixes = append(prefixes, prefix+format+".")
			continue
		}
		for _, op := range f.options {
			exact[prefix+format+"."+op.key] = true
		}
	}
	return exact, prefixes
}

// connectorNames lists every connector palink knows, sorted.
func connectorNames() []string {
	out := make([]string, 0, len(connectors))
	for k := range connectors {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// suggest returns the candidate closest to s by edit distance, when it is
// close enough to be a likely typo.
func suggest(s string, candidates []string) string {
	best, bestD := "", 1<<30
	for _, c := range candidates {
		d := editDistance(s, c)
		if d < bestD || d == bestD && c < best {
			best, bestD = c, d
		}
	}
	limit := 2
	if len(s) >= 12 {
		limit = 3
	}
	if bestD == 0 || bestD > limit {
		return ""
	}
	return best
}

// editDistance is the Levenshtein distance between a and b (in bytes; the
// option names are ASCII).
func editDistance(a, b string) int {
	if a == b {
		return 0
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func join(lists ...[]option) []option {
	var out []option
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// kafkaMetadata are the metadata keys of the Kafka connectors.
var kafkaMetadata = []string{"topic", "partition", "headers", "leader-epoch", "offset", "timestamp", "timestamp-type"}
