package room

import (
	"math/bits"
	"time"

	"rockstep/game"
)

// What the room does when the hashes of a turn differ (docs/ARCHITECTURE.md
// §1, "Desync repair"): a strict majority of the voters agreeing outvotes
// the others, who have strayed and are repaired from a checked world while
// the game goes on; with no majority every player rewinds to the last turn
// all hashes agreed on. These are the limits of
// that, in one place.
const (
	// maxRepairs is how many times one player may be repaired within
	// repairWindow; straying once more sends it away (wire.LeaveStrayed):
	// a world that keeps disagreeing is another build or a faulty machine,
	// and repairing it for ever would cost the others a snapshot each time.
	maxRepairs   = 3
	repairWindow = 5 * time.Minute
	// repairAsk is how long the room waits for a majority player's world
	// before asking another one (and for a repaired player's answer before
	// sending the world again).
	repairAsk = time.Second
	// rewindAgain: hashes that split again within this long of a rewind
	// stop the game (desynced): nobody's world can be shown right (a
	// faulty or modified computer, or an engine that is not deterministic
	// here: each player's own re-simulation tells which), and rewinding
	// again would only repeat it.
	rewindAgain = repairWindow
	// maxLies is how many times a player's world may fail to back its
	// own reports within repairWindow: the second sends it away. One
	// could be a fault between computing a world and sending it; a
	// world forged to collide with the agreed one sends it away at once.
	maxLies = 2
)

// verdict is what the hashes reported for one turn say.
type verdict struct {
	// majority: a strict majority of the voters reported hash; strayed
	// are the live slots that reported another.
	majority bool
	hash     uint32
	strayed  uint8
	// split: every voter reported, the hashes differ, and no strict
	// majority agrees (two players, or an even split).
	split bool
}

// judge groups the hashes reported for one turn: reported has a bit for
// each slot whose hashes[slot] is in, voters the slots whose vote counts,
// live the slots that can stray (a voter, or a live player whose reports
// decide nothing: one caught lying). A report from any other slot is not
// counted. A turn whose reports differ but where no hash has a strict
// majority of the voters yet, and not every voter has reported, is
// undecided: the zero verdict.
func judge(reported uint8, hashes *[game.MaxPlayers]uint32, voters, live uint8) verdict {
	in := reported & voters
	need := bits.OnesCount8(voters)
	var best uint32
	bestN, groups := 0, 0
	for i := 0; i < game.MaxPlayers; i++ {
		if in&(1<<i) == 0 {
			continue
		}
		h, n, first := hashes[i], 0, true
		for j := 0; j < game.MaxPlayers; j++ {
			if in&(1<<j) != 0 && hashes[j] == h {
				n++
				if j < i {
					first = false // counted with slot j's group
				}
			}
		}
		if !first {
			continue
		}
		groups++
		if n > bestN {
			best, bestN = h, n
		}
	}
	var v verdict
	switch {
	case need > 0 && 2*bestN > need:
		v.majority, v.hash = true, best
		for i := 0; i < game.MaxPlayers; i++ {
			if reported&(live|voters)&(1<<i) != 0 && hashes[i] != best {
				v.strayed |= 1 << i
			}
		}
	case groups > 1 && in == voters:
		v.split = true
	}
	return v
}

// timesWithin counts the times in times (zero: none) within repairWindow
// before now.
func timesWithin(times []time.Duration, now time.Duration) int {
	n := 0
	for _, t := range times {
		if t != 0 && now-t < repairWindow {
			n++
		}
	}
	return n
}

// noteTime records now among the last len(times) times.
func noteTime(times []time.Duration, now time.Duration) {
	oldest := 0
	for i := range times {
		if times[i] < times[oldest] {
			oldest = i
		}
	}
	times[oldest] = max(now, 1) // 0 means none
}
