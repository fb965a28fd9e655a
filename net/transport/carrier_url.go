//go:build !js

package transport

// carrierURL returns the WebSocket URL to dial for addr: addr itself if it
// is one (ws:// or wss://), else "": a UDP address, dialled over UDP.
func carrierURL(addr string) string {
	if isCarrierURL(addr) {
		return addr
	}
	return ""
}
