package game

import "rockstep/game/fixed"

// EventKind says what an Event reports.
type EventKind uint8

// Event kinds.
const (
	ShotFired       EventKind = iota + 1 // Slot fired; Value is the charge in ticks
	RockDestroyed                        // Size rock at Pos; Slot scored Value (Slot -1: no one)
	ShipDestroyed                        // Slot's ship at Pos; Other is the shooter or -1
	ShipRespawned                        // Slot's ship is back at Pos
	WaveStarted                          // Value is the wave number
	PlayerLeft                           // Slot's player has left
	GameOver                             // Slot is the winner in versus, or -1
	SaucerAppeared                       // a Size saucer came onto the field at Pos
	SaucerFired                          // a saucer at Pos fired
	SaucerDestroyed                      // Size saucer at Pos; Slot scored Value (Slot -1: no one)
	SaucerLeft                           // a Size saucer left the field at Pos
	HyperspaceOut                        // Slot's ship jumped into hyperspace from Pos
	HyperspaceIn                         // Slot's ship came out of hyperspace at Pos
	ExtraLife                            // Slot earned a life; Value is its lives now
	PlayerAway                           // Slot's player is away: its ship at Pos is out of play
	PlayerBack                           // Slot's player is back: its ship at Pos is in play again
)

// Event is one thing that happened during a Step, for the UI and sound. The
// UI reads events; it never changes the world.
type Event struct {
	Kind  EventKind
	Slot  int8
	Other int8
	Size  uint8
	Pos   fixed.Vec
	Value int32
}

func (w *World) emit(e Event) {
	if int(w.NumEvents) < len(w.Events) {
		w.Events[w.NumEvents] = e
		w.NumEvents++
	}
}
