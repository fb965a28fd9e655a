// Package web is the HTTP face of `rockstep -server -web ADDR`: the page
// that runs the game built for WebAssembly in a browser tab, the /join/CODE
// links that open it in a room, the WebSocket endpoint that carries the
// same sealed datagrams as UDP into the same transport and rooms (one
// message, one datagram: transport.Server.Carry), and rooms by HTTP
// (POST /rooms, GET /rooms) for chat bots, tournament tools and
// matchmakers.
//
// The web face holds no room state of its own: POST /rooms and GET /rooms
// speak to the server's rooms as a client would (a CreateRoom, a
// RoomListRequest) over an in-memory carrier from the HTTP client's
// address, so the room key check, the per-network room limits and the
// unlisted rooms are the host's, the same as for a desktop player.
package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/coder/websocket"

	"rockstep/net/invite"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// Config is the web face's settings.
type Config struct {
	// Server is the transport the WebSocket peers are carried into, and
	// whose rooms POST /rooms and GET /rooms speak to.
	Server *transport.Server
	// Addrs are the server's UDP addresses to put in invite codes (the
	// desktop players'); the codes also pin Server's host key.
	Addrs []netip.AddrPort
	// Origins are the Origin host patterns (path.Match syntax, e.g.
	// "game.example.org" or "*.example.org") a WebSocket may come from
	// besides the page's own host. None: the same host only.
	Origins []string
	// Game is the game's WebAssembly build and its runner; nil: the page
	// says how to build it.
	Game *Game
	// Metrics, if set, is served at /metrics (and /healthz answers ok).
	Metrics http.Handler
	Log     *slog.Logger // nil: discard
	// Netsim, if set, makes every WebSocket's link bad both ways
	// (transport.ImpairCarrier): tests of a tab on a poor network.
	Netsim transport.Impairment
}

// Handler serves the web face.
type Handler struct {
	cfg Config
	log *slog.Logger
	mux *http.ServeMux
}

// New returns the web face of cfg.Server.
func New(cfg Config) *Handler {
	h := &Handler{cfg: cfg, log: cfg.Log, mux: http.NewServeMux()}
	if h.log == nil {
		h.log = slog.New(slog.DiscardHandler)
	}
	h.mux.HandleFunc("GET /{$}", h.page)
	h.mux.HandleFunc("GET /join/{code}", h.page)
	h.mux.HandleFunc("GET /wasm_exec.js", h.wasmExec)
	h.mux.HandleFunc("GET /rockstep.wasm", h.wasm)
	h.mux.HandleFunc("GET /ws", h.websocket)
	h.mux.HandleFunc("POST /rooms", h.createRoom)
	h.mux.HandleFunc("GET /rooms", h.listRooms)
	h.mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok\n") })
	if cfg.Metrics != nil {
		h.mux.Handle("GET /metrics", cfg.Metrics)
	}
	return h
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.mux.ServeHTTP(w, r) }

// remoteAddr is the HTTP client's address: the peer the server counts a
// WebSocket's sessions, rooms and limits against.
func remoteAddr(r *http.Request) (netip.AddrPort, error) {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return ap, fmt.Errorf("remote address %q: %w", r.RemoteAddr, err)
	}
	return netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port()), nil
}

// MaxMessage is the largest WebSocket message the endpoint reads, bytes:
// a datagram of the transport's largest MTU. A larger one closes its
// connection (1009), and only it.
const MaxMessage = 1500

// websocket is the endpoint a tab's transport.Client dials (ws:// or
// wss:// /ws): after the Origin check (coder/websocket's: the page's own
// host, or Config.Origins), the connection is one carried peer of the
// server until either side closes it.
func (h *Handler) websocket(w http.ResponseWriter, r *http.Request) {
	from, err := remoteAddr(r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: h.cfg.Origins})
	if err != nil {
		// Accept has answered (403 for a foreign Origin).
		h.log.Info("websocket refused", "from", from.String(), "origin", r.Header.Get("Origin"), "err", err)
		return
	}
	ws.SetReadLimit(MaxMessage)
	var c transport.Carrier = keepOpen{transport.WebSocketCarrier(ws)}
	if !h.cfg.Netsim.IsZero() {
		c = transport.ImpairCarrier(c, h.cfg.Netsim, uint64(from.Port()))
	}
	err = h.cfg.Server.Carry(r.Context(), from, c)
	switch {
	case errors.Is(err, transport.ErrCarrierLimit):
		ws.Close(websocket.StatusPolicyViolation, "too many connections from your address")
	case err != nil:
		h.log.Debug("websocket closed", "from", from.String(), "err", err)
		ws.CloseNow()
	default:
		ws.CloseNow()
	}
}

