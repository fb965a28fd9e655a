package peertext

import "testing"

func TestSkeleton(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b string
		same bool
	}{
		{"case", "Bob", "BOB", true},
		{"Cyrillic a and o", "Bob", "B\u043Eb", true},            // о
		{"Cyrillic capitals", "CAT", "\u0421\u0410\u0422", true}, // САТ
		{"Greek capitals", "HOPE", "\u0397\u039F\u03A1\u0395", true},
		{"Greek omicron", "solo", "s\u03BFl\u03BF", true},
		{"zero and O", "R0B0T", "ROBOT", true},
		{"one, l and capital i", "l1lI", "llll", true},
		{"rn and m", "Sam", "Sarn", true},
		{"fullwidth", "Ada", "\uFF21\uFF44\uFF41", true},
		{"mathematical bold", "Ada", "\U0001D400\U0001D41D\U0001D41A", true},
		{"accents", "José", "Jose", true},
		{"spaces", "Ada Lovelace", "AdaLovelace", true},
		{"different names", "Ada", "Bob", false},
		{"one letter more", "Ann", "Anna", false},
		{"Cyrillic words that look nothing like Latin ones", "Жук", "Xyk", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ka, kb := Skeleton(tc.a), Skeleton(tc.b)
			if got := ka == kb; got != tc.same {
				t.Errorf("Skeleton(%+q) = %+q, Skeleton(%+q) = %+q: same %v, want %v", tc.a, ka, tc.b, kb, got, tc.same)
			}
		})
	}
}
