package ui

import (
	"errors"
	"sort"

	"rockstep/game"
	"rockstep/net/replay"
)

// Playing a replay back is pure: the recorded master turns are stepped
// tick by tick on a copy of the world, at a speed, paused or not; seeking
// restores the nearest of the worlds kept every few seconds of game time
// (game.World is a pointer-free value, so a copy is a snapshot) and
// re-simulates from it to the exact tick. No Ebiten here: it is tested
// without a window.

// replaySnapEvery is how much game time lies between kept worlds: a seek
// re-simulates at most this many ticks (about 6.6 KB a world: 5 MB an hour).
const replaySnapEvery = 5 * game.TicksPerSecond // ticks

// replayIndexBudget is how many ticks the indexer simulates per update
// while a replay is first played: about 2 ms of a frame.
const replayIndexBudget = 100 // ticks

// replaySpeeds are the playback speeds, in half-ticks per update (60 a
// second): 0.5×, 1×, 2×, 4×, 8×.
var replaySpeeds = [...]int{1, 2, 4, 8, 16}

// replaySpeedNames label replaySpeeds.
var replaySpeedNames = [...]string{"0.5×", "1×", "2×", "4×", "8×"}

// replayNormalSpeed is the index of 1× in replaySpeeds.
const replayNormalSpeed = 1

// replaySnap is a world kept for seeking: the world before turns[turn].
type replaySnap struct {
	turn  int
	world game.World
}

// replayPlayer plays a replay back.
type replayPlayer struct {
	rp    *replay.Replay
	turns []replay.Turn // the turns to play, up to the end record
	start []int         // start[i]: ticks played before turns[i]; start[len(turns)] is the length

	world, prev game.World // the world now, and one tick before (for interpolation)
	turn, sub   int        // the next tick to play is turns[turn]'s sub-th
	pos         int        // ticks played

	paused bool
	speed  int // index into replaySpeeds
	acc    int // half-ticks owed to the clock

	events []game.Event // of the ticks played by the last update

	// The indexer simulates the replay ahead of playback, keeping a world
	// every replaySnapEvery ticks.
	snaps  []replaySnap
	ix     game.World
	ixTurn int
}

// newReplayPlayer returns a player at the start of rp's game.
func newReplayPlayer(rp *replay.Replay) (*replayPlayer, error) {
	sim, err := replay.NewSim(rp)
	if err != nil {
		return nil, err
	}
	turns := rp.Turns
	if rp.EndReason != 0 {
		n := sort.Search(len(turns), func(i int) bool { return turns[i].Turn > rp.EndTurn })
		turns = turns[:n]
	}
	p := &replayPlayer{rp: rp, turns: turns, start: make([]int, len(turns)+1), speed: replayNormalSpeed}
	for i, t := range turns {
		p.start[i+1] = p.start[i] + int(t.Count)
	}
	p.world = *sim.World()
	p.prev, p.ix = p.world, p.world
	if p.length() == 0 {
		return p, errors.New("the replay has no turns")
	}
	return p, nil
}

// length returns the replay's length in ticks.
func (p *replayPlayer) length() int { return p.start[len(p.turns)] }

// done reports whether playback has reached the end.
func (p *replayPlayer) done() bool { return p.pos >= p.length() }

// indexed returns how many ticks of the replay the indexer has covered.
func (p *replayPlayer) indexed() int { return p.start[p.ixTurn] }

// currentTurn returns the number of the turn being played (the last one
// at the end).
func (p *replayPlayer) currentTurn() uint32 {
	switch {
	case len(p.turns) == 0:
		return 0
	case p.turn >= len(p.turns):
		return p.turns[len(p.turns)-1].Turn
	}
	return p.turns[p.turn].Turn
}

// tickAtTurn returns the ticks played before turn number n, or -1 if the
// replay does not hold it.
func (p *replayPlayer) tickAtTurn(n uint32) int {
	i := sort.Search(len(p.turns), func(i int) bool { return p.turns[i].Turn >= n })
	if i == len(p.turns) || p.turns[i].Turn != n {
		return -1
	}
	return p.start[i]
}

// step plays one tick.
func (p *replayPlayer) step() {
	if p.done() {
		return
	}
	mt := &p.turns[p.turn].MasterTurn
	var in [game.MaxPlayers]game.Input
	for i := range in {
		in[i] = mt.Inputs[i][p.sub]
	}
	p.world.Step(in)
	p.pos++
	p.sub++
	if p.sub >= int(mt.Count) {
		p.turn, p.sub = p.turn+1, 0
	}
}

// update advances playback by one update (1/60 s of wall time) at the
// current speed and returns the ticks played; their events are in
// p.events. The indexer moves on too.
func (p *replayPlayer) update() int {
	p.index(replayIndexBudget)
	p.events = p.events[:0]
	if p.paused || p.done() {
		p.prev, p.acc = p.world, 0
		return 0
	}
	p.acc += replaySpeeds[p.speed]
	n := p.acc / 2
	p.acc %= 2
	played := 0
	for ; played < n && !p.done(); played++ {
		p.prev = p.world
		p.step()
		p.events = append(p.events, p.world.LastEvents()...)
	}
	return played
}

// fraction returns how far between prev and world to draw, t being how
// far the frame is into the next update (0..1).
func (p *replayPlayer) fraction(t float64) float64 {
	if p.paused || p.done() {
		return 1
	}
	return min(1, (float64(p.acc)+t*float64(replaySpeeds[p.speed]))/2)
}

// setSpeed sets the speed to replaySpeeds[i], clamped.
func (p *replayPlayer) setSpeed(i int) {
	p.speed = min(max(i, 0), len(replaySpeeds)-1)
	p.acc = 0
}

// index lets the indexer simulate up to budget ticks further.
func (p *replayPlayer) index(budget int) {
	for budget > 0 && p.ixTurn < len(p.turns) {
		if at := p.start[p.ixTurn]; at >= len(p.snaps)*replaySnapEvery {
			p.snaps = append(p.snaps, replaySnap{turn: p.ixTurn, world: p.ix})
		}
		t := &p.turns[p.ixTurn]
		replay.StepTurn(&p.ix, &t.MasterTurn)
		budget -= int(t.Count)
		p.ixTurn++
	}
}

// seek moves playback to tick (clamped to the replay): it restores the
// nearest kept world at or before it and re-simulates from there.
func (p *replayPlayer) seek(tick int) {
	tick = min(max(tick, 0), p.length())
	// Index at least up to the tick, so that the nearest world is kept.
	for p.ixTurn < len(p.turns) && p.start[p.ixTurn] <= tick {
		p.index(replaySnapEvery)
	}
	if len(p.snaps) == 0 {
		return
	}
	i := sort.Search(len(p.snaps), func(i int) bool { return p.start[p.snaps[i].turn] > tick }) - 1
	if i < 0 {
		i = 0 // the first snap is the start of the game
	}
	s := &p.snaps[i]
	// Unless playback is already between the snap and the tick: then
	// going on from where it is costs less.
	if !(p.pos <= tick && p.pos >= p.start[s.turn]) {
		p.world, p.turn, p.sub, p.pos = s.world, s.turn, 0, p.start[s.turn]
	}
	for p.pos < tick {
		p.step()
	}
	p.prev, p.acc = p.world, 0
	p.events = p.events[:0]
}
