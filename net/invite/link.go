package invite

import (
	"net/url"
	"strings"
)

// LinkPath is the path under which a server's web face (`rockstep -server
// -web`) serves a room's link: https://SERVER/join/CODE opens the game in
// a browser tab in that room.
const LinkPath = "/join/"

// FromLink returns the invite code in a room's link (its text as pasted:
// "https://SERVER/join/CODE", with or without the scheme), and true; or s
// unchanged and false when s is no such link. Wherever a code is typed
// (-join, Join → Invite code), a link is then as good as its code: the
// code carries the server's addresses and key pin; the link's host is only
// a browser's way there.
func FromLink(s string) (string, bool) {
	t := strings.TrimSpace(s)
	if !strings.Contains(t, "://") {
		if i := strings.Index(t, LinkPath); i > 0 && !strings.ContainsAny(t[:i], " \t") {
			t = "https://" + t
		} else {
			return s, false
		}
	}
	u, err := url.Parse(t)
	if err != nil || u.Host == "" {
		return s, false
	}
	code, ok := strings.CutPrefix(u.Path, LinkPath)
	if !ok || code == "" || strings.Contains(code, "/") {
		return s, false
	}
	return code, true
}
