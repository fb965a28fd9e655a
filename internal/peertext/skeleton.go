package peertext

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Skeleton returns what s looks like, for telling apart names that a
// player would take for one another: two names with the same skeleton
// look alike. It is a key to compare, never shown.
//
// It is coarse on purpose, since a false match costs only a suffix on a
// name (see net/room/names.go): the compatibility forms are unfolded
// (NFKD: fullwidth and mathematical letters, ligatures), accents and other
// combining marks, spaces and invisible characters dropped, case folded,
// the Cyrillic and Greek letters that are drawn like Latin ones mapped to
// those, and so are the digits 0 (o) and 1 and capital I (l), and "rn"
// (m) and "vv" (w).
func Skeleton(s string) string {
	var b strings.Builder
	for _, r := range norm.NFKD.String(s) {
		if isMark(r) || isSpace(r) || !shown(r) {
			continue
		}
		if l, ok := upperLike[r]; ok {
			r = l // before folding: a capital may look like another letter than its small one
		}
		r = unicode.ToLower(r)
		if l, ok := lowerLike[r]; ok {
			r = l
		}
		b.WriteRune(r)
	}
	return digraphs.Replace(b.String())
}

// digraphs are pairs of Latin letters drawn like one.
var digraphs = strings.NewReplacer("rn", "m", "vv", "w")

// upperLike maps capitals to the Latin letter they are drawn like, where
// that differs from what their small letter is drawn like (Greek Eta is an
// H, eta an n) or where there is no small one to fold to.
var upperLike = map[rune]rune{
	'I': 'l', // sans-serif capital i and small L
	'|': 'l',
	// Greek.
	'Α': 'a', 'Β': 'b', 'Ε': 'e', 'Ζ': 'z', 'Η': 'h', 'Ι': 'l', 'Κ': 'k',
	'Μ': 'm', 'Ν': 'n', 'Ο': 'o', 'Ρ': 'p', 'Τ': 't', 'Υ': 'y', 'Χ': 'x',
	// Cyrillic.
	'А': 'a', 'В': 'b', 'Е': 'e', 'Ѕ': 's', 'І': 'l', 'Ј': 'j', 'К': 'k',
	'М': 'm', 'Н': 'h', 'О': 'o', 'Р': 'p', 'С': 'c', 'Т': 't', 'Х': 'x',
	'У': 'y', 'Ү': 'y', 'Һ': 'h', 'Ӏ': 'l', 'Ԛ': 'q', 'Ԝ': 'w',
}

// lowerLike maps small letters and digits to the small Latin letter they
// are drawn like.
var lowerLike = map[rune]rune{
	'0': 'o', '1': 'l',
	// Latin letters of other shapes.
	'ɑ': 'a', 'ɡ': 'g', 'ı': 'i', 'ȷ': 'j', 'ǀ': 'l',
	// Greek.
	'α': 'a', 'β': 'b', 'γ': 'y', 'ε': 'e', 'η': 'n', 'ι': 'i', 'κ': 'k',
	'ν': 'v', 'ο': 'o', 'ρ': 'p', 'τ': 't', 'υ': 'u', 'χ': 'x', 'ω': 'w',
	// Cyrillic.
	'а': 'a', 'в': 'b', 'е': 'e', 'к': 'k', 'м': 'm', 'н': 'h', 'о': 'o',
	'п': 'n', 'р': 'p', 'с': 'c', 'т': 't', 'у': 'y', 'х': 'x', 'ь': 'b',
	'ѕ': 's', 'і': 'i', 'ј': 'j', 'ԁ': 'd', 'ԛ': 'q', 'ԝ': 'w', 'ү': 'y',
	'һ': 'h', 'ӏ': 'l',
}
