package lockstep

import "rockstep/game"

// PredictedInputs returns the inputs the displayed world was stepped with
// for tick (the world's tick after the step), if it is predicted.
func (s *Session) PredictedInputs(tick uint32) ([game.MaxPlayers]game.Input, bool) {
	u := &s.pred.used[tick%uint32(len(s.pred.used))]
	if !s.pred.ok || u.tick != tick || tick > s.pred.world.Tick {
		return [game.MaxPlayers]game.Input{}, false
	}
	return u.in, true
}
