// Package game is the deterministic Asteroids engine of Rockstep.
//
// A World is computed from a Setup and the sequence of per-tick inputs of
// every player slot, and nothing else: no clock, no floats, no maps, no
// goroutines, no global state. Every machine that runs the same Setup with
// the same inputs computes bit-identical worlds, which is what lockstep
// networking, desync detection and replays rely on.
//
// The World is a plain value with fixed-capacity arrays and no pointers, so
// copying it is a snapshot, Hash is one pass over its bytes, and Step
// allocates nothing.
package game

import (
	"errors"
	"strconv"

	"rockstep/game/fixed"
	"rockstep/game/rng"
)

// Capacities of the world. They bound memory and the size of a snapshot.
const (
	MaxPlayers     = 8   // player slots
	MaxRocks       = 96  // rocks alive at once; splits beyond it are dropped
	MaxBullets     = 128 // bullets alive at once
	MaxShipBullets = 8   // bullets one ship may have alive at once
	MaxSaucers     = 2   // saucers on the field at once
	MaxEvents      = 64  // events reported by one Step; more are dropped
	MaxLives       = 9
	MaxStartWave   = 20
)

// TicksPerSecond is the engine's fixed step rate.
const TicksPerSecond = 60

// Field size in world units. The field wraps around at its edges.
const (
	FieldW fixed.Num = 1280 << fixed.Shift // units
	FieldH fixed.Num = 720 << fixed.Shift  // units
)

// Mode is the kind of game.
type Mode uint8

// Game modes.
const (
	Coop   Mode = iota // players clear waves together; the game ends when all are out
	Versus             // players also shoot each other; the last one standing wins
)

// String returns the mode's name as a player reads it.
func (m Mode) String() string {
	switch m {
	case Coop:
		return "co-op"
	case Versus:
		return "versus"
	}
	return "mode(" + strconv.Itoa(int(m)) + ")"
}

// Setup is everything that, with the inputs, determines a game.
type Setup struct {
	Seed         uint64 // seeds the world's RNG
	Players      uint8  // bit i set: slot i has a player
	Mode         Mode
	Lives        uint8 // 1..MaxLives
	StartWave    uint8 // 1..MaxStartWave
	FriendlyFire bool  // in co-op, bullets hit other players' ships
	Saucers      bool  // saucers cross the field now and then, shooting
	Hyperspace   bool  // the Hyperspace input makes a ship jump
}

// Options is the part of s the host chooses: s without the seed and the
// players, which the room fills in when a game starts.
func (s Setup) Options() Setup {
	s.Seed, s.Players = 0, 0
	return s
}

// DefaultSetup returns the setup a new room starts from: co-op, three
// lives, wave one, no friendly fire, saucers and hyperspace on, and only
// slot 0 occupied.
func DefaultSetup() Setup {
	return Setup{Players: 1, Mode: Coop, Lives: 3, StartWave: 1, Saucers: true, Hyperspace: true}
}

// Validate reports whether the engine can run s. A room never starts a game
// whose setup fails it.
func (s Setup) Validate() error {
	switch {
	case s.Players == 0:
		return errors.New("setup: no players")
	case s.Mode > Versus:
		return errors.New("setup: unknown mode " + strconv.Itoa(int(s.Mode)))
	case s.Lives < 1 || s.Lives > MaxLives:
		return errors.New("setup: lives " + strconv.Itoa(int(s.Lives)) + " outside 1.." + strconv.Itoa(MaxLives))
	case s.StartWave < 1 || s.StartWave > MaxStartWave:
		return errors.New("setup: starting wave " + strconv.Itoa(int(s.StartWave)) + " outside 1.." + strconv.Itoa(MaxStartWave))
	}
	return nil
}

// Input is one player's controls for one tick, as bits.
type Input uint8

// Input bits. Clients may send only the bits of ClientInputMask; Leave is
// written by the room into a master packet when it drops a player, so that
// every engine removes that ship at the same tick, and Away on every tick
// of a slot held vacant, so that every engine takes that ship out of play
// (and brings it back) at the same tick.
const (
	Up         Input = 1 << iota // raise the thrust level (repeats while held)
	Down                         // lower the thrust level (repeats while held)
	Left                         // rotate counter-clockwise while held
	Right                        // rotate clockwise while held
	Fire                         // charge while held, fire on release
	Hyperspace                   // jump on the press (if the setup allows it)
	Away                         // the player's connection is lost and its slot held: the ship is out of play
	Leave                        // the player has left the game: the slot empties for good

	ClientInputMask = Up | Down | Left | Right | Fire | Hyperspace
)

// Ship is one player slot's ship and standing.
//
// A ship in hyperspace is off the field (not Alive) with Jump ticks to go;
// it still has the life it jumped with.
type Ship struct {
	Present   bool // a player holds this slot (false once they leave)
	Alive     bool // the ship is on the field
	Pos       fixed.Vec
	Vel       fixed.Vec   // units per tick
	Angle     fixed.Angle // facing
	Thrust    uint8       // thrust level, 0..MaxThrust
	Hold      uint8       // ticks Up or Down has been held, for repeat
	Charge    uint8       // ticks Fire has been held, 0..MaxCharge
	Cooldown  uint8       // ticks until the ship may fire again
	Lives     uint8       // lives left, including the current one
	Invuln    uint16      // ticks of invulnerability left
	RespawnIn uint16      // ticks until a dead ship with lives returns
	Score     uint32
	Kills     uint16 // ships destroyed (versus, or friendly fire)
	Deaths    uint16
	Prev      Input // last tick's input, for press and release edges
	Jump      uint8 // ticks until the ship comes out of hyperspace; 0: not in it
	JumpCool  uint8 // ticks until the ship may jump again
	Away      bool  // the player is away (slot held vacant): the ship is out of play, frozen
}

