package main

import (
	"net"
	"testing"
)

// TestWebBase: the base of the links a server's room lists carry names
// the scheme and the port listened on, and -web's host unless it is none
// or every interface (the client then puts the server's address it knows).
func TestWebBase(t *testing.T) {
	for _, tt := range []struct {
		scheme, flag string
		port         int
		want         string
	}{
		{"https", ":8443", 8443, "https://:8443"},
		{"https", "0.0.0.0:8443", 8443, "https://:8443"},
		{"http", "[::]:80", 80, "http://:80"},
		{"http", "127.0.0.1:0", 41234, "http://127.0.0.1:41234"},
		{"https", "play.example.org:443", 443, "https://play.example.org:443"},
	} {
		if got := webBase(tt.scheme, tt.flag, &net.TCPAddr{IP: net.IPv4zero, Port: tt.port}); got != tt.want {
			t.Errorf("webBase(%q, %q, port %d) = %q, want %q", tt.scheme, tt.flag, tt.port, got, tt.want)
		}
	}
}
