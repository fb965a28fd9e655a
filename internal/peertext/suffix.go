package peertext

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// maxSuffixDigits bounds the digits of a tail Unsuffixed reads as a
// number in parentheses: a room never numbers more look-alikes than it
// holds members, and a name is at most a few dozen bytes anyway.
const maxSuffixDigits = 8

// Unsuffixed returns a cleaned name with every ending that looks like the
// " (N)" a room adds to tell look-alike names apart (net/room/names.go)
// written as " N": a player may not choose "Ada (2)" and pass for the
// second Ada. An ending looks like one if, its compatibility forms
// unfolded (NFKD: "（２）", "⑵", "⁽²⁾"), its marks, spaces and invisible
// characters dropped and the ornamental parentheses read as plain ones,
// it is "(", one or more digits 0–9 and ")". The parentheses go, the
// digits stay: "Ada (2)" becomes "Ada 2", "(7)" becomes "7". The result is
// no longer than s and is clean if s was.
func Unsuffixed(s string) string {
	// Each pass removes at least the two parentheses: bounded by len(s).
	for {
		cut, digits, ok := numberSuffix(s)
		if !ok {
			return s
		}
		base := strings.TrimRight(s[:cut], " ")
		if base == "" {
			s = digits
		} else {
			s = base + " " + digits
		}
	}
}

// numberSuffix finds the longest ending of s that looks like "(N)" (see
// Unsuffixed): where it starts, and N in ASCII digits.
func numberSuffix(s string) (cut int, digits string, ok bool) {
	if !strings.ContainsFunc(s, closeParen) {
		return 0, "", false
	}
	for i := 0; i < len(s); {
		if d, ok := looksNumbered(s[i:]); ok {
			return i, d, true
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return 0, "", false
}

// closeParen reports whether r may end a "(N)" once unfolded.
func closeParen(r rune) bool {
	if r == ')' || parenLike[r] == ')' {
		return true
	}
	d := norm.NFKD.String(string(r))
	return strings.HasSuffix(d, ")")
}

// looksNumbered reports whether t, unfolded, is "(" digits ")", and
// returns the digits.
func looksNumbered(t string) (string, bool) {
	var folded []rune
	for _, r := range norm.NFKD.String(t) {
		if isMark(r) || isSpace(r) || !shown(r) {
			continue
		}
		if p, ok := parenLike[r]; ok {
			r = p
		}
		folded = append(folded, r)
		if len(folded) > maxSuffixDigits+2 {
			return "", false
		}
	}
	n := len(folded)
	if n < 3 || folded[0] != '(' || folded[n-1] != ')' {
		return "", false
	}
	for _, r := range folded[1 : n-1] {
		if r < '0' || r > '9' {
			return "", false
		}
	}
	return string(folded[1 : n-1]), true
}

// parenLike maps the parentheses NFKD leaves alone but a reader takes for
// plain ones to those.
var parenLike = map[rune]rune{
	'❨': '(', '❩': ')', '❪': '(', '❫': ')', '⟮': '(', '⟯': ')',
	'⦅': '(', '⦆': ')', '﴾': '(', '﴿': ')', '〔': '(', '〕': ')',
	'❲': '(', '❳': ')', '⸨': '(', '⸩': ')',
}
