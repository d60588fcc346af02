package debug

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/palink/palink/join/debug/value"
)

// String functions, as Flink's built-ins.

var (
	tStr = value.TString
	tInt = value.TInt
	tBig = value.TBigInt
	tDbl = value.TDouble
)

func init() {
	register(map[string]function{
		"UPPER":            {1, 1, false, argString, func(x *fnCtx, a []any) (any, error) { return strings.ToUpper(x.str(a, 0)), nil }},
		"LOWER":            {1, 1, false, argString, func(x *fnCtx, a []any) (any, error) { return strings.ToLower(x.str(a, 0)), nil }},
		"CHAR_LENGTH":      {1, 1, false, fixed(tInt), charLength},
		"CHARACTER_LENGTH": {1, 1, false, fixed(tInt), charLength},
		"INITCAP": {1, 1, false, argString, func(x *fnCtx, a []any) (any, error) {
			rs := []rune(strings.ToLower(x.str(a, 0)))
			for i := range rs {
				if i == 0 || !unicode.IsLetter(rs[i-1]) && !unicode.IsDigit(rs[i-1]) {
					rs[i] = unicode.ToUpper(rs[i])
				}
			}
			return string(rs), nil
		}},
		"CONCAT": {1, -1, false, fixed(tStr), func(x *fnCtx, a []any) (any, error) {
			var b strings.Builder
			for i := range a {
				b.WriteString(x.str(a, i))
			}
			return b.String(), nil
		}},
		"CONCAT_WS": {2, -1, true, fixed(tStr), func(x *fnCtx, a []any) (any, error) {
			if a[0] == nil {
				return nil, nil
			}
			var parts []string
			for i := 1; i < len(a); i++ {
				if a[i] != nil {
					parts = append(parts, x.str(a, i))
				}
			}
			return strings.Join(parts, x.str(a, 0)), nil
		}},
		"SUBSTRING": {2, 3, false, fixed(tStr), substring},
		"SUBSTR":    {2, 3, false, fixed(tStr), substring},
		"REPLACE": {3, 3, false, fixed(tStr), func(x *fnCtx, a []any) (any, error) {
			return strings.ReplaceAll(x.str(a, 0), x.str(a, 1), x.str(a, 2)), nil
		}},
		"POSITION": {2, 3, false, fixed(tInt), func(x *fnCtx, a []any) (any, error) {
			from := int64(1)
			if len(a) == 3 {
				from, _ = toInt(a[2])
			}
			return locate(x.str(a, 0), x.str(a, 1), from), nil
		}},
		"LOCATE": {2, 3, false, fixed(tInt), func(x *fnCtx, a []any) (any, error) {
			from := int64(1)
			if len(a) == 3 {
				from, _ = toInt(a[2])
			}
			return locate(x.str(a, 0), x.str(a, 1), from), nil
		}},
		"INSTR": {2, 2, false, fixed(tInt), func(x *fnCtx, a []any) (any, error) { return locate(x.str(a, 1), x.str(a, 0), 1), nil }},
		"LPAD":  {3, 3, false, fixed(tStr), func(x *fnCtx, a []any) (any, error) { return pad(x, a, true) }},
		"RPAD":  {3, 3, false, fixed(tStr), func(x *fnCtx, a []any) (any, error) { return pad(x, a, false) }},
		"LTRIM": {1, 2, false, argString, func(x *fnCtx, a []any) (any, error) {
			return strings.TrimLeft(x.str(a, 0), trimChars(x, a)), nil
		}},
		"RTRIM": {1, 2, false, argString, func(x *fnCtx, a []any) (any, error) {
			return strings.TrimRight(x.str(a, 0), trimChars(x, a)), nil
		}},
		"BTRIM": {1, 2, false, argString, func(x *fnCtx, a []any) (any, error) { return strings.Trim(x.str(a, 0), trimChars(x, a)), nil }},
		"REPEAT": {2, 2, false, fixed(tStr), func(x *fnCtx, a []any) (any, error) {
			n, err := toInt(a[1])
			if err != nil || n < 0 {
				return "", err
			}
			return strings.Repeat(x.str(a, 0), int(n)), nil
		}},
		"REVERSE": {1, 1, false, argString, func(x *fnCtx, a []any) (any, error) {
			rs := []rune(x.str(a, 0))
			for i, j := 0, len(rs)-1; i < j; i, j = i+1, j-1 {
				rs[i], rs[j] = rs[j], rs[i]
			}
			return string(rs), nil
		}},
		"LEFT": {2, 2, false, fixed(tStr), func(x *fnCtx, a []any) (any, error) {
			rs := []rune(x.str(a, 0))
			n, _ := toInt(a[1])
			if n < 0 {
				return "", nil
			}
			return string(rs[:min(int(n), len(rs))]), nil
		}},
		"RIGHT": {2, 2, false, fixed(tStr), func(x *fnCtx, a []any) (any, error) {
			rs := []rune(x.str(a, 0))
			n, _ := toInt(a[1])
			if n < 0 {
				return "", nil
			}
			return string(rs[len(rs)-min(int(n), len(rs)):]), nil
		}},
		"SPLIT_INDEX": {3, 3, false, fixed(tStr), func(x *fnCtx, a []any) (any, error) {
			parts := strings.Split(x.str(a, 0), x.str(a, 1))
			i, _ := toInt(a[2])
			if i < 0 || int(i) >= len(parts) {
				return nil, nil
			}
			return parts[i], nil
		}},
		"SPLIT": {2, 2, false, fixed(value.ArrayOf(tStr)), func(x *fnCtx, a []any) (any, error) {
			out := value.Array{}
			for _, p := range strings.Split(x.str(a, 0), x.str(a, 1)) {
				out = append(out, p)
			}
			return out, nil
		}},
		"REGEXP": {2, 2, false, fixed(tBool), func(x *fnCtx, a []any) (any, error) {
			re, err := compileRegexp(x.str(a, 1))
			if err != nil {
				return nil, err
			}
			return re.MatchString(x.str(a, 0)), nil
		}},
		"REGEXP_REPLACE": {3, 3, false, fixed(tStr), func(x *fnCtx, a []any) (any, error) {
			re, err := compileRegexp(x.str(a, 1))
			if err != nil {
				return nil, err
			}
			return re.ReplaceAllString(x.str(a, 0), javaReplacement(x.str(a, 2))), nil
		}},
		"REGEXP_EXTRACT": {2, 3, false, fixed(tStr), func(x *fnCtx, a []any) (any, error) {
			re, err := compileRegexp(x.str(a, 1))
			if err != nil {
				return nil, err
			}
			group := int64(1)
			if len(a) == 3 {
				group, _ = toInt(a[2])
			}
			m := re.FindStringSubmatch(x.str(a, 0))
			if m == nil || group < 0 || int(group) >= len(m) {
				return nil, nil
			}
			return m[group], nil
		}},
		"ASCII": {1, 1, false, fixed(tInt), func(x *fnCtx, a []any) (any, error) {
			s := x.str(a, 0)
			if s == "" {
				return int64(0), nil
			}
			return int64(s[0]), nil
		}},
		"CHR": {1, 1, false, fixed(tStr), func(x *fnCtx, a []any) (any, error) {
			n, _ := toInt(a[0])
			if n < 0 {
				return nil, nil
			}
			return string(rune(n % 256)), nil
		}},
		"TO_BASE64": {1, 1, false, fixed(tStr), func(x *fnCtx, a []any) (any, error) {
			return base64.StdEncoding.EncodeToString(bytesOf(x, a, 0)), nil
		}},
		"FROM_BASE64": {1, 1, false, fixed(tStr), func(x *fnCtx, a []any) (any, error) {
			b, err := base64.StdEncoding.DecodeString(x.str(a, 0))
			if err != nil {
				return nil, nil
			}
			return string(b), nil
		}},
		"MD5":    {1, 1, false, fixed(tStr), hashFn(md5.New)},
		"SHA1":   {1, 1, false, fixed(tStr), hashFn(sha1.New)},
		"SHA224": {1, 1, false, fixed(tStr), hashFn(sha256.New224)},
		"SHA256": {1, 1, false, fixed(tStr), hashFn(sha256.New)},
		"SHA384": {1, 1, false, fixed(tStr), hashFn(sha512.New384)},
		"SHA512": {1, 1, false, fixed(tStr), hashFn(sha512.New)},
		"SHA2": {2, 2, false, fixed(tStr), func(x *fnCtx, a []any) (any, error) {
			bits, _ := toInt(a[1])
			h := map[int64]func() hash.Hash{224: sha256.New224, 256: sha256.New, 384: sha512.New384, 512: sha512.New}[bits]
			if h == nil {
				return nil, nil
			}
			return hashFn(h)(x, a[:1])
		}},
		"HEX": {1, 1, false, fixed(tStr), func(x *fnCtx, a []any) (any, error) {
			if n, ok := a[0].(int64); ok {
				return strings.ToUpper(strconv.FormatUint(uint64(n), 16)), nil
			}
			return strings.ToUpper(hex.EncodeToString(bytesOf(x, a, 0))), nil
		}},
		"BIN": {1, 1, false, fixed(tStr), func(x *fnCtx, a []any) (any, error) {
			n, err := toInt(a[0])
			return strconv.FormatUint(uint64(n), 2), err
		}},
		"STR_TO_MAP": {1, 3, false, fixed(value.MapOf(tStr, tStr)), func(x *fnCtx, a []any) (any, error) {
			pairSep, kvSep := ",", "="
			if len(a) > 1 {
				pairSep = x.str(a, 1)
			}
			if len(a) > 2 {
				kvSep = x.str(a, 2)
			}
			m := &value.Map{}
			for _, p := range strings.Split(x.str(a, 0), pairSep) {
				k, v, ok := strings.Cut(p, kvSep)
				if ok {
					m.Put(k, v)
				} else {
					m.Put(k, nil)
				}
			}
			return m, nil
		}},
		"PARSE_URL": {2, 3, false, fixed(tStr), parseURL},
		"URL_ENCODE": {1, 1, false, fixed(tStr), func(x *fnCtx, a []any) (any, error) {
			return url.QueryEscape(x.str(a, 0)), nil
		}},
		"URL_DECODE": {1, 1, false, fixed(tStr), func(x *fnCtx, a []any) (any, error) {
			s, err := url.QueryUnescape(x.str(a, 0))
			if err != nil {
				return nil, nil
			}
			return s, nil
		}},
		"OVERLAY": {3, 4, false, fixed(tStr), func(x *fnCtx, a []any) (any, error) {
			rs, put := []rune(x.str(a, 0)), []rune(x.str(a, 1))
			from, _ := toInt(a[2])
			n := int64(len(put))
			if len(a) == 4 {
				n, _ = toInt(a[3])
			}
			start := max(int(from)-1, 0)
			if start > len(rs) {
				start = len(rs)
			}
			end := min(start+int(n), len(rs))
			return string(rs[:start]) + string(put) + string(rs[end:]), nil
		}},
		"TRANSLATE": {3, 3, false, fixed(tStr), func(x *fnCtx, a []any) (any, error) {
			from, to := []rune(x.str(a, 1)), []rune(x.str(a, 2))
			return strings.Map(func(r rune) rune {
				for i, f := range from {
					if f == r {
						if i < len(to) {
							return to[i]
						}
						return -1
					}
				}
				return r
			}, x.str(a, 0)), nil
		}},
		"UUID":   {0, 0, true, fixed(tStr), func(x *fnCtx, _ []any) (any, error) { return x.rt.uuid(), nil }},
		"TYPEOF": {1, 2, true, fixed(tStr), func(x *fnCtx, _ []any) (any, error) { return x.types[0].String(), nil }},
		"IS_ALPHA": {1, 1, false, fixed(tBool), func(x *fnCtx, a []any) (any, error) {
			s := x.str(a, 0)
			return s != "" && strings.IndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) }) < 0, nil
		}},
		"IS_DIGIT": {1, 1, false, fixed(tBool), func(x *fnCtx, a []any) (any, error) {
			s := x.str(a, 0)
			return s != "" && strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }) < 0, nil
		}},
		"IS_DECIMAL": {1, 1, false, fixed(tBool), func(x *fnCtx, a []any) (any, error) {
			_, err := strconv.ParseFloat(strings.TrimSpace(x.str(a, 0)), 64)
			return err == nil, nil
		}},
	})
}

