package jsonscan

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"unsafe"
)

// DefaultMaxDepth bounds how deep arrays and objects nest, as
// encoding/json bounds them: a hostile text cannot grow the stack without
// end.
const DefaultMaxDepth = 10_000

// bufSize is the window a Scanner reads a reader through.
const bufSize = 64 << 10

// ErrUnexpectedEnd is the input ending inside a value.
var ErrUnexpectedEnd = fmt.Errorf("json: %w", io.ErrUnexpectedEOF)

// SyntaxError is the input not being JSON where the scanner stopped.
type SyntaxError struct {
	Offset int64 // of the byte that is wrong, from the start of the input
	msg    string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("json: %s (byte %d)", e.msg, e.Offset) }

// Scanner reads one JSON text, from a byte slice in memory or streamed
// from a reader through a window that grows only for a string or number
// longer than it. What it returns (keys, strings) is valid until its next
// call, and read-only: it may be the input itself.
type Scanner struct {
	// MaxDepth bounds the nesting of arrays and objects; DefaultMaxDepth
	// when the scanner is made.
	MaxDepth int

	r     io.Reader // nil: buf is the whole input
	rerr  error     // what r returned last, once it is an error
	buf   []byte    // buf[i:] is not read yet
	i     int
	mark  int   // fill keeps buf[mark:] too (a token being read); -1: none
	base  int64 // the input offset of buf[0]
	depth int
	tmp   []byte // a string with escapes, decoded
}

// NewReader scans the JSON text that r holds.
func NewReader(r io.Reader) *Scanner {
	return &Scanner{MaxDepth: DefaultMaxDepth, r: r, buf: make([]byte, 0, bufSize), mark: -1}
}

// New scans the JSON text b. The scanner never writes to b.
func New(b []byte) *Scanner {
	s := &Scanner{MaxDepth: DefaultMaxDepth}
	s.Reset(b)
	return s
}

// Reset makes s scan b from its start, keeping MaxDepth and the buffer it
// decodes escapes into.
func (s *Scanner) Reset(b []byte) {
	s.r, s.rerr, s.buf, s.i, s.mark, s.base, s.depth = nil, nil, b, 0, -1, 0, 0
}

// ResetString makes s scan str from its start. The bytes are str's own,
// not a copy: a scanner without a reader only reads its buffer.
func (s *Scanner) ResetString(str string) {
	s.Reset(unsafe.Slice(unsafe.StringData(str), len(str)))
}

// Offset is how far into the input the scanner has read.
func (s *Scanner) Offset() int64 { return s.base + int64(s.i) }

func (s *Scanner) errorAt(i int, format string, args ...any) error {
	return &SyntaxError{Offset: s.base + int64(i), msg: fmt.Sprintf(format, args...)}
}

// fill reads more of the input after buf's end, first moving what is
// still needed (from the mark, or the next unread byte) to buf's start.
// It reports whether there is more; the indexes into buf it moved, even
// when there is no more, are s.i and s.mark.
func (s *Scanner) fill() bool {
	if s.r == nil || s.rerr != nil {
		return false
	}
	keep := s.i
	if s.mark >= 0 && s.mark < keep {
		keep = s.mark
	}
	if keep > 0 {
		n := copy(s.buf[:cap(s.buf)], s.buf[keep:])
		s.buf = s.buf[:n]
		s.base += int64(keep)
		s.i -= keep
		if s.mark >= 0 {
			s.mark -= keep
		}
	}
	if len(s.buf) == cap(s.buf) {
		s.buf = slices.Grow(s.buf, cap(s.buf)) // one token longer than the window
	}
	for range 100 {
		n, err := s.r.Read(s.buf[len(s.buf):cap(s.buf)])
		s.buf = s.buf[:len(s.buf)+n]
		if err != nil {
			s.rerr = err
		}
		if n > 0 {
			return true
		}
		if err != nil {
			return false
		}
	}
	s.rerr = io.ErrNoProgress
	return false
}

// need makes at least n bytes available from buf[*i] (an index that
// fill keeps, being at or after the mark), and reports whether it could.
func (s *Scanner) need(i *int, n int) bool {
	for *i+n > len(s.buf) {
		rel := *i - s.i
		if s.mark >= 0 {
			rel = *i - s.mark
		}
		more := s.fill()
		if s.mark >= 0 {
			*i = s.mark + rel
		} else {
			*i = s.i + rel
		}
		if !more {
			return false
		}
	}
	return true
}

// endErr is why the input ended: the reader's error, or the text being
// cut short.
func (s *Scanner) endErr() error {
	if s.rerr != nil && !errors.Is(s.rerr, io.EOF) {
		return s.rerr
	}
	return ErrUnexpectedEnd
}

// space marks JSON's white space.
var space = [256]bool{' ': true, '\t': true, '\n': true, '\r': true}

