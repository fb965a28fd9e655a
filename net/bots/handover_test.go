package bots_test

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"rockstep/net/bots"
	"rockstep/net/lockstep"
	"rockstep/net/replay"
	"rockstep/net/transport"
)

// Host migration on the simulated network, with prediction on: 4 players,
// the host's machine dies (or the host leaves by choice, or the host and
// the first successor die together, of 5 players) at a random turn. The
// others must be playing the new room's turns within 2 s of the silence
// being noticed (300 ms of a host's word), end on one hash and one results
// table, and the successor's replay must verify from turn 0 to the end.
// Of 4 players, the host and the first successor dying together leave a
// tie, two of four, which is no majority: the survivors wait for the
// others' countdown (room.LAN's 30 s) before they play on ("tie").
func TestHandoverSimulated(t *testing.T) {
	nets := []struct {
		name string
		imp  transport.Impairment
	}{
		{"clean", transport.Impairment{}},
		{"50ms", transport.Impairment{Latency: 50 * time.Millisecond}},
		{"loss10", transport.Impairment{Loss: 0.10}},
	}
	modes := []string{"crash", "leave", "crash-successor", "tie"}
	for ni, n := range nets {
		for mi, mode := range modes {
			t.Run(n.name+"/"+mode, func(t *testing.T) {
				t.Parallel()
				seed := uint64(100 + ni*10 + mi)
				handoverGame(t, n.imp, mode, seed)
			})
		}
	}
}

