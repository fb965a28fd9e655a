package transport

import (
	"testing"
	"time"
)

// TestPacerPacesOnlyUnderLoad: a server reader pauses after emptying its
// socket only while datagrams come faster than its threshold, so a quiet
// LAN game's datagrams are read the moment they arrive.
func TestPacerPacesOnlyUnderLoad(t *testing.T) {
	p := serverPacer
	now := time.Unix(1000, 0)
	// reads feeds reads of n datagrams every gap for span, and counts the
	// reads after which the reader would pause.
	reads := func(n int, gap, span time.Duration) (paused, total int) {
		for end := now.Add(span); now.Before(end); now = now.Add(gap) {
			total++
			if p.read(n, serverBatch, now) {
				paused++
			}
		}
		return
	}
	if paused, _ := reads(1, 10*time.Millisecond, time.Second); paused != 0 {
		t.Errorf("100 datagrams a second: paused after %d reads, want none", paused)
	}
	paused, total := reads(10, time.Millisecond, time.Second)
	if paused < total*8/10 {
		t.Errorf("10,000 datagrams a second: paused after %d of %d reads, want nearly all", paused, total)
	}
	// A full batch means more are waiting: no pause, whatever the rate.
	if p.read(serverBatch, serverBatch, now) {
		t.Error("paused after a read that filled its batch")
	}
	now = now.Add(time.Millisecond)
	// Back to quiet: pacing stops within a window or two.
	reads(1, 10*time.Millisecond, 2*paceWindow)
	if paused, _ := reads(1, 10*time.Millisecond, time.Second); paused != 0 {
		t.Errorf("quiet again: paused after %d reads, want none", paused)
	}
	// A reader idle for a long time does not count the gap as a window.
	now = now.Add(time.Minute)
	if p.read(1, serverBatch, now) {
		t.Error("paused after the first read following a minute of silence")
	}
	// A client's reader never pauses.
	var c pacer
	for i := range 1000 {
		if c.read(10, clientBatch, now.Add(time.Duration(i)*time.Millisecond)) {
			t.Fatal("a client's reader paused")
		}
	}
}
