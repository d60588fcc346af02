package value

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Date and time patterns as Flink's DATE_FORMAT, TO_TIMESTAMP, TO_DATE,
// FROM_UNIXTIME and UNIX_TIMESTAMP take them: Java's pattern letters
// (SimpleDateFormat's, as DateTimeFormatter reads them): y yyyy year, M
// MM month, MMM Jan, MMMM January, d dd day, D day of year, E Mon, EEEE
// Monday, a AM/PM, H HH hour 0-23, h hh 1-12, k 1-24, K 0-11, m mm, s
// ss, S… fraction digits, Q quarter, w week of year, u day of week
// number, z Z X zones (UTC), 'quoted text', '' a quote, [optional].

type patToken struct {
	letter byte // 0: literal
	count  int
	text   string
	opt    int // nesting depth of [ ]
}

func tokenize(p string) ([]patToken, error) {
	var toks []patToken
	depth := 0
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case c == '\'':
			j := i + 1
			var b strings.Builder
			for {
				if j >= len(p) {
					return nil, fmt.Errorf("pattern %q: unclosed quote", p)
				}
				if p[j] == '\'' {
					if j+1 < len(p) && p[j+1] == '\'' {
						b.WriteByte('\'')
						j += 2
						continue
					}
					break
				}
				b.WriteByte(p[j])
				j++
			}
			if j == i+1 {
				toks = append(toks, patToken{text: "'", opt: depth})
			} else {
				toks = append(toks, patToken{text: b.String(), opt: depth})
			}
			i = j + 1
		case c == '[':
			depth++
			i++
		case c == ']':
			depth--
			i++
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i
			for j < len(p) && p[j] == c {
				j++
			}
			if !strings.ContainsRune("GuyDMLdQqYwWEecFahKkHmsSAnNVzOXxZ", rune(c)) {
				return nil, fmt.Errorf("pattern %q: unknown pattern letter: %c", p, c)
			}
			toks = append(toks, patToken{letter: c, count: j - i, opt: depth})
			i = j
		default:
			toks = append(toks, patToken{text: string(c), opt: depth})
			i++
		}
	}
	return toks, nil
}

var (
	monthShort = []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
	dayShort   = []string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}
)

func num(n, width int) string {
	s := strconv.Itoa(n)
	for len(s) < width {
		s = "0" + s
	}
	return s
}

// FormatPattern writes t (a wall clock) by a Java date pattern.
func FormatPattern(t time.Time, pattern string) (string, error) {
	toks, err := cachedTokens(pattern)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, k := range toks {
		if k.letter == 0 {
			b.WriteString(k.text)
			continue
		}
		n := k.count
		switch k.letter {
		case 'G':
			b.WriteString("AD")
		case 'y', 'u', 'Y':
			if n == 2 {
				b.WriteString(num(t.Year()%100, 2))
			} else {
				b.WriteString(num(t.Year(), n))
			}
		case 'M', 'L':
			switch {
			case n >= 4:
				b.WriteString(t.Month().String())
			case n == 3:
				b.WriteString(monthShort[t.Month()-1])
			default:
				b.WriteString(num(int(t.Month()), n))
			}
		case 'd':
			b.WriteString(num(t.Day(), n))
		case 'D':
			b.WriteString(num(t.YearDay(), n))
		case 'Q', 'q':
			q := (int(t.Month())-1)/3 + 1
			if n == 3 {
				b.WriteString("Q" + strconv.Itoa(q))
			} else {
				b.WriteString(num(q, n))
			}
		case 'w':
			_, w := t.ISOWeek()
			b.WriteString(num(w, n))
		case 'W':
			b.WriteString(num((t.Day()-1+int(time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC).Weekday()))/7+1, n))
		case 'E':
			if n >= 4 {
				b.WriteString(t.Weekday().String())
			} else {
				b.WriteString(dayShort[t.Weekday()])
			}
		case 'e', 'c':
			b.WriteString(num(int(t.Weekday())+1, n))
		case 'F':
			b.WriteString(num((t.Day()-1)/7+1, n))
		case 'a':
			if t.Hour() < 12 {
				b.WriteString("AM")
			} else {
				b.WriteString("PM")
			}
		case 'h':
			h := t.Hour() % 12
			if h == 0 {
				h = 12
			}
			b.WriteString(num(h, n))
		case 'K':
			b.WriteString(num(t.Hour()%12, n))
		case 'k':
			h := t.Hour()
			if h == 0 {
				h = 24
			}
			b.WriteString(num(h, n))
		case 'H':
			b.WriteString(num(t.Hour(), n))
		case 'm':
			b.WriteString(num(t.Minute(), n))
		case 's':
			b.WriteString(num(t.Second(), n))
		case 'S':
			frac := num(t.Nanosecond(), 9)
			for len(frac) < n {
				frac += "0"
			}
			b.WriteString(frac[:n])
		case 'A':
			b.WriteString(num(int(t.Sub(time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, t.Location())).Milliseconds()), n))
		case 'n':
			b.WriteString(num(t.Nanosecond(), n))
		case 'N':
			b.WriteString(num(int(t.Sub(time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, t.Location())).Nanoseconds()), n))
		case 'V', 'z':
			b.WriteString("UTC")
		case 'O':
			b.WriteString("GMT")
		case 'X':
			b.WriteString("Z")
		case 'x', 'Z':
			if n >= 3 && k.letter == 'x' {
				b.WriteString("+00:00")
			} else {
				b.WriteString("+0000")
			}
		}
	}
	return b.String(), nil
}

