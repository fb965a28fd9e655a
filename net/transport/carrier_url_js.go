//go:build js

package transport

import "syscall/js"

// carrierURL returns the WebSocket URL to dial for addr. A browser tab has
// no UDP: every address (an invite code's, a room list's) is reached
// through the WebSocket endpoint of the server that served the page
// (net/web's /ws), which carries the datagrams into the same transport; the
// host key pin still decides whom the tab trusts.
func carrierURL(addr string) string {
	if isCarrierURL(addr) {
		return addr
	}
	loc := js.Global().Get("location")
	if loc.IsUndefined() || loc.IsNull() {
		return "" // no page (Node.js tests): nothing to reach
	}
	scheme := "ws:"
	if loc.Get("protocol").String() == "https:" {
		scheme = "wss:"
	}
	return scheme + "//" + loc.Get("host").String() + "/ws"
}