func argString(ts []value.Type) value.Type {
	if len(ts) > 0 && ts[0].IsString() {
		return value.Type{Kind: value.Varchar, Precision: ts[0].Precision}
	}
	return tStr
}

func charLength(x *fnCtx, a []any) (any, error) {
	return int64(utf8.RuneCountInString(x.str(a, 0))), nil
}

func substring(x *fnCtx, a []any) (any, error) {
	rs := []rune(x.str(a, 0))
	from, err := toInt(a[1])
	if err != nil {
		return nil, err
	}
	// Flink: a start of 0 is 1, a negative start counts from the end.
	start := int(from) - 1
	switch {
	case from == 0:
		start = 0
	case from < 0:
		start = max(len(rs)+int(from), 0)
	}
	end := len(rs)
	if len(a) == 3 {
		n, err := toInt(a[2])
		if err != nil {
			return nil, err
		}
		if n < 0 {
			return nil, errors.New("negative substring length")
		}
		end = min(len(rs), start+int(n))
	}
	if start >= len(rs) || start >= end {
		return "", nil
	}
	return string(rs[start:end]), nil
}

func locate(sub, s string, from int64) int64 {
	rs := []rune(s)
	if from < 1 || int(from) > len(rs)+1 {
		return 0
	}
	i := strings.Index(string(rs[from-1:]), sub)
	if i < 0 {
		return 0
	}
	return int64(utf8.RuneCountInString(string(rs[from-1:])[:i])) + from
}

