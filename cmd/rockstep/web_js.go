//go:build js

package main

import (
	"errors"
	"flag"
	"log/slog"

	"rockstep/net/host"
	"rockstep/net/transport"
)

// webOptions: a browser tab serves no web face.
type webOptions struct{ addr string }

func webFlags(*flag.FlagSet, *webOptions) {}

func serveWeb(webOptions, *transport.Server, *host.Host, *slog.Logger) (func(), error) {
	return nil, errors.New("no web face in a browser")
}
