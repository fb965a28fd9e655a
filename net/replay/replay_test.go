package replay_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"rockstep/game"
	"rockstep/net/bots"
	"rockstep/net/replay"
	"rockstep/net/room"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// record plays a local bot game into a replay file and returns the summary
// and the file's bytes.
func record(t testing.TB, cfg bots.Config) (bots.Summary, string, []byte) {
	t.Helper()
	cfg.Fast = true
	cfg.Record = filepath.Join(t.TempDir(), "game.rsrp")
	l, err := bots.NewLocal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s, err := l.Run()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(cfg.Record)
	if err != nil {
		t.Fatal(err)
	}
	return s, cfg.Record, data
}

// TestRecordThenVerify: the acceptance run, smaller: bots play with a
// recording room; re-simulating the replay gives the bots' final hash and
// results table, and matches every hash any player reported.
func TestRecordThenVerify(t *testing.T) {
	imp, _ := transport.ParseImpairment("latency=20ms,jitter=10ms,loss=3%")
	s, path, _ := record(t, bots.Config{Bots: 4, Ticks: 5000, Seed: 31, Net: imp})
	rp, err := replay.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if rp.Setup.Players != 0b1111 || rp.EndReason != replay.EndFinished || rp.EndTurn != s.Turn {
		t.Fatalf("replay header/end: players %b end %d at turn %d; bots ended at turn %d", rp.Setup.Players, rp.EndReason, rp.EndTurn, s.Turn)
	}
	res, err := replay.Verify(rp)
	if err != nil {
		t.Fatal(err)
	}
	if res.FinalHash != s.Hash || res.LastTurn != s.Turn {
		t.Errorf("replay ends at turn %d with hash %016x; the bots at turn %d with %016x", res.LastTurn, res.FinalHash, s.Turn, s.Hash)
	}
	if !res.Ended || res.Results.Digest() != s.Results || s.ResultGroups != 1 {
		t.Errorf("replay results %016x (ended %v); the bots showed %016x in %d groups", res.Results.Digest(), res.Ended, s.Results, s.ResultGroups)
	}
	names := rp.Names[:4]
	slices.Sort(names)
	if !slices.Equal(names, []string{"bot0", "bot1", "bot2", "bot3"}) {
		t.Errorf("replay names = %q, want the bots' names", rp.Names)
	}
	if !res.OK() || res.Checked < 4*int(s.Turn)*9/10 {
		t.Errorf("hashes: %d checked, %d mismatched; want about %d, none mismatched", res.Checked, len(res.Mismatches), 4*s.Turn)
	}
	for _, tr := range rp.Turns[:50] {
		if tr.Log.Live != 0b1111 {
			t.Fatalf("turn %d: live mask %b, want every bot sending", tr.Turn, tr.Log.Live)
		}
	}
}

// TestTruncatedAnywhere: a replay cut at any byte reads without panic,
// says it was cut, and what it holds still verifies.
func TestTruncatedAnywhere(t *testing.T) {
	_, _, data := record(t, bots.Config{Bots: 2, Ticks: 600, Seed: 5})
	for n := 0; n < len(data); n += 1 + n/50 {
		rp, err := replay.Read(bytes.NewReader(data[:n]))
		if n < 5 {
			if !errors.Is(err, replay.ErrNotReplay) {
				t.Fatalf("cut at %d: %v, want ErrNotReplay", n, err)
			}
			continue
		}
		if rp == nil {
			t.Fatalf("cut at %d: no partial replay (%v)", n, err)
		}
		if rp.Setup.Validate() != nil {
			continue // cut inside the start record
		}
		res, verr := replay.Verify(rp)
		if verr != nil || !res.OK() {
			t.Fatalf("cut at %d: the partial replay does not verify: %v %+v", n, verr, res.Mismatches)
		}
	}
	if _, err := replay.Read(bytes.NewReader(data[:len(data)-3])); !errors.Is(err, replay.ErrTruncated) {
		t.Errorf("cut inside the last record: %v, want ErrTruncated", err)
	}
}

// TestCorruptionIsCaught: flipped bytes are caught by the record checksums
// (or make a record invalid): an error, never a panic, and never a replay
// that silently plays something else.
func TestCorruptionIsCaught(t *testing.T) {
	_, _, data := record(t, bots.Config{Bots: 2, Ticks: 600, Seed: 6})
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 300; i++ {
		bad := append([]byte(nil), data...)
		at := 5 + r.IntN(len(bad)-5)
		bad[at] ^= byte(1 + r.IntN(255))
		rp, err := replay.Read(bytes.NewReader(bad))
		if err == nil {
			t.Fatalf("flipping byte %d went unnoticed", at)
		}
		if rp != nil && rp.Setup.Validate() == nil {
			if res, verr := replay.Verify(rp); verr == nil && !res.OK() {
				t.Fatalf("flipping byte %d: the good part does not verify", at)
			}
		}
	}
}

func TestNotAReplay(t *testing.T) {
	for _, in := range [][]byte{nil, []byte("RSW\x01"), []byte("RSRP\x09"), []byte("hello world")} {
		if _, err := replay.Read(bytes.NewReader(in)); err == nil {
			t.Errorf("%q read as a replay", in)
		}
	}
}

