package debug

import (
	"math"
	"math/big"
	"math/rand/v2"

	"github.com/palink/palink/join/debug/value"
)

// Numeric and conditional functions, as Flink's built-ins.

func init() {
	register(map[string]function{
		"ABS": {1, 1, false, argType(0), func(x *fnCtx, a []any) (any, error) {
			if c, err := value.Compare(a[0], int64(0)); err != nil || c >= 0 {
				return a[0], err
			}
			return value.Negate(a[0], x.types[0])
		}},
		"MOD": {2, 2, false, modType, func(x *fnCtx, a []any) (any, error) {
			return value.Arith('%', a[0], a[1], x.types[0], x.types[1], x.out)
		}},
		"POWER": {2, 2, false, fixed(tDbl), float2(math.Pow)},
		"POW":   {2, 2, false, fixed(tDbl), float2(math.Pow)},
		"SQRT":  {1, 1, false, fixed(tDbl), float1(math.Sqrt)},
		"EXP":   {1, 1, false, fixed(tDbl), float1(math.Exp)},
		"LN":    {1, 1, false, fixed(tDbl), float1(math.Log)},
		"LOG10": {1, 1, false, fixed(tDbl), float1(math.Log10)},
		"LOG2":  {1, 1, false, fixed(tDbl), float1(math.Log2)},
		"LOG": {1, 2, false, fixed(tDbl), func(x *fnCtx, a []any) (any, error) {
			if len(a) == 1 {
				return float1(math.Log)(x, a)
			}
			return float2(func(b, v float64) float64 { return math.Log(v) / math.Log(b) })(x, a)
		}},
		"SIN":     {1, 1, false, fixed(tDbl), float1(math.Sin)},
		"COS":     {1, 1, false, fixed(tDbl), float1(math.Cos)},
		"TAN":     {1, 1, false, fixed(tDbl), float1(math.Tan)},
		"COT":     {1, 1, false, fixed(tDbl), float1(func(f float64) float64 { return 1 / math.Tan(f) })},
		"ASIN":    {1, 1, false, fixed(tDbl), float1(math.Asin)},
		"ACOS":    {1, 1, false, fixed(tDbl), float1(math.Acos)},
		"ATAN":    {1, 1, false, fixed(tDbl), float1(math.Atan)},
		"ATAN2":   {2, 2, false, fixed(tDbl), float2(math.Atan2)},
		"SINH":    {1, 1, false, fixed(tDbl), float1(math.Sinh)},
		"COSH":    {1, 1, false, fixed(tDbl), float1(math.Cosh)},
		"TANH":    {1, 1, false, fixed(tDbl), float1(math.Tanh)},
		"DEGREES": {1, 1, false, fixed(tDbl), float1(func(f float64) float64 { return f * 180 / math.Pi })},
		"RADIANS": {1, 1, false, fixed(tDbl), float1(func(f float64) float64 { return f * math.Pi / 180 })},
		"PI":      {0, 0, true, fixed(tDbl), func(*fnCtx, []any) (any, error) { return math.Pi, nil }},
		"E":       {0, 0, true, fixed(tDbl), func(*fnCtx, []any) (any, error) { return math.E, nil }},
		"SIGN": {1, 1, false, argType(0), func(x *fnCtx, a []any) (any, error) {
			c, err := value.Compare(a[0], int64(0))
			if err != nil {
				return nil, err
			}
			return value.Cast(int64(c), tInt, x.out, nil)
		}},
		"ROUND":    {1, 2, false, roundType, func(x *fnCtx, a []any) (any, error) { return round(x, a, "ROUND") }},
		"TRUNCATE": {1, 2, false, roundType, func(x *fnCtx, a []any) (any, error) { return round(x, a, "TRUNCATE") }},
		"FLOOR":    {1, 1, false, floorType, func(x *fnCtx, a []any) (any, error) { return round(x, a, "FLOOR") }},
		"CEIL":     {1, 1, false, floorType, func(x *fnCtx, a []any) (any, error) { return round(x, a, "CEIL") }},
		"CEILING":  {1, 1, false, floorType, func(x *fnCtx, a []any) (any, error) { return round(x, a, "CEIL") }},
		"RAND": {0, 1, true, fixed(tDbl), func(x *fnCtx, a []any) (any, error) {
			return x.rt.rand(a).Float64(), nil
		}},
		"RAND_INTEGER": {1, 2, true, fixed(tInt), func(x *fnCtx, a []any) (any, error) {
			bound, _ := toInt(a[len(a)-1])
			if bound <= 0 {
				return nil, nil
			}
			return x.rt.rand(a[:len(a)-1]).Int64N(bound), nil
		}},
		"GREATEST": {1, -1, true, commonType(0), func(x *fnCtx, a []any) (any, error) { return extreme(x, a, 1) }},
		"LEAST":    {1, -1, true, commonType(0), func(x *fnCtx, a []any) (any, error) { return extreme(x, a, -1) }},
		"COALESCE": {1, -1, true, commonType(0), func(x *fnCtx, a []any) (any, error) {
			for i, v := range a {
				if v != nil {
					return value.Cast(v, x.types[i], x.out, x.rt.zone)
				}
			}
			return nil, nil
		}},
		"IFNULL": {2, 2, true, commonType(0), func(x *fnCtx, a []any) (any, error) {
			if a[0] != nil {
				return value.Cast(a[0], x.types[0], x.out, x.rt.zone)
			}
			return value.Cast(a[1], x.types[1], x.out, x.rt.zone)
		}},
		"NULLIF": {2, 2, true, argType(0), func(x *fnCtx, a []any) (any, error) {
			if a[0] != nil && a[1] != nil && value.Equal(a[0], a[1]) {
				return nil, nil
			}
			return a[0], nil
		}},
		"IF": {3, 3, true, commonType(1), func(x *fnCtx, a []any) (any, error) {
			if a[0] == true {
				return value.Cast(a[1], x.types[1], x.out, x.rt.zone)
			}
			return value.Cast(a[2], x.types[2], x.out, x.rt.zone)
		}},
	})
}

