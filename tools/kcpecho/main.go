// Command kcpecho is the baseline of Rockstep's load test: a plain kcp-go
// echo carrying the same packet flow as a Rockstep server with its bots
// (one small packet per client per turn up, one per turn down), so that
// the ratio of their costs says what the room itself costs. It is a
// measuring tool, not part of the game.
//
//	kcpecho -server -listen 127.0.0.1:7780
//	kcpecho -clients 1000 -connect 127.0.0.1:7780 -duration 60s
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/xtaci/kcp-go/v5"
)

// The flow of a Rockstep client: -hz turns a second (30 at two ticks a
// turn, 60 at one); a client packet of about 15 bytes up, a master packet
// of about 40 bytes for a 4-player room down.
const (
	upSize   = 15 // bytes
	downSize = 40 // bytes
)

func tune(s *kcp.UDPSession) {
	s.SetNoDelay(1, 10, 2, 1) // as transport.LAN(): nodelay, 10 ms, fast resend 2, no congestion control
	s.SetWindowSize(128, 128) // packets
	s.SetMtu(1200)            // bytes
	s.SetStreamMode(false)
}

func main() {
	server := flag.Bool("server", false, "run the echo server")
	listen := flag.String("listen", "127.0.0.1:7780", "server: UDP `ADDR`")
	connect := flag.String("connect", "127.0.0.1:7780", "clients: server `ADDR`")
	clients := flag.Int("clients", 1000, "clients: how many")
	duration := flag.Duration("duration", time.Minute, "clients: how long")
	hz := flag.Int("hz", 30, "clients: packets a second each way, as turns a second in the game")
	flag.Parse()
	if *server {
		serve(*listen)
		return
	}
	if *hz < 1 || *hz > 1000 {
		log.Fatalf("-hz %d: want 1..1000", *hz)
	}
	run(*connect, *clients, *duration, time.Second/time.Duration(*hz))
}

func serve(addr string) {
	l, err := kcp.ListenWithOptions(addr, nil, 0, 0)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Fprintln(os.Stderr, "listening", l.Addr())
	for {
		s, err := l.AcceptKCP()
		if err != nil {
			log.Fatal(err)
		}
		tune(s)
		go func() {
			defer s.Close()
			in := make([]byte, 2048)
			out := make([]byte, downSize)
			for {
				if _, err := s.Read(in); err != nil {
					return
				}
				if _, err := s.Write(out); err != nil {
					return
				}
			}
		}()
	}
}

func run(addr string, n int, d, turn time.Duration) {
	var sent, recv, bytesIn atomic.Uint64
	var wg sync.WaitGroup
	stop := time.Now().Add(d)
	for i := 0; i < n; i++ {
		s, err := kcp.DialWithOptions(addr, nil, 0, 0)
		if err != nil {
			log.Fatal(err)
		}
		tune(s)
		wg.Add(2)
		go func() {
			defer wg.Done()
			buf := make([]byte, 2048)
			for {
				_ = s.SetReadDeadline(stop.Add(time.Second))
				k, err := s.Read(buf)
				if err != nil {
					return
				}
				recv.Add(1)
				bytesIn.Add(uint64(k))
			}
		}()
		go func() {
			defer wg.Done()
			defer s.Close()
			t := time.NewTicker(turn)
			defer t.Stop()
			up := make([]byte, upSize)
			for now := range t.C {
				if now.After(stop) {
					return
				}
				if _, err := s.Write(up); err != nil {
					return
				}
				sent.Add(1)
			}
		}()
	}
	wg.Wait()
	secs := d.Seconds()
	fmt.Printf("clients=%d packets_up=%d packets_down=%d down_bytes_per_s_per_client=%.0f\n",
		n, sent.Load(), recv.Load(), float64(bytesIn.Load())/secs/float64(n))
}
