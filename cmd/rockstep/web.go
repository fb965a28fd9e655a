//go:build !js

package main

import (
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"time"

	"rockstep/net/host"
	"rockstep/net/invite"
	"rockstep/net/transport"
	"rockstep/net/web"
)

// webOptions are the flags of a server's web face (-web).
type webOptions struct {
	addr    string      // -web: TCP address of the page, /join/CODE, /ws and /rooms ("": none)
	cert    string      // -web-cert: TLS certificate (PEM) for HTTPS
	key     string      // -web-key: its private key (PEM)
	origins stringsFlag // -web-origin: more Origin hosts the WebSocket accepts
	netsim  string      // -web-netsim: a simulated bad network on every tab's link (tests)
}

func webFlags(fs *flag.FlagSet, o *webOptions) {
	fs.StringVar(&o.addr, "web", "", "with -server: serve the game for browser tabs on TCP `ADDR` (the page, /join/CODE links, the WebSocket endpoint /ws, POST and GET /rooms, /metrics)")
	fs.StringVar(&o.cert, "web-cert", "", "with -server -web: serve HTTPS with the certificate in `FILE` (PEM; with -web-key)")
	fs.StringVar(&o.key, "web-key", "", "with -server -web: the private key of -web-cert, in `FILE` (PEM)")
	fs.StringVar(&o.netsim, "web-netsim", "", "with -server -web: simulate a bad network on every browser tab's link, both ways (tests): `SPEC` as -netsim's")
	fs.Var(&o.origins, "web-origin", "with -server -web: also accept WebSocket connections from pages on `HOST` (a pattern like *.example.org; repeatable; default: the server's own host only)")
}

// serveWeb serves the web face of srv's rooms until stop is called.
func serveWeb(o webOptions, srv *transport.Server, h *host.Host, log *slog.Logger) (stop func(), err error) {
	if (o.cert == "") != (o.key == "") {
		return nil, errors.New("-web-cert and -web-key go together")
	}
	imp, err := transport.ParseImpairment(o.netsim)
	if err != nil {
		return nil, fmt.Errorf("-web-netsim: %w", err)
	}
	var tlsCfg *tls.Config
	if o.cert != "" {
		pair, err := tls.LoadX509KeyPair(o.cert, o.key)
		if err != nil {
			return nil, fmt.Errorf("-web-cert %s -web-key %s: %w", o.cert, o.key, err)
		}
		tlsCfg = &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return nil, err
	}
	game := web.Embedded()
	listen, _ := netip.ParseAddrPort(srv.Addr().String())
	cfg := web.Config{Server: srv, Addrs: invite.HostAddrs(listen, invite.InterfaceAddrs(), netip.AddrPort{}),
		Origins: o.origins, Game: game, Metrics: h.MetricsHandler(), Log: log, Netsim: imp}
	hs := &http.Server{Handler: web.New(cfg), ReadHeaderTimeout: 5 * time.Second, ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelDebug)}
	scheme := "http"
	if tlsCfg != nil {
		scheme = "https"
		ln = tls.NewListener(ln, tlsCfg)
	}
	go func() { _ = hs.Serve(ln) }()
	h.SetWeb(webBase(scheme, o.addr, ln.Addr()))
	if game == nil {
		log.Warn("web: this executable has no game for browsers; build it with make", "addr", ln.Addr().String())
	}
	log.Info("web", "url", scheme+"://"+ln.Addr().String()+"/", "game", game != nil)
	return func() { _ = hs.Close() }, nil
}

// webBase is the base of the web face's links that room lists carry
// (host.SetWeb): scheme, and the host of -web's addr with the port
// listened on; the host left empty where -web names none or all
// interfaces, for the client to use the server's address it knows.
func webBase(scheme, flagAddr string, listened net.Addr) string {
	port := ""
	if ta, ok := listened.(*net.TCPAddr); ok {
		port = strconv.Itoa(ta.Port)
	}
	host, _, err := net.SplitHostPort(flagAddr)
	if err != nil {
		host = ""
	}
	if ip, err := netip.ParseAddr(host); err == nil && ip.IsUnspecified() {
		host = ""
	}
	if port == "" {
		return ""
	}
	return scheme + "://" + net.JoinHostPort(host, port)
}
