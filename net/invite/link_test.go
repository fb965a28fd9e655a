package invite

import "testing"

func TestFromLink(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"https://play.example.org/join/K7QM-ABCD-EFGH-JKMN", "K7QM-ABCD-EFGH-JKMN", true},
		{"  http://127.0.0.1:8080/join/K7QM-ABCD  ", "K7QM-ABCD", true},
		{"play.example.org/join/K7QM-ABCD", "K7QM-ABCD", true},
		{"K7QM-ABCD-EFGH-JKMN", "K7QM-ABCD-EFGH-JKMN", false},
		{"192.168.1.5:7777", "192.168.1.5:7777", false},
		{"https://play.example.org/", "https://play.example.org/", false},
		{"https://play.example.org/join/", "https://play.example.org/join/", false},
		{"https://play.example.org/join/A/B", "https://play.example.org/join/A/B", false},
	} {
		got, ok := FromLink(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("FromLink(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}