func handoverGame(t *testing.T, imp transport.Impairment, mode string, seed uint64) {
	rec := filepath.Join(t.TempDir(), "game.rsrp")
	players := 4
	if mode == "crash-successor" {
		players = 5 // three of five are left: a majority
	}
	l, err := bots.NewLocal(bots.Config{Bots: players, Ticks: 1500, Seed: seed, Net: imp, Fast: true, Predict: true, Handover: true, Record: rec})
	if err != nil {
		t.Fatal(err)
	}
	killTurn := uint32(150 + rand.New(rand.NewPCG(seed, 7)).IntN(300))
	host := l.HostBot()
	err = l.RunUntil(func() bool {
		turn, _ := l.Bots[host].Session.ExecutedTurns()
		return l.Bots[host].Session.Phase() == lockstep.Playing && turn >= killTurn
	}, 2*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(l.Room.Successors().List); got != players-1 {
		t.Fatalf("successors before the handover: %d, want the %d other players: %+v", got, players-1, l.Room.Successors())
	}
	// The game is listed on the LAN: its id goes to the players, and the
	// successor's room keeps it (host.NewResumed lists the game under it).
	listing := [8]byte{0xab, byte(seed), 3, 4, 5, 6, 7, 8}
	l.Room.SetListing(listing)
	err = l.RunUntil(func() bool {
		for _, b := range l.Bots {
			if b.Session.Successors().Listing != listing {
				return false
			}
		}
		return true
	}, time.Minute)
	if err != nil {
		t.Fatalf("the listing id never reached every player: %v", err)
	}
	var detect time.Duration
	switch mode {
	case "crash":
		l.KillHost()
		detect = l.Now() + 3*time.Second
	case "crash-successor", "tie":
		first := l.Room.Successors().List[0].Slot
		l.KillHost()
		for _, b := range l.Bots {
			if b.Session.Slot() == int(first) {
				l.KillBot(b.Index)
			}
		}
		detect = l.Now() + 3*time.Second
	case "leave":
		l.HostLeaves()
		detect = l.Now()
	}
	if _, err := l.Run(); err != nil {
		t.Fatal(err)
	}
	hs := l.Handovers()
	if len(hs) != 1 {
		t.Fatalf("handovers: %d, want 1", len(hs))
	}
	ho := hs[0]
	if got := l.Room.Listing(); got != listing {
		t.Errorf("the successor's room lists the game as %x, want %x", got, listing)
	}
	if ho.Resumed == 0 {
		t.Fatalf("the survivors never played the new room's turns: %+v", ho)
	}
	limit := 2 * time.Second
	switch mode {
	case "leave":
		limit = 300 * time.Millisecond
	case "tie":
		limit = 30*time.Second + 2*time.Second // the countdown, then the move's own time
		if took := ho.Resumed - detect; took < 25*time.Second {
			t.Errorf("tie: two of four played on %v after the silence was noticed, want them to wait for the others' countdown", took)
		}
	}
	if took := ho.Resumed - detect; took > limit {
		t.Errorf("%s: survivors resumed %v after the host's silence was noticed (or its word), want ≤ %v", mode, took, limit)
	}
	t.Logf("%s: handed over to bot %d at turn %d, resumed %v after detection", mode, ho.Host, ho.Turn, ho.Resumed-detect)
	var hash, results uint64
	survivors := 0
	for _, b := range l.Bots {
		if b.Gone {
			continue
		}
		survivors++
		if !b.Final.OK {
			t.Fatalf("bot %d never reached the end (%s)", b.Index, b.Session.Phase())
		}
		if survivors == 1 {
			hash, results = b.Final.Hash, b.Final.Results
			continue
		}
		if b.Final.Hash != hash || b.Final.Results != results {
			t.Errorf("bot %d ended on hash %x results %x; bot before: %x %x", b.Index, b.Final.Hash, b.Final.Results, hash, results)
		}
	}
	want := players - 1
	if mode == "crash-successor" || mode == "tie" {
		want = players - 2
	}
	if survivors != want {
		t.Fatalf("survivors %d, want %d", survivors, want)
	}
	rp, err := replay.ReadFile(l.ReplayPath(2))
	if err != nil {
		t.Fatalf("the successor's replay: %v", err)
	}
	res, err := replay.Verify(rp)
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK() || !res.Ended || res.Checked == 0 {
		t.Fatalf("the successor's replay does not verify: ok=%v ended=%v checked=%d mismatches=%v", res.OK(), res.Ended, res.Checked, res.Mismatches)
	}
	if got := res.Results.Digest(); got != results {
		t.Errorf("the replay's results %x, the players' %x", got, results)
	}
	after := 0
	for turn, hs := range rp.Hashes {
		if turn >= ho.Turn {
			after += len(hs)
		}
	}
	if after == 0 {
		t.Errorf("the replay holds no hash reported after the handover")
	}
	if len(rp.Turns) == 0 || rp.Turns[0].Turn != 0 {
		t.Errorf("the successor's replay does not start at turn 0")
	}
	if fmt.Sprint(rp.Notes) == "[]" {
		t.Errorf("the replay does not note the handover")
	}
}

// TestSuccessionEveryOrderOfFailure: 4 players, the host's machine among
// them, crash one after another in every one of the 24 orders, a few
// seconds apart, until one is left. After every crash of whoever hosts,
// the survivors elect one successor (never two rooms), and the last player
// standing finishes the game, its replay verifying from turn 0.
func TestSuccessionEveryOrderOfFailure(t *testing.T) {
	perms := permutations([]int{0, 1, 2, 3})
	for pi, order := range perms {
		t.Run(fmt.Sprint(order), func(t *testing.T) {
			t.Parallel()
			rec := filepath.Join(t.TempDir(), "game.rsrp")
			l, err := bots.NewLocal(bots.Config{Bots: 4, Ticks: 2400, Seed: uint64(500 + pi), Fast: true, Predict: true, Handover: true, Record: rec})
			if err != nil {
				t.Fatal(err)
			}
			playing := func() bool {
				for _, b := range l.Bots {
					if !b.Gone && b.Session.Phase() != lockstep.Playing {
						return false
					}
				}
				return true
			}
			if err := l.RunUntil(func() bool { turn, _ := l.Bots[0].Session.ExecutedTurns(); return playing() && turn > 100 }, time.Minute); err != nil {
				t.Fatal(err)
			}
			hostKills := 0
			for _, victim := range order[:3] {
				if victim == l.HostBot() {
					hostKills++
				}
				l.KillBot(victim)
				until := l.Now() + 5*time.Second
				if err := l.RunUntil(func() bool { return l.Now() >= until }, time.Hour); err != nil {
					t.Fatal(err)
				}
				if got := len(l.Handovers()); got != hostKills {
					t.Fatalf("after %v died: %d handovers, want %d", victim, got, hostKills)
				}
				if !playing() {
					t.Fatalf("after %v died the survivors are not all playing", victim)
				}
			}
			if _, err := l.Run(); err != nil {
				t.Fatal(err)
			}
			if l.Splits() != 0 {
				t.Fatalf("%d survivors elected another successor", l.Splits())
			}
			last := l.Bots[order[3]]
			if !last.Final.OK {
				t.Fatalf("the last player never finished")
			}
			path := rec
			if n := len(l.Handovers()); n > 0 {
				path = l.ReplayPath(n + 1)
			}
			rp, err := replay.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			res, err := replay.Verify(rp)
			if err != nil {
				t.Fatal(err)
			}
			if !res.OK() || !res.Ended || rp.Turns[0].Turn != 0 || res.Results.Digest() != last.Final.Results {
				t.Fatalf("the last room's replay: ok=%v ended=%v first turn %d", res.OK(), res.Ended, rp.Turns[0].Turn)
			}
		})
	}
}

func permutations(xs []int) [][]int {
	if len(xs) <= 1 {
		return [][]int{append([]int(nil), xs...)}
	}
	var out [][]int
	for i := range xs {
		rest := append(append([]int(nil), xs[:i]...), xs[i+1:]...)
		for _, p := range permutations(rest) {
			out = append(out, append([]int{xs[i]}, p...))
		}
	}
	return out
}

// TestCrashedHostComesBack: the host's machine crashes, the game goes on in
// a successor's room, and the host's player comes back there with the
// token of its slot (what its Rejoin does): it plays on in its own slot,
// and everyone, the host among them, ends on one world and one results
// table.
func TestCrashedHostComesBack(t *testing.T) {
	l, err := bots.NewLocal(bots.Config{Bots: 3, Ticks: 1500, Seed: 31, Fast: true, Predict: true, Handover: true})
	if err != nil {
		t.Fatal(err)
	}
	host := l.HostBot()
	err = l.RunUntil(func() bool {
		turn, _ := l.Bots[host].Session.ExecutedTurns()
		return turn >= 200 && len(l.Room.Successors().List) == 2
	}, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	slot := l.Bots[host].Session.Slot()
	l.KillHost()
	err = l.RunUntil(func() bool { hs := l.Handovers(); return len(hs) == 1 && hs[0].Resumed != 0 }, l.Now()+time.Minute)
	if err != nil {
		t.Fatalf("no handover: %v", err)
	}
	back := l.Return(host)
	err = l.RunUntil(func() bool {
		turn, _ := back.Session.ExecutedTurns()
		return back.Session.Phase() == lockstep.Playing && turn > l.Handovers()[0].Turn
	}, l.Now()+time.Minute)
	if err != nil {
		t.Fatalf("the host's player never played again: %v", err)
	}
	if got := back.Session.Slot(); got != slot {
		t.Fatalf("the host's player came back in slot %d, want its own %d", got, slot)
	}
	if _, err := l.Run(); err != nil {
		t.Fatal(err)
	}
	for _, b := range l.Bots {
		if b.Gone || !b.Final.OK {
			t.Fatalf("bot %d: gone %v, reached the end %v (%s)", b.Index, b.Gone, b.Final.OK, b.Session.Phase())
		}
		if f := l.Bots[0].Final; b.Final.Hash != f.Hash || b.Final.Results != f.Results {
			t.Errorf("bot %d ended on hash %x results %x; bot 0 on %x %x", b.Index, b.Final.Hash, b.Final.Results, f.Hash, f.Results)
		}
	}
}
