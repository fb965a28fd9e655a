package peertext

import "testing"

// TestUnsuffixed: a chosen name cannot end in what looks like the " (N)"
// a room adds to a look-alike name; the rest of the name is kept.
func TestUnsuffixed(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"plain", "Ada", "Ada"},
		{"the room's suffix", "Ada (2)", "Ada 2"},
		{"no space", "Ada(2)", "Ada 2"},
		{"spaces inside", "Ada ( 12 )", "Ada 12"},
		{"fullwidth", "Ada （２）", "Ada 2"},
		{"one parenthesized digit", "Ada ⑵", "Ada 2"},
		{"superscripts", "Ada ⁽²⁾", "Ada 2"},
		{"ornamental parentheses", "Ada ❨3❩", "Ada 3"},
		{"two suffixes: the last goes", "Ada (2) (3)", "Ada (2) 3"},
		{"nothing but a suffix", "(7)", "7"},
		{"letters inside stay", "Ada (the great)", "Ada (the great)"},
		{"not at the end", "Ada (2) x", "Ada (2) x"},
		{"empty parentheses", "Ada ()", "Ada ()"},
		{"other scripts' digits stay", "Ada (٢)", "Ada (٢)"},
		{"a long number stays", "Ada (123456789012)", "Ada (123456789012)"},
		{"empty", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Unsuffixed(tc.in); got != tc.want {
				t.Errorf("Unsuffixed(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func FuzzUnsuffixed(f *testing.F) {
	for _, s := range []string{"Ada (2)", "⑵⑶", "((1))", "x (1) (2)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := Clean(s, 64)
		u := Unsuffixed(c)
		if len(u) > len(c) {
			t.Fatalf("Unsuffixed(%q) = %q: longer", c, u)
		}
		if _, _, ok := numberSuffix(u); ok {
			t.Fatalf("Unsuffixed(%q) = %q still ends in a number in parentheses", c, u)
		}
		if Clean(u, 64) != u {
			t.Fatalf("Unsuffixed(%q) = %q is not clean", c, u)
		}
	})
}
