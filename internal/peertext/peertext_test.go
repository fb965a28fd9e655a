package peertext

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

func TestClean(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		max  int
		want string
	}{
		{"plain", "Ada", 24, "Ada"},
		{"NUL", "Ad\x00a", 24, "Ada"},
		{"ESC sequence loses its ESC", "\x1b[2J\x1b[31mred", 24, "[2J[31mred"},
		{"CR LF become one space", "first\r\nsecond", 24, "first second"},
		{"tab and runs of spaces", " a\t\t b  c ", 24, "a b c"},
		{"DEL and C1", "a\x7fb\u0085c\u009bd", 24, "ab cd"},
		{"right-to-left override", "evil\u202Egnp.exe", 24, "evilgnp.exe"},
		{"bidi isolates and marks", "\u2066a\u2067b\u2068c\u2069\u200Ed\u200Fe\u061Cf\u202Ag\u202Bh\u202Ci\u202Dj", 40, "abcdefghij"},
		{"zero-width characters", "B\u200Bo\u200Cb\u200D\u2060\uFEFF", 24, "Bob"},
		{"other format characters: soft hyphen, tags, Mongolian separator", "a\u00ADb\U000E0041c\u180Ed", 24, "abcd"},
		{"Hangul filler and braille blank are not a name", "\u3164\u2800\u115F", 24, ""},
		{"variation selectors", "a\uFE0Fb\U000E0100", 24, "ab"},
		{"invalid UTF-8 and U+FFFD", "a\xffb\xc3c\uFFFDd", 24, "abcd"},
		{"private use and unassigned", "a\uE000b\U000F0000c\u0378d", 24, "abcd"},
		{"NBSP, ideographic and line separator spaces", "a\u00A0b\u3000c\u2028d\u2029e", 24, "a b c d e"},
		{"NFC: e + combining acute", "Jose\u0301", 24, "José"},
		{"Zalgo: marks capped after one base", "a" + strings.Repeat("\u0300\u0301\u0302", 10) + "b", 64, "\u00e0\u0301\u0302\u0300\u0301b"},
		{"a mark with no base goes", "\u0301a \u0301b", 24, "a b"},
		{"marks behind a removed space go", "x\u200B\u0301", 24, "x\u0301"},
		{"cut on a character boundary", "abcdé", 5, "abcd"},
		{"cut keeps a letter with its accents", "abcde\u0301\u0323", 6, "abcd"},
		{"cut trims the space it leaves", "abc def", 4, "abc"},
		{"emoji stay, their joiners go", "\U0001F468\u200D\U0001F469", 24, "\U0001F468\U0001F469"},
		{"scripts stay", "Привет 你好 مرحبا", 64, "Привет 你好 مرحبا"},
		{"no room at all", "abc", 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Clean(tc.in, tc.max)
			if got != tc.want {
				t.Errorf("Clean(%+q, %d) = %+q, want %+q", tc.in, tc.max, got, tc.want)
			}
			if again := Clean(got, tc.max); again != got {
				t.Errorf("Clean(Clean(%+q)) = %+q, want %+q", tc.in, again, got)
			}
		})
	}
}

// forbidden returns the first character a cleaned text must never hold,
// and false if there is none.
func forbidden(s string) (rune, bool) {
	for _, r := range s {
		switch {
		case r == ' ':
		case r == utf8.RuneError,
			unicode.IsControl(r),      // C0, DEL, C1
			unicode.Is(unicode.Cf, r), // bidi, zero-width, tags
			unicode.IsSpace(r),        // any blank but the plain space
			r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069,
			r == 0x200E, r == 0x200F, r == 0x061C,
			r >= 0x200B && r <= 0x200D, r == 0x2060, r == 0xFEFF,
			!unicode.IsGraphic(r):
			return r, true
		}
	}
	return 0, false
}

func FuzzClean(f *testing.F) {
	for _, s := range []string{
		"Ada", "\x00\x1b[31m\r\n", "evil\u202Egnp.exe", "B\u200Bo\u200Db", "Jose\u0301",
		"a" + strings.Repeat("\u0301", 40), "\xff\xfe", "\u3164\u2800", "  a  b  ",
		"\u0958\u0301", "e\u200D\u0301", "가\u200B\u11A8", "abcdé\u0301",
	} {
		f.Add(s, 24)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		n = n%256 + 1
		if n < 1 {
			n += 256
		}
		got := Clean(s, n)
		if !utf8.ValidString(got) {
			t.Fatalf("Clean(%+q, %d) = %+q: invalid UTF-8", s, n, got)
		}
		if len(got) > n {
			t.Fatalf("Clean(%+q, %d) = %+q: %d bytes", s, n, got, len(got))
		}
		if !norm.NFC.IsNormalString(got) {
			t.Fatalf("Clean(%+q, %d) = %+q: not NFC", s, n, got)
		}
		if r, bad := forbidden(got); bad {
			t.Fatalf("Clean(%+q, %d) = %+q: holds %U", s, n, got, r)
		}
		if strings.HasPrefix(got, " ") || strings.HasSuffix(got, " ") || strings.Contains(got, "  ") {
			t.Fatalf("Clean(%+q, %d) = %+q: spaces not trimmed and collapsed", s, n, got)
		}
		if again := Clean(got, n); again != got {
			t.Fatalf("Clean(Clean(%+q, %d)) = %+q, want %+q", s, n, again, got)
		}
		_ = Skeleton(got) // never panics, whatever it is given
	})
}
