package bots_test

import (
	"testing"

	"rockstep/net/bots"
	"rockstep/net/transport"
)

func TestSmoke(t *testing.T) {
	for _, spec := range []string{"", "latency=50ms,jitter=25ms,loss=5%", "latency=250ms,jitter=250ms,loss=25%,dup=25%,reorder=10%"} {
		imp, err := transport.ParseImpairment(spec)
		if err != nil {
			t.Fatal(err)
		}
		l, err := bots.NewLocal(bots.Config{Bots: 8, Ticks: 10000, Seed: 1, Fast: true, Net: imp})
		if err != nil {
			t.Fatal(err)
		}
		s, err := l.Run()
		t.Log(s)
		if err != nil {
			t.Fatal(err)
		}
	}
}