// ParsePattern reads s by a Java date pattern; fields it does not give
// are 1970-01-01 00:00:00 (Flink's fromTemporalAccessor defaults).
func ParsePattern(s, pattern string) (time.Time, error) {
	toks, err := cachedTokens(pattern)
	if err != nil {
		return time.Time{}, err
	}
	year, month, day, hour, minute, sec, nanos := 1970, 1, 1, 0, 0, 0, 0
	pm, h12 := -1, false
	pos := 0
	fail := func() (time.Time, error) {
		return time.Time{}, fmt.Errorf("'%s' does not match the pattern '%s'", s, pattern)
	}
	for i, k := range toks {
		if k.letter == 0 {
			if strings.HasPrefix(s[pos:], k.text) {
				pos += len(k.text)
				continue
			}
			if k.opt > 0 {
				continue
			}
			return fail()
		}
		if k.opt > 0 && pos >= len(s) {
			continue
		}
		textual := (k.letter == 'M' || k.letter == 'L') && k.count >= 3 || k.letter == 'E' || k.letter == 'a' || k.letter == 'G' ||
			k.letter == 'z' || k.letter == 'V' || k.letter == 'X' || k.letter == 'Z' || k.letter == 'x' || k.letter == 'O'
		if textual {
			rest := s[pos:]
			matched := false
			try := func(words []string, set func(int)) {
				for j, w := range words {
					if len(rest) >= len(w) && strings.EqualFold(rest[:len(w)], w) {
						set(j)
						pos += len(w)
						matched = true
						return
					}
				}
			}
			switch k.letter {
			case 'M', 'L':
				long := make([]string, 12)
				for j := range long {
					long[j] = time.Month(j + 1).String()
				}
				try(long, func(j int) { month = j + 1 })
				if !matched {
					try(monthShort, func(j int) { month = j + 1 })
				}
			case 'E':
				long := make([]string, 7)
				for j := range long {
					long[j] = time.Weekday(j).String()
				}
				try(long, func(int) {})
				if !matched {
					try(dayShort, func(int) {})
				}
			case 'a':
				try([]string{"AM", "PM"}, func(j int) { pm = j })
			case 'G':
				try([]string{"AD"}, func(int) {})
			default:
				try([]string{"UTC", "GMT", "Z", "+00:00", "+0000"}, func(int) {})
			}
			if !matched {
				return fail()
			}
			continue
		}
		// A number: as many digits as the pattern letter count when the
		// next token is a number too (yyyyMMdd), else as many as there are.
		width := 0
		if i+1 < len(toks) && toks[i+1].letter != 0 || k.letter == 'S' {
			width = k.count
		}
		j := pos
		for j < len(s) && s[j] >= '0' && s[j] <= '9' && (width == 0 || j-pos < width) {
			j++
		}
		if j == pos {
			if k.opt > 0 {
				continue
			}
			return fail()
		}
		digits := s[pos:j]
		n, _ := strconv.Atoi(digits)
		pos = j
		switch k.letter {
		case 'y', 'u', 'Y':
			if k.count == 2 && len(digits) == 2 {
				n += 2000
			}
			year = n
		case 'M', 'L':
			month = n
		case 'd':
			day = n
		case 'H', 'k':
			hour = n % 24
		case 'h', 'K':
			hour, h12 = n%12, true
		case 'm':
			minute = n
		case 's':
			sec = n
		case 'S':
			for l := len(digits); l < 9; l++ {
				n *= 10
			}
			nanos = n
		case 'D':
			month, day = 1, n
		}
	}
	if pos != len(s) {
		return fail()
	}
	if h12 && pm == 1 {
		hour += 12
	}
	if month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || sec > 59 {
		return fail()
	}
	t := time.Date(year, time.Month(month), day, hour, minute, sec, nanos, time.UTC)
	if t.Day() != day && day <= 31 && toksHave(toks, 'd') {
		return fail()
	}
	return t, nil
}

func toksHave(toks []patToken, c byte) bool {
	for _, k := range toks {
		if k.letter == c {
			return true
		}
	}
	return false
}

// patterns are the patterns tokenized so far: a job uses a few, on every row.
var patterns sync.Map // string → []patToken

func cachedTokens(p string) ([]patToken, error) {
	if t, ok := patterns.Load(p); ok {
		return t.([]patToken), nil
	}
	toks, err := tokenize(p)
	if err == nil {
		patterns.Store(p, toks)
	}
	return toks, err
}
