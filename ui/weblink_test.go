package ui

import (
	"testing"
	"time"

	"rockstep/internal/testwait"
	"rockstep/net/host"
	"rockstep/net/host/hosttest"
	"rockstep/net/invite"
	"rockstep/net/transport"
)

// TestWebLink: a room's link is the web face's base, its host filled in
// from the server's address where the base names none, then /join/CODE;
// and the link, pasted in Join → Invite code, gives the code back.
func TestWebLink(t *testing.T) {
	const code = "45HD-BJTX-U6RQ"
	for _, tt := range []struct {
		name, base, server, want string
	}{
		{"the server's own host", "https://:8443", "play.example.org:7777", "https://play.example.org:8443/join/" + code},
		{"a host of its own", "https://games.example.org", "203.0.113.9:7777", "https://games.example.org/join/" + code},
		{"plain HTTP on loopback", "http://127.0.0.1:8080", "127.0.0.1:7777", "http://127.0.0.1:8080/join/" + code},
		{"an IPv6 server", "https://:8443", "[2001:db8::1]:7777", "https://[2001:db8::1]:8443/join/" + code},
		{"no web face", "", "play.example.org:7777", ""},
		{"not a web URL", "ftp://:21", "play.example.org:7777", ""},
		{"no server host to fill in", "https://:8443", "garbage", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := webLink(tt.base, tt.server, code)
			if got != tt.want {
				t.Fatalf("webLink(%q, %q) = %q, want %q", tt.base, tt.server, got, tt.want)
			}
			if got == "" {
				return
			}
			if c, ok := invite.FromLink(got); !ok || c != code {
				t.Errorf("FromLink(%q) = %q, %v; want the code back", got, c, ok)
			}
		})
	}
}

// TestServerTellsItsWebFace: a server whose web face is set
// (host.SetWeb, as `rockstep -server -web` does) says where in its room
// list, and a lobby makes the room's link of it; one without says
// nothing.
func TestServerTellsItsWebFace(t *testing.T) {
	for _, base := range []string{"https://:8443", ""} {
		t.Run("web="+base, func(t *testing.T) {
			hs := hosttest.Start(t, transport.LAN(), host.LAN())
			hs.Host.SetWeb(base)
			var rooms serverRooms
			var got serverListing
			if !testwait.Until(inviteTestPatience, func() bool {
				rooms.poll([]KnownServer{{Addr: hs.Addr()}}, time.Now())
				var ok bool
				got, ok = rooms.listing(hs.Addr())
				return ok
			}) {
				t.Fatal("the server never answered its room list")
			}
			if got.err != nil || got.list.Web != base {
				t.Fatalf("the list says web %q (error %v), want %q", got.list.Web, got.err, base)
			}
			want := ""
			if base != "" {
				want = "https://127.0.0.1:8443/join/CODE"
			}
			if link := webLink(got.list.Web, hs.Addr(), "CODE"); link != want {
				t.Errorf("link %q, want %q", link, want)
			}
		})
	}
}
