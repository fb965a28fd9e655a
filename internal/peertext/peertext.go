// Package peertext makes text that came from another machine safe to show:
// player names, chat lines, room names and the names in LAN records. Every
// such text passes through Clean where it enters (the room, the host, the
// LAN browser, the client's session), so that a peer cannot move the
// cursor, reverse a line, hide characters or make its name look like
// another player's by characters nobody can see. Skeleton tells names that
// look alike (see docs/ARCHITECTURE.md, "Text from peers").
package peertext

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// maxMarks is how many combining marks Clean keeps after one base
// character: enough for the stacked vowels and tones of real scripts
// (Vietnamese, Thai, Hebrew points) once NFC has composed what it can, and
// few enough that "Zalgo" text cannot cover the lines above and below it.
const maxMarks = 4

// Clean returns s as it may be shown on one line, at most maxBytes bytes:
//
//   - invalid UTF-8 and U+FFFD are removed;
//   - every white space (tab, CR, LF, NBSP, the wide and narrow spaces,
//     line and paragraph separators, and the blank braille pattern U+2800)
//     becomes a plain space, runs of spaces become one, and leading and
//     trailing spaces go;
//   - everything else that is not graphic is removed: control characters
//     (C0, DEL, C1: NUL, ESC …), format characters (Unicode category Cf:
//     the bidi embeddings, overrides, isolates and marks U+202A–202E,
//     U+2066–2069, U+200E/200F, U+061C; the zero-width U+200B–200D, U+2060,
//     U+FEFF; tags …), private-use and unassigned code points, and the other
//     default-ignorable ones (variation selectors, the Hangul fillers that
//     render as nothing);
//   - the text is normalised to NFC, combining marks with no base before
//     them are removed and at most maxMarks are kept after one base;
//   - it is cut to maxBytes on a normalisation boundary, so that a letter
//     is never kept without its accents.
//
// Clean is idempotent: Clean(Clean(s, n), n) == Clean(s, n).
func Clean(s string, maxBytes int) string {
	if maxBytes <= 0 {
		return ""
	}
	// Bound the work on a long input: what is kept never needs more than
	// maxBytes of output, and every kept character is in the input.
	if limit := 8*maxBytes + 64; len(s) > limit {
		s = s[:limit]
	}
	s = norm.NFC.String(filter(s))
	s = shape(s)
	if !norm.NFC.IsNormalString(s) {
		// Removing a mark can let the marks around it compose.
		s = shape(norm.NFC.String(s))
	}
	return truncate(s, maxBytes)
}

// filter removes invalid UTF-8 and the characters that are never shown,
// and turns every white space into a plain space.
func filter(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError: // invalid UTF-8 decodes to it too
		case isSpace(r):
			b.WriteByte(' ')
		case shown(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isSpace reports whether r is shown as a blank: the Unicode white space
// (which includes tab, CR, LF and U+0085 among the controls, and the line
// and paragraph separators) and the blank braille pattern, a favourite for
// names that look empty.
func isSpace(r rune) bool {
	return unicode.IsSpace(r) || r == '\u2800'
}

// shown reports whether r may appear in a cleaned text (white space aside).
func shown(r rune) bool {
	return unicode.IsGraphic(r) &&
		!unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) &&
		!unicode.Is(unicode.Variation_Selector, r) &&
		r != '\uFFFC' // the object replacement character stands for nothing here
}

// isMark reports whether r is a combining mark, drawn on the character
// before it.
func isMark(r rune) bool { return unicode.Is(unicode.M, r) }

// shape collapses and trims spaces and bounds the combining marks of an
// already filtered text.
func shape(s string) string {
	b := make([]byte, 0, len(s))
	space := false // a space is owed before the next character kept
	marks := -1    // marks kept after the current base; -1: no base (start, or after a space)
	for _, r := range s {
		switch {
		case r == ' ':
			space = len(b) > 0
			marks = -1
			continue
		case isMark(r):
			if marks < 0 || marks >= maxMarks {
				continue
			}
			marks++
		default:
			marks = 0
		}
		if space {
			b = append(b, ' ')
			space = false
		}
		b = utf8.AppendRune(b, r)
	}
	return string(b)
}

// truncate cuts s to at most n bytes on a normalisation boundary (a
// character and its marks go together) and trims the spaces the cut leaves
// at the end.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	// The boundaries of s[:i+1 rune] are those of s up to i: i itself is
	// one if the character there starts a new segment.
	_, size := utf8.DecodeRuneInString(s[i:])
	if b := norm.NFC.LastBoundary([]byte(s[:i+size])); b >= 0 && b <= i {
		i = b
	}
	return strings.TrimRight(s[:i], " ")
}