func pad(x *fnCtx, a []any, left bool) (any, error) {
	s, fill := []rune(x.str(a, 0)), []rune(x.str(a, 2))
	width, err := toInt(a[1])
	if err != nil {
		return nil, err
	}
	if width < 0 {
		return nil, nil
	}
	if int(width) <= len(s) {
		return string(s[:width]), nil
	}
	if len(fill) == 0 {
		return nil, nil
	}
	p := make([]rune, 0, int(width)-len(s))
	for len(p) < int(width)-len(s) {
		p = append(p, fill[len(p)%len(fill)])
	}
	if left {
		return string(p) + string(s), nil
	}
	return string(s) + string(p), nil
}

func trimChars(x *fnCtx, a []any) string {
	if len(a) > 1 {
		return x.str(a, 1)
	}
	return " "
}

func bytesOf(x *fnCtx, a []any, i int) []byte {
	if b, ok := a[i].([]byte); ok {
		return b
	}
	return []byte(x.str(a, i))
}

func hashFn(h func() hash.Hash) func(x *fnCtx, a []any) (any, error) {
	return func(x *fnCtx, a []any) (any, error) {
		d := h()
		d.Write(bytesOf(x, a, 0))
		return hex.EncodeToString(d.Sum(nil)), nil
	}
}