// keepOpen leaves the WebSocket's closing to the handler, which says why.
type keepOpen struct{ transport.Carrier }

func (keepOpen) Close() error { return nil }

// Ping keeps the WebSocket's pings (transport.Pinger): a tab whose page's
// thread is held for seconds answers them all the same, so the server
// knows it stalled rather than went away.
func (k keepOpen) Ping(ctx context.Context) error {
	if p, ok := k.Carrier.(transport.Pinger); ok {
		return p.Ping(ctx)
	}
	return errors.New("no ping on this carrier")
}

// askTimeout bounds POST /rooms' and GET /rooms' exchange with the rooms.
const askTimeout = 10 * time.Second

// ask connects to the server as the HTTP client at from would, over an
// in-memory carrier, sends frame, and returns the first answer accept
// takes (it returns true for it).
func (h *Handler) ask(ctx context.Context, from netip.AddrPort, frames [][]byte, accept func(wire.Message) bool) (wire.Message, error) {
	ctx, cancel := context.WithTimeout(ctx, askTimeout)
	defer cancel()
	srvEnd, cliEnd := transport.MemCarriers()
	carried := make(chan error, 1)
	go func() { carried <- h.cfg.Server.Carry(ctx, from, srvEnd) }()
	defer func() { cancel(); <-carried }()
	cfg := transport.LAN()
	cfg.HostFingerprint = transport.Fingerprint(h.cfg.Server.HostKey().Public())
	tc, err := transport.DialCarrier(ctx, "rooms", cliEnd, cfg)
	if err != nil {
		select {
		case cerr := <-carried:
			carried <- cerr
			if cerr != nil {
				return nil, cerr
			}
		default:
		}
		return nil, err
	}
	a := &answer{accept: accept, got: make(chan wire.Message, 1)}
	for _, f := range frames {
		if err := tc.Send(f); err != nil {
			tc.Close()
			return nil, err
		}
	}
	runCtx, stop := context.WithCancel(ctx)
	ran := make(chan error, 1)
	go func() { ran <- tc.Run(runCtx, a) }()
	defer func() { stop(); <-ran }()
	select {
	case m := <-a.got:
		return m, nil
	case err := <-ran:
		ran <- err
		return nil, fmt.Errorf("the rooms hung up: %w", err)
	case <-ctx.Done():
		return nil, fmt.Errorf("the rooms did not answer: %w", ctx.Err())
	}
}

// answer is ask's transport handler.
type answer struct {
	accept func(wire.Message) bool
	got    chan wire.Message
	done   bool
}

func (a *answer) Message(f []byte) {
	if a.done {
		return
	}
	m, err := wire.Decode(f)
	if err == nil && a.accept(m) {
		a.done = true
		a.got <- m
	}
}

func (a *answer) Tick(time.Time) {}

// writeJSON answers v as JSON with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}

// jsonError answers {"error": text} with status.
func jsonError(w http.ResponseWriter, status int, text string) {
	writeJSON(w, status, map[string]string{"error": text})
}

// baseURL is the scheme and host the request came to, for the links it is
// answered with: https behind TLS (or a proxy that says so).
func baseURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https") {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// roomCode is the invite code of room id on this server; an unlisted
// room's carries its secret (wire.RoomCreated.Secret), without which the
// room cannot be joined.
func (h *Handler) roomCode(id uint32, secret uint64) (string, error) {
	c, err := invite.New(h.cfg.Addrs, transport.Fingerprint(h.cfg.Server.HostKey().Public()))
	if err != nil {
		return "", err
	}
	c.RoomID, c.Secret = id, secret
	return invite.Encode(c)
}
