package ui

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"rockstep/net/bots"
	"rockstep/net/replay"
)

// recorded is a bot game's replay, recorded once for the tests here.
var recorded struct {
	once sync.Once
	data []byte
	err  error
}

// testReplay returns the bytes of a replay of a three-bot game of 1500
// ticks (25 s).
func testReplay(t testing.TB) []byte {
	t.Helper()
	recorded.once.Do(func() {
		dir, err := os.MkdirTemp("", "rockstep-replay")
		if err != nil {
			recorded.err = err
			return
		}
		defer os.RemoveAll(dir)
		path := filepath.Join(dir, "game.rsrp")
		l, err := bots.NewLocal(bots.Config{Bots: 3, Ticks: 1500, Seed: 11, Fast: true, Record: path})
		if err != nil {
			recorded.err = err
			return
		}
		if _, err := l.Run(); err != nil {
			recorded.err = err
			return
		}
		recorded.data, recorded.err = os.ReadFile(path)
	})
	if recorded.err != nil {
		t.Fatal(recorded.err)
	}
	return recorded.data
}

// cutInsideARecord returns data cut at the first place from at on that is
// inside a record: a cut between two records reads as a game still being
// recorded, not as a damaged file.
func cutInsideARecord(data []byte, at int) []byte {
	for ; at < len(data); at++ {
		if _, err := replay.ReadHeader(bytesReader(data[:at])); err != nil {
			break
		}
	}
	return data[:at]
}

func testPlayer(t testing.TB) *replayPlayer {
	t.Helper()
	rp, err := replay.Read(bytesReader(testReplay(t)))
	if err != nil {
		t.Fatal(err)
	}
	p, err := newReplayPlayer(rp)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// straight returns the world's hash after ticks ticks played one by one
// from the start.
func straight(t testing.TB, ticks int) uint64 {
	p := testPlayer(t)
	for p.pos < ticks {
		p.step()
	}
	return p.world.Hash()
}

// TestSeekLandsOnTheSameWorld: seeking to a tick, forwards or backwards,
// from a kept world, gives exactly the world a straight re-simulation has
// at that tick.
func TestSeekLandsOnTheSameWorld(t *testing.T) {
	p := testPlayer(t)
	if p.length() < 1500 {
		t.Fatalf("replay of %d ticks, want at least 1500", p.length())
	}
	for _, tick := range []int{0, 1, 299, 300, 301, 777, 1200, 601, 5, p.length() - 1, p.length(), 42} {
		p.seek(tick)
		if p.pos != tick {
			t.Fatalf("seek(%d): at tick %d", tick, p.pos)
		}
		if got, want := p.world.Hash(), straight(t, tick); got != want {
			t.Errorf("seek(%d): hash %016x, straight re-simulation %016x", tick, got, want)
		}
	}
	// At a turn boundary the package's own re-simulation agrees too.
	p.seek(p.start[100])
	w, err := replay.WorldAt(p.rp, p.turns[99].Turn)
	if err != nil {
		t.Fatal(err)
	}
	if p.world.Hash() != w.Hash() {
		t.Errorf("seek to turn 100: hash %016x, replay.WorldAt %016x", p.world.Hash(), w.Hash())
	}
	if want := (p.length() + replaySnapEvery - 1) / replaySnapEvery; len(p.snaps) < want-1 || len(p.snaps) > want+1 {
		t.Errorf("%d worlds kept for %d ticks, want about one every %d ticks", len(p.snaps), p.length(), replaySnapEvery)
	}
}

// TestPlaybackSpeedAndPause: each update plays speed × one tick, half a
// tick at 0.5× (one tick every other update); none while paused; and
// playback stops at the end.
func TestPlaybackSpeedAndPause(t *testing.T) {
	tests := []struct {
		name   string
		speed  int
		paused bool
		want   int // ticks after 10 updates
	}{
		{"0.5x", 0, false, 5},
		{"1x", 1, false, 10},
		{"2x", 2, false, 20},
		{"4x", 3, false, 40},
		{"8x", 4, false, 80},
		{"paused", 4, true, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := testPlayer(t)
			p.setSpeed(tc.speed)
			p.paused = tc.paused
			for i := 0; i < 10; i++ {
				p.update()
			}
			if p.pos != tc.want {
				t.Errorf("after 10 updates at %s: tick %d, want %d", replaySpeedNames[tc.speed], p.pos, tc.want)
			}
			if got, want := p.world.Hash(), straight(t, tc.want); got != want {
				t.Errorf("hash %016x, straight re-simulation %016x", got, want)
			}
		})
	}
	p := testPlayer(t)
	p.setSpeed(len(replaySpeeds) + 3)
	if p.speed != len(replaySpeeds)-1 {
		t.Fatalf("setSpeed clamps to %d, want the fastest", p.speed)
	}
	for i := 0; i < p.length(); i++ {
		p.update()
	}
	if !p.done() || p.pos != p.length() || p.update() != 0 {
		t.Errorf("at the end: tick %d of %d, done %v", p.pos, p.length(), p.done())
	}
	if p.indexed() != p.length() {
		t.Errorf("indexer covered %d of %d ticks", p.indexed(), p.length())
	}
}

// TestDamagedReplayPlaysToItsLastGoodTurn: a file cut short reads in part
// and plays to the last turn it holds.
func TestDamagedReplayPlaysToItsLastGoodTurn(t *testing.T) {
	data := testReplay(t)
	rp, err := replay.Read(bytesReader(cutInsideARecord(data, len(data)*2/3)))
	if err == nil || rp == nil {
		t.Fatalf("cut file: replay %v, err %v; want a partial replay and an error", rp != nil, err)
	}
	p, err := newReplayPlayer(rp)
	if err != nil {
		t.Fatal(err)
	}
	for !p.done() {
		p.step()
	}
	w, err := replay.WorldAt(rp, rp.Turns[len(rp.Turns)-1].Turn)
	if err != nil {
		t.Fatal(err)
	}
	if p.world.Hash() != w.Hash() || p.currentTurn() != rp.Turns[len(rp.Turns)-1].Turn {
		t.Errorf("played to turn %d with hash %016x; the last good turn is %d with %016x", p.currentTurn(), p.world.Hash(), rp.Turns[len(rp.Turns)-1].Turn, w.Hash())
	}
}

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }
