package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"rockstep/net/lan"
)

// runBrowse prints the LAN games found within timeout, one per line.
func runBrowse(timeout time.Duration, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	counted := &countingWriter{w: stdout}
	if err := lan.PrintGames(ctx, counted, timeout); err != nil && ctx.Err() == nil {
		fmt.Fprintf(stderr, "rockstep: browse: %v\n", err)
		return 1
	}
	if counted.lines == 0 {
		fmt.Fprintf(stderr, "rockstep: no games found on the LAN in %v\n", timeout)
	}
	return 0
}

type countingWriter struct {
	w     io.Writer
	lines int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	for _, b := range p {
		if b == '\n' {
			c.lines++
		}
	}
	return c.w.Write(p)
}
