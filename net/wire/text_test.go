package wire

import (
	"strings"
	"testing"
	"unicode/utf8"

	"rockstep/game"
)

func TestTruncate(t *testing.T) {
	tests := []struct {
		name string
		in   string
		n    int
		want string
	}{
		{"short", "Ada", MaxName, "Ada"},
		{"exact", strings.Repeat("x", MaxName), MaxName, strings.Repeat("x", MaxName)},
		{"ascii cut", strings.Repeat("x", 30), MaxName, strings.Repeat("x", MaxName)},
		{"two-byte letter at the edge", strings.Repeat("x", 23) + "é", MaxName, strings.Repeat("x", 23)},
		{"four-byte letter at the edge", strings.Repeat("x", 22) + "🚀", MaxName, strings.Repeat("x", 22)},
		{"zero", "abc", 0, ""},
		{"invalid bytes are cut as bytes", "ab\xff\xfe", 3, "ab\xff"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Truncate(tt.in, tt.n)
			if got != tt.want {
				t.Fatalf("Truncate(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
			}
			if utf8.ValidString(tt.in) && !utf8.ValidString(got) {
				t.Fatalf("Truncate(%q, %d) = %q: not valid UTF-8", tt.in, tt.n, got)
			}
		})
	}
}

// A name cut to the limit must still encode: the room's setup state is
// never refused by its own encoder.
func TestTruncatedNameEncodes(t *testing.T) {
	name := Truncate(strings.Repeat("a", MaxName-1)+"é", MaxName)
	if _, err := Append(nil, SetupState{Name: name, Setup: game.DefaultSetup()}); err != nil {
		t.Fatalf("setup state with the name %q: %v", name, err)
	}
}