var regexpCache = map[string]*regexp.Regexp{}

// compileRegexp compiles a Java regular expression (the common subset Go
// shares with it).
func compileRegexp(p string) (*regexp.Regexp, error) {
	if re, ok := regexpCache[p]; ok {
		return re, nil
	}
	re, err := regexp.Compile(p)
	if err != nil {
		return nil, fmt.Errorf("regular expression %q: %v", p, err)
	}
	if len(regexpCache) < 256 {
		regexpCache[p] = re
	}
	return re, nil
}

// javaReplacement turns Java's $1 group references into Go's ${1}.
func javaReplacement(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s):
			i++
			if s[i] == '$' {
				b.WriteString("$$")
			} else {
				b.WriteByte(s[i])
			}
		case s[i] == '$' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
			j := i + 1
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			b.WriteString("${" + s[i+1:j] + "}")
			i = j - 1
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

func parseURL(x *fnCtx, a []any) (any, error) {
	u, err := url.Parse(x.str(a, 0))
	if err != nil {
		return nil, nil
	}
	switch strings.ToUpper(x.str(a, 1)) {
	case "HOST":
		return u.Hostname(), nil
	case "PATH":
		return u.EscapedPath(), nil
	case "QUERY":
		if len(a) == 3 {
			vs, ok := u.Query()[x.str(a, 2)]
			if !ok || len(vs) == 0 {
				return nil, nil
			}
			return vs[0], nil
		}
		if u.RawQuery == "" {
			return nil, nil
		}
		return u.RawQuery, nil
	case "REF":
		return u.Fragment, nil
	case "PROTOCOL":
		return u.Scheme, nil
	case "FILE":
		f := u.EscapedPath()
		if u.RawQuery != "" {
			f += "?" + u.RawQuery
		}
		return f, nil
	case "AUTHORITY":
		return u.Host, nil
	case "USERINFO":
		if u.User == nil {
			return nil, nil
		}
		return u.User.String(), nil
	}
	return nil, nil
}