// skipSpace moves past the white space in the window (small enough to be
// inlined where a token usually follows at once).
func (s *Scanner) skipSpace() {
	i, buf := s.i, s.buf
	for i < len(buf) && space[buf[i]] {
		i++
	}
	s.i = i
}

// Peek returns the next byte that is not white space, without consuming
// it.
func (s *Scanner) Peek() (byte, error) {
	for {
		s.skipSpace()
		if s.i < len(s.buf) {
			return s.buf[s.i], nil
		}
		if !s.fill() {
			return 0, s.endErr()
		}
	}
}

// Expect consumes the next byte that is not white space, which must be c.
func (s *Scanner) Expect(c byte) error {
	got, err := s.Peek()
	if err != nil {
		return err
	}
	if got != c {
		return s.errorAt(s.i, "want %q, got %q", c, got)
	}
	s.i++
	return nil
}

// End checks that nothing but white space follows the value read.
func (s *Scanner) End() error {
	for {
		s.skipSpace()
		if s.i < len(s.buf) {
			return s.errorAt(s.i, "%q after the value", s.buf[s.i])
		}
		if !s.fill() {
			if s.rerr != nil && !errors.Is(s.rerr, io.EOF) {
				return s.rerr
			}
			return nil
		}
	}
}

func (s *Scanner) enter() error {
	if s.depth >= s.MaxDepth {
		return s.errorAt(s.i, "nested deeper than %d", s.MaxDepth)
	}
	s.depth++
	return nil
}

// Object reads an object, calling member with each key (decoded, valid
// until member reads on) and the scanner before the key's value, which
// member must read or skip.
func (s *Scanner) Object(member func(key []byte) error) error {
	if err := s.Expect('{'); err != nil {
		return err
	}
	if err := s.enter(); err != nil {
		return err
	}
	if c, err := s.Peek(); err != nil {
		return err
	} else if c == '}' {
		s.i++
		s.depth--
		return nil
	}
	for {
		key, err := s.key()
		if err != nil {
			return err
		}
		if err := member(key); err != nil {
			return err
		}
		s.skipSpace()
		c := byte(0)
		if s.i < len(s.buf) {
			c = s.buf[s.i]
		} else if c, err = s.Peek(); err != nil {
			return err
		}
		switch c {
		case ',':
			s.i++
		case '}':
			s.i++
			s.depth--
			return nil
		default:
			return s.errorAt(s.i, "want ',' or '}', got %q", c)
		}
	}
}

// key reads an object member's key and its ':'.
func (s *Scanner) key() ([]byte, error) {
	s.skipSpace()
	if s.i >= len(s.buf) || s.buf[s.i] != '"' {
		c, err := s.Peek()
		if err != nil {
			return nil, err
		}
		if c != '"' {
			return nil, s.errorAt(s.i, "want a string key, got %q", c)
		}
	}
	start, end, esc, bad, err := s.scanString()
	if err != nil {
		return nil, err
	}
	s.skipSpace()
	if s.i < len(s.buf) && s.buf[s.i] == ':' {
		s.i++
	} else {
		s.mark = start // the ':' may come after a refill, which keeps the key
		err = s.Expect(':')
		start, end = s.mark, end-(start-s.mark)
		s.mark = -1
		if err != nil {
			return nil, err
		}
	}
	if !esc && !bad {
		return s.buf[start:end], nil
	}
	s.tmp = Unescape(s.tmp[:0], s.buf[start:end])
	return s.tmp, nil
}

// Array reads an array, calling elem before each element, which elem
// must read or skip.
func (s *Scanner) Array(elem func() error) error {
	if err := s.Expect('['); err != nil {
		return err
	}
	if err := s.enter(); err != nil {
		return err
	}
	if c, err := s.Peek(); err != nil {
		return err
	} else if c == ']' {
		s.i++
		s.depth--
		return nil
	}
	for {
		if err := elem(); err != nil {
			return err
		}
		c, err := s.Peek()
		if err != nil {
			return err
		}
		switch c {
		case ',':
			s.i++
		case ']':
			s.i++
			s.depth--
			return nil
		default:
			return s.errorAt(s.i, "want ',' or ']', got %q", c)
		}
	}
}

// Null consumes a null if one comes next, and reports whether it did.
func (s *Scanner) Null() (bool, error) {
	c, err := s.Peek()
	if err != nil || c != 'n' {
		return false, err
	}
	return true, s.literal("null")
}

// literal consumes lit, which the next byte begins.
func (s *Scanner) literal(lit string) error {
	i := s.i
	if !s.need(&i, len(lit)) {
		return s.endErr()
	}
	if string(s.buf[i:i+len(lit)]) != lit {
		return s.errorAt(i, "bad literal, want %s", lit)
	}
	s.i = i + len(lit)
	return nil
}

// Skip consumes one value of any shape.
func (s *Scanner) Skip() error {
	_, err := s.Value()
	return err
}
