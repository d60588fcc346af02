package builtin

import (
	"sort"
	"strings"

	"github.com/palink/palink/flinksql/ast"
)

// Option describes one WITH option of a connector or format: what the
// completion popup shows (type, default, a line of description, the
// Values of an enum) and what the validator checks.
type Option struct {
	Key  string // exact key; for a prefix family, the prefix ending in '.'
	Typ  string // String, Integer, Long, Boolean, Double, Duration, MemorySize, Enum, List, Map
	Def  string // the default as the docs give it; "" for none
	Desc string
	Enum []string
	// Prefix is set for an open family such as 'properties.' (passed on to
	// a client) or 'fields.' (per column): any key under it is accepted.
	Prefix   bool
	Required bool
	Since    Version // the release that brought the option; zero for all
}

// Opt makes an option; the chained methods below refine it. The data files
// (connectors_flink.go, connectors_external.go, formats.go) read as tables.
func Opt(key, typ, def, desc string) Option {
	return Option{Key: key, Typ: typ, Def: def, Desc: desc}
}

// Values makes the option an enum of vs.
func (op Option) Values(vs ...string) Option { op.Typ, op.Enum = "Enum", vs; return op }

// Req marks the option required.
func (op Option) Req() Option { op.Required = true; return op }
func (op Option) from(major, minor int) Option {
	op.Since = Version{major, minor}
	return op
}
func (op Option) open() Option { op.Prefix = true; return op }

// ConnectorSpec is what palink knows of a connector.
type ConnectorSpec struct {
	Name string
	Desc string
	// Checked connectors are Apache Flink's own, whose options palink
	// follows release by release: an unknown option is an error. The others
	// (Flink CDC, Paimon, Iceberg, Pulsar, Doris, faker, ...) ship on their
	// own schedule, so their options help completion but are never
	// reported, and nothing is assumed of their capabilities.
	Checked bool
	Options []Option
	// Required lists the options of which one must be set, as alternatives.
	Required [][]string
	// Formats are the option keys that name a format ('format',
	// 'key.format', 'value.format'); each enables that format's options
	// under the matching prefix.
	Formats []string
	// Lookup is true for connectors that can serve a lookup join.
	Lookup bool
	// ScanOnly connectors are known not to serve lookups: a lookup join
	// against them is an error (checked connectors only).
	ScanOnly bool
	// Upsert is true for connectors that need a primary key.
	Upsert bool
	// AppendOnlySink is true for sinks that cannot take updates.
	AppendOnlySink bool
}

// Connectors are the connectors palink knows, by 'connector' value.
var Connectors = map[string]*ConnectorSpec{}

func register(specs ...*ConnectorSpec) {
	for _, s := range specs {
		for _, op := range s.Options {
			if op.Required {
				s.Required = append(s.Required, []string{op.Key})
			}
		}
		Connectors[s.Name] = s
	}
}

// alias registers a connector under another name with the same options.
func alias(name, of string, change func(*ConnectorSpec)) {
	c := *Connectors[of]
	c.Name = name
	c.Options = append([]Option(nil), c.Options...)
	c.Required = append([][]string(nil), c.Required...)
	if change != nil {
		change(&c)
	}
	Connectors[name] = &c
}

// Option returns the connector's option with the exact key, or nil.
func (c *ConnectorSpec) option(key string) *Option {
	for i := range c.Options {
		if !c.Options[i].Prefix && c.Options[i].Key == key {
			return &c.Options[i]
		}
	}
	return nil
}

// OptionFor finds what describes key among the connector's and its
// formats' options, prefixes included.
func OptionFor(c *ConnectorSpec, props ast.Properties, key string) *Option {
	if op := c.option(key); op != nil {
		return op
	}
	for _, fk := range c.Formats {
		format, ok := props.Get(fk)
		if !ok {
			continue
		}
		prefix := strings.TrimSuffix(fk, "format") + format + "."
		if f := Formats[format]; f != nil && strings.HasPrefix(key, prefix) {
			rest := strings.TrimPrefix(key, prefix)
			for i := range f.Options {
				if f.Options[i].Key == rest {
					return &f.Options[i]
				}
			}
		}
	}
	for i := range c.Options {
		if c.Options[i].Prefix && strings.HasPrefix(key, c.Options[i].Key) {
			return &c.Options[i]
		}
	}
	return nil
}

// AllowedOptions returns the option keys the table's connector accepts
// given the formats it names, and the open prefixes.
func AllowedOptions(spec *ConnectorSpec, props ast.Properties) (exact map[string]bool, prefixes []string) {
	exact = map[string]bool{"connector": true}
	for _, op := range spec.Options {
		if op.Prefix {
			prefixes = append(prefixes, op.Key)
		} else {
			exact[op.Key] = true
		}
	}
	for _, fk := range spec.Formats {
		format, ok := props.Get(fk)
		if !ok {
			continue
		}
		prefix := strings.TrimSuffix(fk, "format") // "", "key." or "value."
		f, known := Formats[format]
		if !known || f.open {
			prefixes = append(prefixes, prefix+format+".")
			continue
		}
		for _, op := range f.Options {
			exact[prefix+format+"."+op.Key] = true
		}
	}
	return exact, prefixes
}

// ConnectorNames lists every connector palink knows, sorted.
func ConnectorNames() []string {
	out := make([]string, 0, len(Connectors))
	for k := range Connectors {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func join(lists ...[]Option) []Option {
	var out []Option
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// KafkaMetadata are the metadata keys of the Kafka connectors.
var KafkaMetadata = []string{"topic", "partition", "headers", "leader-epoch", "offset", "timestamp", "timestamp-type"}