// Rock sizes.
const (
	Small  = 1
	Medium = 2
	Big    = 3
)

// Rock is an asteroid.
type Rock struct {
	ID    uint32 // unique in this game; lets a renderer follow a rock
	Pos   fixed.Vec
	Vel   fixed.Vec // units per tick
	Angle fixed.Angle
	Spin  int16 // angle units per tick
	Size  uint8 // Small, Medium or Big
	Shape uint8 // outline variant, for drawing only
}

// Bullet is a shot in flight.
type Bullet struct {
	ID    uint32 // unique in this game
	Pos   fixed.Vec
	Vel   fixed.Vec // units per tick
	Life  uint16    // ticks left
	Owner uint8     // slot that fired it, or SaucerOwner
	Power uint8     // hits left; a fully charged shot passes through a rock
}

// SaucerOwner is the Owner of a saucer's shot: no player's.
const SaucerOwner = MaxPlayers

// Saucer sizes.
const (
	SmallSaucer = 1 // aims at the nearest ship
	LargeSaucer = 2 // fires at random
)

// Saucer is a flying saucer crossing the field, shooting.
type Saucer struct {
	ID     uint32 // unique in this game
	Pos    fixed.Vec
	Vel    fixed.Vec // units per tick
	Size   uint8     // SmallSaucer or LargeSaucer
	Life   uint16    // ticks until it has crossed the field and leaves
	FireIn uint8     // ticks until its next shot
	TurnIn uint8     // ticks until it changes course
}

// World is the whole state of a game. It holds no pointers: assigning a
// World copies it completely.
type World struct {
	Setup     Setup
	Tick      uint32 // ticks stepped since New
	Rand      rng.Rand
	NextID    uint32 // next rock or bullet ID
	Wave      uint8  // current wave number
	WaveIn    uint16 // ticks until the next wave starts, 0 while a wave is on
	Over      bool   // the game has ended
	Winner    int8   // in versus, the winning slot once Over; -1 otherwise
	Ships     [MaxPlayers]Ship
	NumRocks  uint8
	Rocks     [MaxRocks]Rock
	NumBullet uint8
	Bullets   [MaxBullets]Bullet
	SaucerIn  uint16 // ticks until the next saucer, while a wave is on (0 with saucers off)
	NumSaucer uint8
	Saucers   [MaxSaucers]Saucer

	// Events reported by the last Step. They describe what happened for the
	// UI and sound; they are not part of the state (not hashed, not in a
	// snapshot) and a restored world has none.
	NumEvents uint8
	Events    [MaxEvents]Event
}

// New returns the world at tick 0 of a game with setup s.
func New(s Setup) (*World, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	w := &World{Setup: s, Rand: rng.New(s.Seed), Winner: -1}
	for i := range w.Ships {
		if s.Players&(1<<i) == 0 {
			continue
		}
		sh := &w.Ships[i]
		sh.Present = true
		sh.Lives = s.Lives
		w.placeShip(i, w.homeSpot(i))
	}
	w.startWave(s.StartWave)
	return w, nil
}

// LiveRocks returns the live rocks.
func (w *World) LiveRocks() []Rock { return w.Rocks[:w.NumRocks] }

// LiveBullets returns the bullets in flight.
func (w *World) LiveBullets() []Bullet { return w.Bullets[:w.NumBullet] }

// LiveSaucers returns the saucers on the field.
func (w *World) LiveSaucers() []Saucer { return w.Saucers[:w.NumSaucer] }

// LastEvents returns the events of the last Step.
func (w *World) LastEvents() []Event { return w.Events[:w.NumEvents] }

// RockRadius returns the collision radius of a rock of the given size, in units.
func RockRadius(size uint8) fixed.Num {
	if size <= Big {
		return rockRadii[size]
	}
	return 12 << fixed.Shift
}

// rockRadii holds RockRadius of sizes 0 to Big. A lookup, not a switch:
// collide asks for the radius of every rock it tests, and a switch on the
// size mispredicted about half the time.
var rockRadii = [Big + 1]fixed.Num{12 << fixed.Shift, 12 << fixed.Shift, 22 << fixed.Shift, 40 << fixed.Shift}

// ShipRadius is the collision radius of a ship, in units.
const ShipRadius fixed.Num = 12 << fixed.Shift

// SaucerRadius returns the collision radius of a saucer of the given size,
// in units.
func SaucerRadius(size uint8) fixed.Num {
	if size == LargeSaucer {
		return 18 << fixed.Shift
	}
	return 10 << fixed.Shift
}

// Players returns how many slots still hold a player.
func (w *World) Players() int {
	n := 0
	for i := range w.Ships {
		if w.Ships[i].Present {
			n++
		}
	}
	return n
}
