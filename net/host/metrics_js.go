//go:build js

package host

import "net/http"

// MetricsHandler: a browser tab serves no HTTP, so its build leaves the
// metrics library out (the download stays smaller); the handler only says
// so.
func (h *Host) MetricsHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no metrics in a browser tab", http.StatusNotImplemented)
	})
}
