package migrate

import "testing"

// TestWalkTransitions: the walk's states and facts change only by their
// named transitions, and a turn-away keeps only how far the servers went.
func TestWalkTransitions(t *testing.T) {
	var w walk
	w.lose(false)
	if w.start != afterLoss || !w.asksLater() || !w.mayTryServers() || w.othersPlayOn() {
		t.Fatalf("a silent loss: %+v", w)
	}
	w.hostHeld()
	w.cameHere()
	if !w.othersPlayOn() || w.mayTryServers() {
		t.Fatalf("the host held by a later successor: %+v", w)
	}
	w.lose(true)
	if w.start != byWord || w.asksLater() || w.held || w.came {
		t.Fatalf("a loss by the room's word: %+v", w)
	}
	w.dialServer(1)
	if !w.dialling() || w.server != 1 || w.mayTryServers() {
		t.Fatalf("a Move under way: %+v", w)
	}
	w.turnAway()
	if w.start != afterTurnAway || w.servers != serversTried || !w.othersPlayOn() || !w.afterFirstMove() || !w.asksLater() {
		t.Fatalf("turned away while a Move was under way: %+v", w)
	}
	w.serversDone()
	if w.servers != serversTried {
		t.Fatalf("servers done twice: %+v", w)
	}
	w.end()
	if w != (walk{}) {
		t.Fatalf("the search over: %+v", w)
	}
}
