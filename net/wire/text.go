package wire

import "unicode/utf8"

// Truncate cuts s to at most n bytes without splitting a UTF-8 character,
// so that a name or chat line cut to a protocol limit still encodes: a
// name of MaxName+1 bytes ending in "é" loses the whole "é", not half.
func Truncate(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if len(s) <= n {
		return s
	}
	// s[n] is the first byte cut; if it continues a character, that
	// character starts before n and goes too.
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i]
}
