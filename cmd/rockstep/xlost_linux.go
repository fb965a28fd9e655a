//go:build !noui

package main

import (
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/ebitengine/purego"
)

// closeOnDisplayLost makes a lost X server close the game as SIGTERM
// does (issue 52, "a display that goes away does not leave a zombie
// host"). Xlib's default I/O error handler, called when the connection
// to the X server breaks (a crashed or logged-out desktop), prints "X
// connection to :0 broken" and calls exit(3) at once: no Leave reaches
// the room, no hand-over, and the router keeps the Host's port mapping
// for its hour's lease (TestHostWindowLabSIGTERMWithoutDisplay found it).
// The handler installed here sends the process SIGTERM instead and keeps
// Xlib's thread (the window's render thread) in it, for Xlib ends the
// process if the handler returns; runWindow's SIGTERM path then closes
// the game and ends the process within 3 s without that thread.
//
// Without libX11 (a Wayland session without it) it does nothing. It
// loads the same libX11 as Ebiten (purego.Dlopen of the same soname), and
// the handler is Xlib's one for every display.
func closeOnDisplayLost() {
	lib, err := purego.Dlopen("libX11.so.6", purego.RTLD_LAZY|purego.RTLD_GLOBAL)
	if err != nil {
		return
	}
	sym, err := purego.Dlsym(lib, "XSetIOErrorHandler")
	if err != nil {
		return
	}
	var setIOErrorHandler func(handler uintptr) uintptr
	purego.RegisterFunc(&setIOErrorHandler, sym)
	setIOErrorHandler(purego.NewCallback(func(display uintptr) uintptr {
		fmt.Fprintln(os.Stderr, "rockstep: the connection to the X server was lost: closing the game")
		_ = syscall.Kill(os.Getpid(), syscall.SIGTERM)
		for {
			time.Sleep(time.Hour) // never back into Xlib, which would exit
		}
	}))
}