func modType(ts []value.Type) value.Type {
	t, err := value.ArithType('%', ts[0], ts[1])
	if err != nil {
		return ts[1]
	}
	return t
}

func roundType(ts []value.Type) value.Type {
	t := ts[0].Nullable()
	if t.Kind == value.Decimal {
		// ROUND(DECIMAL(p, s), d) is DECIMAL(p, min(s, d)); d is a constant
		// in practice, taken as 0 when not known here.
		t.Scale = min(t.Scale, 0)
		t.Precision = max(t.Precision-ts[0].Scale+t.Scale, 1)
	}
	return t
}

func floorType(ts []value.Type) value.Type {
	t := ts[0].Nullable()
	if t.Kind == value.Decimal {
		t = value.Dec(max(t.Precision-t.Scale, 1), 0)
	}
	return t
}

func float1(f func(float64) float64) func(*fnCtx, []any) (any, error) {
	return func(_ *fnCtx, a []any) (any, error) {
		x, err := value.ToFloat(a[0])
		return f(x), err
	}
}

func float2(f func(float64, float64) float64) func(*fnCtx, []any) (any, error) {
	return func(_ *fnCtx, a []any) (any, error) {
		x, err := value.ToFloat(a[0])
		if err != nil {
			return nil, err
		}
		y, err := value.ToFloat(a[1])
		return f(x, y), err
	}
}

// round is ROUND, TRUNCATE, FLOOR and CEIL of a number to d digits.
func round(x *fnCtx, a []any, how string) (any, error) {
	digits := int64(0)
	if len(a) == 2 {
		d, err := toInt(a[1])
		if err != nil {
			return nil, err
		}
		digits = d
	}
	switch v := a[0].(type) {
	case int64:
		if digits >= 0 || how == "FLOOR" || how == "CEIL" {
			return v, nil
		}
		p := int64(math.Pow10(int(-digits)))
		q := v / p * p
		if how == "ROUND" && abs64(v-q)*2 >= p {
			if v < 0 {
				q -= p
			} else {
				q += p
			}
		}
		return q, nil
	case float64:
		p := math.Pow10(int(digits))
		switch how {
		case "FLOOR":
			return math.Floor(v), nil
		case "CEIL":
			return math.Ceil(v), nil
		case "TRUNCATE":
			return math.Trunc(v*p) / p, nil
		}
		// Half up on the decimal digits, as BigDecimal does for Flink.
		r := new(big.Rat)
		if r.SetFloat64(v) == nil {
			return v, nil
		}
		out, _ := value.Round(r, value.Dec(38, int(max(digits, 0)))).(*big.Rat).Float64()
		if digits < 0 {
			out = math.Round(v*p) / p
		}
		return out, nil
	case *big.Rat:
		scale := int(max(digits, 0))
		switch how {
		case "FLOOR", "CEIL":
			q := new(big.Int).Quo(v.Num(), v.Denom())
			r := new(big.Rat).SetInt(q)
			if how == "FLOOR" && v.Sign() < 0 && r.Cmp(v) != 0 {
				r.Sub(r, big.NewRat(1, 1))
			}
			if how == "CEIL" && v.Sign() > 0 && r.Cmp(v) != 0 {
				r.Add(r, big.NewRat(1, 1))
			}
			return r, nil
		case "TRUNCATE":
			p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil)
			n := new(big.Int).Mul(v.Num(), p)
			n.Quo(n, v.Denom())
			return new(big.Rat).SetFrac(n, p), nil
		}
		r, _ := new(big.Rat).SetString(v.FloatString(scale))
		return r, nil
	}
	return a[0], nil
}

func abs64(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// extreme is GREATEST (dir 1) or LEAST (-1): NULL if any argument is.
func extreme(x *fnCtx, a []any, dir int) (any, error) {
	var best any
	for i, v := range a {
		if v == nil {
			return nil, nil
		}
		cv, err := value.Cast(v, x.types[i], x.out, x.rt.zone)
		if err != nil {
			return nil, err
		}
		if best == nil {
			best = cv
			continue
		}
		c, err := value.Compare(cv, best)
		if err != nil {
			return nil, err
		}
		if c*dir > 0 {
			best = cv
		}
	}
	return best, nil
}

// rand is RAND's generator: seeded by its argument, else the run's.
func (d *runner) rand(seed []any) *rand.Rand {
	if len(seed) > 0 && seed[0] != nil {
		n, _ := toInt(seed[0])
		if d.seeded == nil {
			d.seeded = map[int64]*rand.Rand{}
		}
		r, ok := d.seeded[n]
		if !ok {
			r = rand.New(rand.NewPCG(uint64(n), 0))
			d.seeded[n] = r
		}
		return r
	}
	if d.rnd == nil {
		d.rnd = rand.New(rand.NewPCG(42, 7))
	}
	return d.rnd
}
