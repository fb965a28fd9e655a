package web

import (
	"bytes"
	"compress/gzip"
	"embed"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// Game is the game's WebAssembly build as the page loads it.
type Game struct {
	WasmGzip []byte // the build, gzip-compressed (as `make` stores it)
	Size     int64  // its size uncompressed, bytes: the loading bar's whole
	Exec     []byte // the Go distribution's wasm_exec.js, of the Go that built it
}

//go:embed page/index.html
var indexHTML []byte

//go:embed all:dist
var dist embed.FS

// Embedded returns the build `make` embedded in this executable, or nil
// when it was built without one (`go build`, `go run`).
func Embedded() *Game {
	gz, err := dist.ReadFile("dist/rockstep.wasm.gz")
	if err != nil {
		return nil
	}
	exec, err := dist.ReadFile("dist/wasm_exec.js")
	if err != nil {
		return nil
	}
	g := &Game{WasmGzip: gz, Exec: exec}
	if zr, err := gzip.NewReader(bytes.NewReader(gz)); err == nil {
		g.Size, _ = io.Copy(io.Discard, zr)
	}
	return g
}

// noGame is what the page says when the executable has no game build.
const noGame = "This server was built without the game for browsers.\n" +
	"Build it with `make` (which builds the WebAssembly game and embeds it), then start\n" +
	"`rockstep -server -web ADDR` again. Desktop players can still join with the\n" +
	"invite code in the link."

// page serves the page: at / the main menu, at /join/CODE the game joining
// that room (the page passes the code on as -join).
func (h *Handler) page(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write(indexHTML)
}

func (h *Handler) wasmExec(w http.ResponseWriter, r *http.Request) {
	if h.cfg.Game == nil {
		// The page still loads, and says what is missing once it asks
		// for the game.
		w.Header().Set("Content-Type", "text/javascript")
		io.WriteString(w, "class Go { constructor() { this.importObject = {}; } }\n")
		return
	}
	w.Header().Set("Content-Type", "text/javascript")
	_, _ = w.Write(h.cfg.Game.Exec)
}

// wasm serves the build: compressed to a browser that takes gzip (every
// current one), with its uncompressed size in X-Wasm-Size for the bar.
func (h *Handler) wasm(w http.ResponseWriter, r *http.Request) {
	g := h.cfg.Game
	if g == nil {
		http.Error(w, noGame, http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/wasm")
	w.Header().Set("X-Wasm-Size", strconv.FormatInt(g.Size, 10))
	w.Header().Set("Vary", "Accept-Encoding")
	if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Length", strconv.Itoa(len(g.WasmGzip)))
		_, _ = w.Write(g.WasmGzip)
		return
	}
	zr, err := gzip.NewReader(bytes.NewReader(g.WasmGzip))
	if err != nil {
		http.Error(w, "the embedded game is damaged: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Length", strconv.FormatInt(g.Size, 10))
	_, _ = io.Copy(w, zr)
}