// TestDesyncReportNamesTheField: one client's world is corrupted; the
// report written from the replay names that player and the field.
func TestDesyncReportNamesTheField(t *testing.T) {
	cfg := bots.Config{Bots: 3, Ticks: 3000, Seed: 8, Fast: true, NoRepair: true} // a desync that stops the game
	cfg.Record = filepath.Join(t.TempDir(), "desync.rsrp")
	l, err := bots.NewLocal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	l.Bots[1].CorruptAfterTurn = 400 // Ships[0].Score += 1 in that client's world
	if _, err := l.Run(); err != nil {
		t.Fatal(err)
	}
	rp, err := replay.ReadFile(cfg.Record)
	if err != nil {
		t.Fatal(err)
	}
	if rp.Desync == nil || rp.Desync.Turn != 401 || rp.EndReason != replay.EndDesync {
		t.Fatalf("desync record %+v end %d", rp.Desync, rp.EndReason)
	}
	if len(rp.Snapshots) < 3 {
		t.Fatalf("%d snapshots in the report, want one from each player", len(rp.Snapshots))
	}
	report := replay.Report(rp)
	culprit := l.Bots[1].Session.Slot()
	want := "slot " + string(rune('0'+culprit)) + " DIVERGED at turn 401: first difference (player vs re-simulation): Ships[0].Score: "
	if !strings.Contains(report, want) {
		t.Fatalf("report does not name the field:\n%s\nwant a line containing %q", report, want)
	}
	if strings.Count(report, "agrees with the re-simulation") != 2 {
		t.Errorf("want the two healthy players named as agreeing:\n%s", report)
	}
}

func TestFirstDifference(t *testing.T) {
	a := game.StandardScene(1)
	b := *a
	if d := replay.FirstDifference(a, &b); d != "" {
		t.Fatalf("equal worlds differ: %s", d)
	}
	b.Rocks[7].Spin++
	if d := replay.FirstDifference(a, &b); !strings.HasPrefix(d, "Rocks[7].Spin: ") {
		t.Errorf("got %q, want Rocks[7].Spin", d)
	}
	c := *a
	c.NumEvents = 5 // events are not state
	c.Bullets[100].Life = 9
	if d := replay.FirstDifference(a, &c); d != "" {
		t.Errorf("events or dead bullets counted as a difference: %s", d)
	}
}

// TestHeaderSkimsTheFile: the header a replay list shows agrees with the
// full read, and a file cut short still gives its start.
func TestHeaderSkimsTheFile(t *testing.T) {
	_, path, data := record(t, bots.Config{Bots: 2, Ticks: 600, Seed: 5})
	rp, err := replay.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	h, err := replay.ReadHeaderFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if h.Setup != rp.Setup || h.RoomName != rp.RoomName || !h.Started.Equal(rp.Started) || h.Turns != len(rp.Turns) || h.EndTurn != rp.EndTurn || h.EndReason != rp.EndReason || h.Desync {
		t.Errorf("header %+v, want it to agree with the replay (%d turns, end %d at %d)", h, len(rp.Turns), rp.EndReason, rp.EndTurn)
	}
	ticks := 0
	for _, turn := range rp.Turns {
		ticks += int(turn.Count)
	}
	if h.Ticks() != ticks || ticks < 600 {
		t.Errorf("header counts %d ticks, want the %d (at least 600) the turns hold", h.Ticks(), ticks)
	}
	cut, err := replay.ReadHeader(bytes.NewReader(data[:len(data)/2]))
	if !errors.Is(err, replay.ErrTruncated) || cut.Setup != rp.Setup || cut.Turns == 0 || cut.Turns >= h.Turns {
		t.Errorf("half a file: %d turns, err %v; want the start, some turns and ErrTruncated", cut.Turns, err)
	}
	if _, err := replay.ReadHeader(strings.NewReader("hello")); !errors.Is(err, replay.ErrNotReplay) {
		t.Errorf("not a replay: err %v", err)
	}
}

// TestHeaderCountsTicksWhereKChanges: a game whose ticks per turn change
// (the room adapts K) is as long as its turns' ticks, not turns × the K it
// started with.
func TestHeaderCountsTicksWhereKChanges(t *testing.T) {
	var buf bytes.Buffer
	w := replay.NewWriter(&buf, 0)
	setup := game.Setup{Seed: 3, Players: 0b11, Mode: game.Coop, Lives: 3, StartWave: 1}
	w.Started(setup, "room", [game.MaxPlayers]string{"Ada", "Bo"}, 1, 1)
	want := 0
	for turn := uint32(0); turn < 30; turn++ {
		count := uint8(1) // K 1 for ten turns, then 3, then 2
		switch {
		case turn >= 20:
			count = 2
		case turn >= 10:
			count = 3
		}
		want += int(count)
		w.Turn(&wire.MasterTurn{Turn: turn, Count: count, Players: 0b11}, room.TurnLog{Live: 0b11})
	}
	w.Finished(29, replay.EndFinished)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	h, err := replay.ReadHeader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if h.Turns != 30 || h.Ticks() != want {
		t.Errorf("header: %d turns, %d ticks; want 30 turns, %d ticks", h.Turns, h.Ticks(), want)
	}
}
