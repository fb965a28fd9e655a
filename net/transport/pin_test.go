package transport

import (
	"errors"
	"strings"
	"testing"
)

// TestHandshakePin: a client pinned to the first 64 bits of a fingerprint
// (an invite code's) takes the server whose key starts so, and refuses
// another at its Accept, as with the whole fingerprint.
func TestHandshakePin(t *testing.T) {
	key, other := newHostKey(t), newHostKey(t)
	cfg := LAN()
	cfg.HostKey = key
	for _, tc := range []struct {
		name   string
		expect string
		want   error
	}{
		{"this key's first 64 bits", key.Fingerprint()[:MinPinLen], nil},
		{"this key's first 96 bits", key.Fingerprint()[:24], nil},
		{"another key's first 64 bits", other.Fingerprint()[:MinPinLen], ErrHostKey},
	} {
		t.Run(tc.name, func(t *testing.T) {
			est, err := offlineHandshake(t, cfg, tc.expect)
			if !errors.Is(err, tc.want) || (tc.want == nil) != (est != nil) {
				t.Fatalf("handshake: %v, %v; want error %v", est, err, tc.want)
			}
		})
	}
}

func TestValidPin(t *testing.T) {
	fp := strings.Repeat("0123456789abcdef", 2)
	for _, tc := range []struct {
		name string
		pin  string
		want bool
	}{
		{"whole fingerprint", fp, true},
		{"64 bits", fp[:16], true},
		{"60 bits", fp[:15], false},
		{"too long", fp + "00", false},
		{"upper case", strings.ToUpper(fp[:16]), false},
		{"not hex", "0123456789abcdeg", false},
		{"empty", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ValidPin(tc.pin); got != tc.want {
				t.Errorf("ValidPin(%q) = %v, want %v", tc.pin, got, tc.want)
			}
		})
	}
	cfg := LAN()
	cfg.HostFingerprint = fp[:15]
	if _, err := cfg.withDefaults(); err == nil {
		t.Errorf("a 60-bit pin: no error, want one (too weak a pin)")
	}
}
