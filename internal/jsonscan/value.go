package jsonscan

import (
	"strconv"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Value is one value as it lies in the input, read but not converted.
type Value struct {
	// Kind is the value's first byte ('"', 't', 'f', 'n', '{', '['), or
	// '0' for a number.
	Kind byte
	// Escaped is a string with escapes, whose text Unescape decodes.
	Escaped bool
	// BadUTF8 is a string with bytes that are not UTF-8, which Unescape
	// turns into U+FFFD as encoding/json does.
	BadUTF8 bool
	// Start and End are the value's text as offsets into the input: a
	// string's inside its quotes, an object or array whole.
	Start, End int64
}

// Value reads the next value, whatever its shape, and says where it lies.
func (s *Scanner) Value() (Value, error) {
	s.skipSpace()
	var c byte
	var err error
	if s.i < len(s.buf) {
		c = s.buf[s.i]
	} else if c, err = s.Peek(); err != nil {
		return Value{}, err
	}
	switch {
	case c == '"':
		start, end, esc, bad, err := s.scanString()
		return Value{Kind: '"', Start: s.base + int64(start), End: s.base + int64(end), Escaped: esc, BadUTF8: bad}, err
	case c == '-' || '0' <= c && c <= '9':
		start, end, err := s.scanNumber()
		return Value{Kind: '0', Start: s.base + int64(start), End: s.base + int64(end)}, err
	case c == '{' || c == '[':
		v := Value{Kind: c, Start: s.Offset()}
		if c == '{' {
			err = s.Object(s.skipMember)
		} else {
			err = s.Array(s.Skip)
		}
		v.End = s.Offset()
		return v, err
	case c == 't' || c == 'f' || c == 'n':
		v := Value{Kind: c, Start: s.Offset()}
		lit := "null"
		switch c {
		case 't':
			lit = "true"
		case 'f':
			lit = "false"
		}
		err := s.literal(lit)
		v.End = s.Offset()
		return v, err
	}
	return Value{}, s.errorAt(s.i, "unexpected %q", c)
}

func (s *Scanner) skipMember([]byte) error { return s.Skip() }

// String reads a string, decoded; the bytes are valid until the next call.
func (s *Scanner) String() ([]byte, error) {
	c, err := s.Peek()
	if err != nil {
		return nil, err
	}
	if c != '"' {
		return nil, s.errorAt(s.i, "want a string, got %q", c)
	}
	start, end, esc, bad, err := s.scanString()
	if err != nil {
		return nil, err
	}
	if !esc && !bad {
		return s.buf[start:end], nil
	}
	s.tmp = Unescape(s.tmp[:0], s.buf[start:end])
	return s.tmp, nil
}

// Int reads a number as an int64, a fraction cut off; null reads as 0.
func (s *Scanner) Int() (int64, error) {
	c, err := s.Peek()
	if err != nil {
		return 0, err
	}
	if c == 'n' {
		return 0, s.literal("null")
	}
	if c != '-' && (c < '0' || c > '9') {
		return 0, s.errorAt(s.i, "want a number, got %q", c)
	}
	start, end, err := s.scanNumber()
	if err != nil {
		return 0, err
	}
	b := s.buf[start:end]
	if len(b) <= 18 { // no overflow: a plain integer sums as it reads
		var n int64
		neg, plain := b[0] == '-', true
		for _, d := range b[btoi(neg):] {
			if d < '0' || d > '9' {
				plain = false
				break
			}
			n = n*10 + int64(d-'0')
		}
		if plain {
			if neg {
				n = -n
			}
			return n, nil
		}
	}
	if n, err := strconv.ParseInt(string(b), 10, 64); err == nil {
		return n, nil
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return 0, s.errorAt(start, "number %s out of range", b)
	}
	return int64(f), nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// plain marks the bytes a string holds as they are: not a quote, a
// backslash or a control character.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// scanString reads the string at s.i and returns where its text lies in
// s.buf, up to its closing quote, which it consumes.
func (s *Scanner) scanString() (start, end int, escaped, badUTF8 bool, err error) {
	start = s.i + 1
	i, high := start, byte(0)
	for {
		buf := s.buf
		for i < len(buf) && plain[buf[i]] {
			high |= buf[i]
			i++
		}
		n := 1 // the bytes needed from i on
		if i < len(buf) {
			switch c := buf[i]; {
			case c == '"':
				if high >= utf8.RuneSelf {
					badUTF8 = !utf8.Valid(buf[start:i])
				}
				s.i = i + 1
				return start, i, escaped, badUTF8, nil
			case c == '\\' && i+1 < len(buf) && buf[i+1] != 'u':
				switch buf[i+1] {
				case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
					escaped = true
					i += 2
					continue
				}
				return 0, 0, false, false, s.errorAt(i, "bad escape \\%c", buf[i+1])
			case c == '\\' && i+6 <= len(buf):
				if hex4(buf[i+2:i+6]) < 0 {
					return 0, 0, false, false, s.errorAt(i, "bad \\u escape")
				}
				escaped = true
				i += 6
				continue
			case c == '\\':
				n = 6 // an escape cut by the window's end
			default:
				return 0, 0, false, false, s.errorAt(i, "control character %q in a string", c)
			}
		}
		s.mark = start // keep the string's start through a refill
		more := s.need(&i, n)
		start, s.mark = s.mark, -1
		if !more {
			if n == 6 && i+1 < len(s.buf) && s.buf[i+1] != 'u' {
				continue // a short escape after all
			}
			return 0, 0, false, false, s.endErr()
		}
	}
}

// byteAt is the byte at *i, reading more input if need be; 0 past the
// end.
func (s *Scanner) byteAt(i *int) byte {
	if *i < len(s.buf) || s.need(i, 1) {
		return s.buf[*i]
	}
	return 0
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// scanNumber reads the number at s.i, as RFC 8259 writes one:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *Scanner) scanNumber() (start, end int, err error) {
	// Most numbers are integers that end inside the window.
	buf, i := s.buf, s.i
	j := i
	if j < len(buf) && buf[j] == '-' {
		j++
	}
	k := j
	for k < len(buf) && isDigit(buf[k]) {
		k++
	}
	if k < len(buf) && k > j && (buf[j] != '0' || k == j+1) && buf[k] != '.' && buf[k] != 'e' && buf[k] != 'E' {
		s.i = k
		return i, k, nil
	}
	s.mark = i
	if s.byteAt(&i) == '-' {
		i++
	}
	switch c := s.byteAt(&i); {
	case c == '0':
		i++
	case !s.digits(&i):
		return s.numberErr(i, "bad number")
	}
	if s.byteAt(&i) == '.' {
		i++
		if !s.digits(&i) {
			return s.numberErr(i, "bad number: no digit after '.'")
		}
	}
	if c := s.byteAt(&i); c == 'e' || c == 'E' {
		i++
		if c := s.byteAt(&i); c == '+' || c == '-' {
			i++
		}
		if !s.digits(&i) {
			return s.numberErr(i, "bad number: no digit in the exponent")
		}
	}
	start, s.mark, s.i = s.mark, -1, i
	return start, i, nil
}

// digits reads one or more digits from *i, and reports whether there was
// one.
func (s *Scanner) digits(i *int) bool {
	n := 0
	for {
		j, buf := *i, s.buf
		for j < len(buf) && isDigit(buf[j]) {
			j++
		}
		n += j - *i
		*i = j
		if j < len(s.buf) || !s.need(i, 1) {
			return n > 0
		}
	}
}

func (s *Scanner) numberErr(i int, msg string) (start, end int, err error) {
	s.mark = -1
	return 0, 0, s.errorAt(i, "%s", msg)
}

// hex4 is the value of four hex digits, -1 if they are not.
func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// Unescape appends to dst the text of a string (raw, inside its quotes,
// as the scanner took it) decoded as encoding/json decodes it: escapes
// resolved, a lone surrogate and each byte that is not UTF-8 as U+FFFD.
func Unescape(dst, raw []byte) []byte {
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '\\' && i+1 < len(raw):
			switch e := raw[i+1]; e {
			case 'b':
				dst = append(dst, '\b')
			case 'f':
				dst = append(dst, '\f')
			case 'n':
				dst = append(dst, '\n')
			case 'r':
				dst = append(dst, '\r')
			case 't':
				dst = append(dst, '\t')
			case 'u':
				r := rune(-1)
				if i+6 <= len(raw) {
					r = hex4(raw[i+2 : i+6])
				}
				if r < 0 {
					return append(dst, raw[i:]...) // not from the scanner: left as it is
				}
				i += 6
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
						r2 = hex4(raw[i+2 : i+6])
					}
					if dec := utf16.DecodeRune(r, r2); dec != unicode.ReplacementChar {
						dst = utf8.AppendRune(dst, dec)
						i += 6
						continue
					}
					r = unicode.ReplacementChar
				}
				dst = utf8.AppendRune(dst, r)
				continue
			default: // '"', '\\', '/'
				dst = append(dst, e)
			}
			i += 2
		case c < utf8.RuneSelf:
			dst = append(dst, c)
			i++
		default:
			r, n := utf8.DecodeRune(raw[i:])
			dst = utf8.AppendRune(dst, r)
			i += n
		}
	}
	return dst
}
