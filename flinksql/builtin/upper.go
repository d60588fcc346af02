package builtin

import "strings"

// UpperWord upper-cases a word, without allocating when it already is.
func UpperWord(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' {
			return UpperASCII(s)
		}
		if c >= 0x80 {
			return strings.ToUpper(s)
		}
	}
	return s
}

// UpperASCII upper-cases the ASCII letters of s and nothing else.
func UpperASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}
