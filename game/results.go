package game

// Results is the table of a game as it ended: every player who took part,
// in the order a results screen lists them (in versus the winner first,
// then by score, then by slot). It is read from the confirmed world at the
// turn the game ended, so every machine, spectator and replay computes the
// same table; Digest condenses it for comparison.
type Results struct {
	Tick   uint32 // the world's tick when the game ended
	Mode   Mode
	Over   bool // the game reached game over (false: it was ended early)
	Winner int8 // in versus, the winning slot; -1 if none
	Wave   uint8
	N      int // lines in use
	Lines  [MaxPlayers]Standing
}

// Standing is one player's line of the results.
type Standing struct {
	Slot   int8
	Name   string // as the game's players were named at the start
	Score  uint32
	Lives  uint8 // lives left, including the ship on the field
	Kills  uint16
	Deaths uint16
	Left   bool // the player quit or was dropped before the end
	Winner bool
}

// Results returns the table of w's game, naming slot i names[i] (an empty
// name is left empty: the caller decides how to show it).
func (w *World) Results(names [MaxPlayers]string) Results {
	r := Results{Tick: w.Tick, Mode: w.Setup.Mode, Over: w.Over, Winner: -1, Wave: w.Wave}
	if w.Setup.Mode == Versus && w.Over {
		r.Winner = w.Winner
	}
	for i := range w.Ships {
		if w.Setup.Players&(1<<i) == 0 {
			continue
		}
		sh := &w.Ships[i]
		st := Standing{
			Slot: int8(i), Name: names[i], Score: sh.Score, Lives: sh.Lives,
			Kills: sh.Kills, Deaths: sh.Deaths, Left: !sh.Present,
			Winner: r.Winner == int8(i),
		}
		// Insertion keeps the order stable and allocates nothing.
		j := r.N
		for j > 0 && st.before(&r.Lines[j-1]) {
			r.Lines[j] = r.Lines[j-1]
			j--
		}
		r.Lines[j] = st
		r.N++
	}
	return r
}

// before reports whether a is listed above b.
func (a *Standing) before(b *Standing) bool {
	switch {
	case a.Winner != b.Winner:
		return a.Winner
	case a.Score != b.Score:
		return a.Score > b.Score
	}
	return a.Slot < b.Slot
}

// Table returns the lines in use.
func (r *Results) Table() []Standing { return r.Lines[:r.N] }

// Digest is a 64-bit FNV-1a digest of the whole table, names included:
// machines that show the same results have the same digest.
func (r *Results) Digest() uint64 {
	h := uint64(14695981039346656037)
	mix := func(v uint64, n int) {
		for i := 0; i < n; i++ {
			h ^= v & 0xff
			h *= 1099511628211
			v >>= 8
		}
	}
	mix(uint64(r.Tick), 4)
	mix(uint64(r.Mode), 1)
	mix(boolBit(r.Over), 1)
	mix(uint64(uint8(r.Winner)), 1)
	mix(uint64(r.Wave), 1)
	mix(uint64(r.N), 1)
	for _, l := range r.Table() {
		mix(uint64(uint8(l.Slot)), 1)
		mix(uint64(len(l.Name)), 1)
		for i := 0; i < len(l.Name); i++ {
			mix(uint64(l.Name[i]), 1)
		}
		mix(uint64(l.Score), 4)
		mix(uint64(l.Lives), 1)
		mix(uint64(l.Kills), 2)
		mix(uint64(l.Deaths), 2)
		mix(boolBit(l.Left), 1)
		mix(boolBit(l.Winner), 1)
	}
	return h
}

func boolBit(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
