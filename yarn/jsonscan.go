package yarn

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// jsonScanner is a minimal streaming JSON reader for the one document
// too large and too regular for encoding/json's Decoder.Token: a flame
// graph of tens of thousands of nodes, where Token's allocation per token
// costs ten times the parse. It reads what a caller asks for, in order,
// and keeps nothing but the current string.
type jsonScanner struct {
	r   *bufio.Reader
	raw []byte // the last string as read, reused
	buf []byte // the last string unescaped, reused
}

func newJSONScanner(r io.Reader) *jsonScanner {
	return &jsonScanner{r: bufio.NewReaderSize(r, 64<<10)}
}

var errUnexpectedEnd = fmt.Errorf("json: %w", io.ErrUnexpectedEOF)

// next returns the next byte that is not white space, consumed.
func (s *jsonScanner) next() (byte, error) {
	for {
		c, err := s.r.ReadByte()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return 0, errUnexpectedEnd
			}
			return 0, err
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		}
		return c, nil
	}
}

// expect consumes the next non-space byte, which must be want.
func (s *jsonScanner) expect(want byte) error {
	c, err := s.next()
	if err != nil {
		return err
	}
	if c != want {
		return fmt.Errorf("json: want %q, got %q", want, c)
	}
	return nil
}

// more reports whether a list (of members or elements) goes on after one:
// it consumes a ',' (true) or the closing byte end (false). first is for
// the position right after the opening byte, where no ',' comes.
func (s *jsonScanner) more(end byte, first bool) (bool, error) {
	c, err := s.next()
	if err != nil {
		return false, err
	}
	switch {
	case c == end:
		return false, nil
	case first:
		return true, s.r.UnreadByte()
	case c == ',':
		return true, nil
	}
	return false, fmt.Errorf("json: want ',' or %q, got %q", end, c)
}

// key reads an object member's key and its ':'.
func (s *jsonScanner) key() ([]byte, error) {
	if err := s.expect('"'); err != nil {
		return nil, err
	}
	k, err := s.str()
	if err != nil {
		return nil, err
	}
	return k, s.expect(':')
}

// str reads a string whose opening quote was consumed, unescaped, into
// s.buf (valid until the next call). It takes the raw bytes up to the
// closing quote a buffer at a time, and unescapes only a string that has
// a backslash.
func (s *jsonScanner) str() ([]byte, error) {
	raw := s.raw[:0]
	for {
		chunk, err := s.r.ReadSlice('"')
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			return nil, errUnexpectedEnd
		}
		raw = append(raw, chunk...)
		if err == nil && !escapedQuote(raw) {
			raw = raw[:len(raw)-1]
			break
		}
	}
	s.raw = raw
	if bytes.IndexByte(raw, '\\') < 0 {
		return raw, nil
	}
	b, err := unescape(s.buf[:0], raw)
	s.buf = b
	return b, err
}

// escapedQuote reports whether raw's final quote is escaped: preceded by an
// odd number of backslashes.
func escapedQuote(raw []byte) bool {
	n := 0
	for i := len(raw) - 2; i >= 0 && raw[i] == '\\'; i-- {
		n++
	}
	return n%2 == 1
}

// unescape appends raw, a JSON string's inside, to b with its escapes
// resolved.
func unescape(b, raw []byte) ([]byte, error) {
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' {
			b = append(b, c)
			continue
		}
		i++
		if i >= len(raw) {
			return nil, errors.New("json: string ends in a backslash")
		}
		switch raw[i] {
		case 'n':
			b = append(b, '\n')
		case 't':
			b = append(b, '\t')
		case 'r':
			b = append(b, '\r')
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'u':
			r, ok := hex4(raw[i+1:])
			if !ok {
				return nil, errors.New("json: bad \\u escape")
			}
			i += 4
			if utf16.IsSurrogate(r) && i+6 < len(raw) && raw[i+1] == '\\' && raw[i+2] == 'u' {
				if r2, ok := hex4(raw[i+3:]); ok {
					r = utf16.DecodeRune(r, r2)
					i += 6
				}
			}
			b = utf8.AppendRune(b, r)
		default: // '"', '\\', '/'
			b = append(b, raw[i])
		}
	}
	return b, nil
}

func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	n, err := strconv.ParseUint(string(b[:4]), 16, 32)
	return rune(n), err == nil
}

// number reads a number whose first byte c was consumed.
func (s *jsonScanner) number(c byte) (int64, error) {
	b := append(s.buf[:0], c)
	for {
		p, err := s.r.Peek(1)
		if err != nil || !isNumberByte(p[0]) {
			break
		}
		b = append(b, p[0])
		_, _ = s.r.ReadByte()
	}
	s.buf = b
	if n, err := strconv.ParseInt(string(b), 10, 64); err == nil {
		return n, nil
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return 0, fmt.Errorf("json: bad number %q", b)
	}
	return int64(f), nil
}

func isNumberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

// int reads a number (null reads as 0).
func (s *jsonScanner) int() (int64, error) {
	c, err := s.next()
	if err != nil {
		return 0, err
	}
	if c == 'n' {
		return 0, s.literal("ull")
	}
	if c != '-' && (c < '0' || c > '9') {
		return 0, fmt.Errorf("json: want a number, got %q", c)
	}
	return s.number(c)
}

func (s *jsonScanner) literal(rest string) error {
	for i := 0; i < len(rest); i++ {
		c, err := s.r.ReadByte()
		if err != nil {
			return errUnexpectedEnd
		}
		if c != rest[i] {
			return fmt.Errorf("json: bad literal")
		}
	}
	return nil
}

// maxSkipDepth bounds the nesting skip follows, so that a hostile body
// cannot grow the stack without end.
const maxSkipDepth = 10_000

// skip consumes one value of any shape.
func (s *jsonScanner) skip() error { return s.skipDepth(0) }

func (s *jsonScanner) skipDepth(depth int) error {
	if depth > maxSkipDepth {
		return fmt.Errorf("json: nested deeper than %d", maxSkipDepth)
	}
	c, err := s.next()
	if err != nil {
		return err
	}
	return s.skipFrom(c, depth)
}

// skipFrom consumes the rest of a value whose first byte c was consumed.
func (s *jsonScanner) skipFrom(c byte, depth int) error {
	switch {
	case c == '"':
		_, err := s.str()
		return err
	case c == '{':
		for first := true; ; first = false {
			ok, err := s.more('}', first)
			if err != nil || !ok {
				return err
			}
			if _, err := s.key(); err != nil {
				return err
			}
			if err := s.skipDepth(depth + 1); err != nil {
				return err
			}
		}
	case c == '[':
		for first := true; ; first = false {
			ok, err := s.more(']', first)
			if err != nil || !ok {
				return err
			}
			if err := s.skipDepth(depth + 1); err != nil {
				return err
			}
		}
	case c == 't':
		return s.literal("rue")
	case c == 'f':
		return s.literal("alse")
	case c == 'n':
		return s.literal("ull")
	case c == '-' || c >= '0' && c <= '9':
		_, err := s.number(c)
		return err
	}
	return fmt.Errorf("json: unexpected %q", c)
}
