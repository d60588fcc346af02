package debug

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/palink/palink/flinksql/ast"
	"github.com/palink/palink/join/debug/stream"
	"github.com/palink/palink/join/debug/value"
)

// planTableFunc plans TABLE(f(…)) in FROM: the window TVFs TUMBLE, HOP and
// CUMULATE over event time; other table functions are refused.
func (d tableFuncs) planTableFunc(ctx context.Context, f *ast.TableFunc, ctes map[string]*cte) (*rel, error) {
	call, ok := f.Call.(*ast.FuncCall)
	if !ok {
		return nil, errorAt(f, "this table function is not supported in debug runs")
	}
	name := call.FuncName()
	var kind stream.WindowKind
	var params []string // the parameters after DATA and TIMECOL
	switch name {
	case "TUMBLE":
		kind, params = stream.Tumble, []string{"SIZE", "OFFSET"}
	case "HOP":
		kind, params = stream.Hop, []string{"SLIDE", "SIZE", "OFFSET"}
	case "CUMULATE":
		kind, params = stream.Cumulate, []string{"STEP", "SIZE", "OFFSET"}
	case "SESSION":
		kind, params = stream.Session, []string{"GAP"}
	default:
		return nil, errorAt(call, "table function %s is not supported in debug runs: only the window TVFs TUMBLE, HOP and CUMULATE", name)
	}
	args := map[string]ast.Expr{}
	names := append([]string{"DATA", "TIMECOL"}, params...)
	for i, a := range call.Args {
		if na, ok := a.(*ast.NamedArg); ok {
			args[strings.ToUpper(na.Name.Name)] = na.Value
			continue
		}
		if i >= len(names) {
			return nil, errorAt(a, "%s takes at most %d arguments", name, len(names))
		}
		args[names[i]] = a
	}
	data, ok := args["DATA"].(*ast.TableArg)
	if !ok {
		return nil, errorAt(call, "%s needs TABLE t as its first argument", name)
	}
	// A SESSION's PARTITION BY keys are among its aggregate's GROUP BY keys.
	if kind != stream.Session && len(data.PartitionBy) > 0 || len(data.OrderBy) > 0 {
		return nil, errorAt(data, "PARTITION BY and ORDER BY of a table argument are not supported in debug runs yet")
	}
	in, err := d.namedTable(ctx, data, data.Name, ctes, data.Name.Last())
	if err != nil {
		return nil, err
	}
	if in.updating {
		return nil, errorAt(call, "StreamPhysicalWindowTableFunction doesn't support consuming update and delete changes which is produced by node %s", in.producer)
	}
	desc, ok := args["TIMECOL"].(*ast.DescriptorExpr)
	if !ok || len(desc.Columns) != 1 {
		return nil, errorAt(call, "%s needs DESCRIPTOR(time column) as its second argument", name)
	}
	tc := -1
	for i, c := range in.cols {
		if strings.EqualFold(c.name, desc.Columns[0].Name) {
			tc = i
		}
	}
	if tc < 0 {
		return nil, errorAt(desc, "Unknown identifier '%s'", desc.Columns[0].Name)
	}
	switch in.cols[tc].time {
	case plainTime:
		return nil, errorAt(desc, "The window function requires the timecol is a time attribute type, but is %s.", in.cols[tc].typ)
	}
	ms := func(key string) (int64, error) {
		e, ok := args[key]
		if !ok {
			return 0, nil
		}
		v, _, err := d.compiler(nil).constValue(e)
		if err != nil {
			return 0, err
		}
		dur, ok := v.(time.Duration)
		if !ok {
			return 0, errorAt(e, "%s of %s must be an INTERVAL DAY TO SECOND", key, name)
		}
		return dur.Milliseconds(), nil
	}
	var w stream.Windows
	w.Kind = kind
	sizeParam := "SIZE"
	if kind == stream.Session {
		sizeParam = "GAP"
	}
	if w.Size, err = ms(sizeParam); err != nil {
		return nil, err
	}
	if w.Offset, err = ms("OFFSET"); err != nil {
		return nil, err
	}
	if kind == stream.Hop {
		w.Step, err = ms("SLIDE")
	} else if kind == stream.Cumulate {
		w.Step, err = ms("STEP")
	}
	if err != nil {
		return nil, err
	}
	if w.Size <= 0 || (kind == stream.Hop || kind == stream.Cumulate) && w.Step <= 0 {
		return nil, errorAt(call, "%s: the window's size and step must be positive", name)
	}
	if (kind == stream.Hop || kind == stream.Cumulate) && w.Size%w.Step != 0 {
		return nil, errorAt(call, "%s requires size must be an integral multiple of %s, but got size %d ms and %s %d ms.", name, strings.ToLower(params[0]), w.Size, strings.ToLower(params[0]), w.Step)
	}
	out := d.windowTVF(in, tc, w, name, [3]string{"window_start", "window_end", "window_time"})
	if f.Alias != nil {
		out = out.renamed(f.Alias.Name.Name)
		return aliasColumns(out, f.Alias)
	}
	return out, nil
}

// windowTVF adds a window TVF of windows w on time column tc to in: its
// rows with the window columns (named names) added.
func (d *runner) windowTVF(in *rel, tc int, w stream.Windows, name string, names [3]string) *rel {
	kind := w.Kind
	ltz := in.cols[tc].typ.Kind == value.TimestampLTZ
	zone := d.zone
	tvf := &stream.WindowTVF{W: w, Time: tc,
		Millis: func(v any) (int64, bool) {
			t, ok := v.(time.Time)
			if !ok {
				return 0, false
			}
			if ltz { // windows of an instant are in the session time zone
				_, off := t.In(zone).Zone()
				return t.UnixMilli() + int64(off)*1000, true
			}
			return t.UnixMilli(), true
		},
		Window: func(start, end int64) (any, any, any) {
			ws, we := stream.FromMillis(start), stream.FromMillis(end)
			wt := stream.FromMillis(end - 1)
			if ltz {
				_, off := wt.In(zone).Zone()
				wt = time.UnixMilli(end - 1 - int64(off)*1000).UTC()
			}
			return ws, we, wt
		}}
	in.out.To(tvf)
	d.graph.Add("WindowTableFunction", tvf)
	cols := append(scope{}, in.cols...)
	// window_time is a time attribute of the time column's kind.
	wtAttr := cols[tc].time
	cols[tc].time = plainTime
	alias := in.cols[tc].table
	wtType := value.TS(3)
	if ltz {
		wtType = value.LTZ(3)
	}
	wtType.NotNull = true
	ts := value.TS(3)
	ts.NotNull = true
	cols = append(cols, col{table: alias, name: names[0], typ: ts, win: winStart},
		col{table: alias, name: names[1], typ: ts, win: winEnd},
		col{table: alias, name: names[2], typ: wtType, time: wtAttr, win: winTime})
	out := &rel{cols: cols, out: &tvf.Out, producer: fmt.Sprintf("WindowTableFunction(window=[%s])", name), session: kind == stream.Session, sliced: kind == stream.Hop || kind == stream.Cumulate,
		zonedWindows: ltz, procWindows: wtAttr == proctime}
	return out
}
