package migrate

// walk is where this player's search for the game stands since it lost
// its room (docs/ARCHITECTURE.md, "When the host goes away"): how its
// walks of the successor list began, how far the last successor (the
// community servers: server.go) went, and two facts learnt on the way.
// Lost begins one (lose, or turnAway for a player whose successor turned
// it away); a room that takes the player in, or one it opens, ends it.
// Its transitions below are its only writers; the machine reads it
// through the predicates.
//
//	any                  lose(word)   → afterLoss or byWord, servers untried, nothing learnt
//	any                  turnAway     → afterTurnAway, a server being dialled tried, nothing learnt
//	afterLoss            rejoin       → toHost (the host still answers)
//	any                  end          → the zero walk (the search is over)
//	servers untried      dialServer   → dialling server i
//	dialling             dialServer   → dialling the next server
//	dialling             serversDone  → tried
//	any                  hostHeld     → held (a fact, kept until the next loss)
//	any                  cameHere     → came (a fact, kept until the next loss)
//
// The walk's start and its servers' step are states: each says what the
// walks do next (check the host, ask the later successors, count the
// limit from the first move, try the servers). held and came are
// facts: things another player said during this loss, which stay true
// until the next loss, whatever step the walks are at, and which are
// read together (Answered: the host held, and nobody who lost it came).
type walk struct {
	start   walkStart
	servers serverStep
	server  int // serversDialling: the index of the server dialled (Machine.servers)
	// held is a fact: a later successor said it still hears the host
	// (RefuseNotHosting) in this loss's walks: only this player's link
	// failed, and the others play on with the host.
	held bool
	// came is a fact: another player that lost the host too came to
	// this player's standby in this loss (Called), before or after a
	// refusal: its word outweighs a refusal that may have come late.
	came bool
}

// walkStart is how this loss's walks began.
type walkStart uint8

const (
	// afterLoss: the connection to the room was lost, or the room fell
	// silent, without its word: the host is checked first (Checking)
	// unless this silence's probe found it gone, and the later
	// successors are asked before this player takes the game. The walks
	// end at the handover limit counted from the loss, with the servers
	// tried first.
	afterLoss walkStart = iota
	// byWord: the room said it is going (HandoverAsked): no host to
	// check, nobody to ask.
	byWord
	// afterTurnAway: a successor this player went to turned it away, or its
	// connection failed before it took the player in: the walks go on
	// from the first move (the limit counts from it), and at the limit
	// the game went on without this player (no server: the others play
	// on somewhere).
	afterTurnAway
	// toHost: the host did not say it is going and still answers this
	// player's handshake (Checking): only its own link failed. The walks
	// go to that host alone (Redial, then Rejoin: rejoin.go) until
	// RejoinHold after the loss, and then the game ends for this player
	// (ErrHostStillThere). A caller is told the host is there.
	toHost
)

// serverStep is how far the last successor went in this loss.
type serverStep uint8

const (
	// serversUntried: no Move was asked in this loss.
	serversUntried serverStep = iota
	// serversDialling: a Move to server walk.server is under way.
	serversDialling
	// serversTried: a Move was asked in this loss and is over (the
	// servers failed, or one took the player to its room).
	serversTried
)

// Predicates.

// asksLater reports whether this player asks the later successors before
// it takes the game: not when the room said it is going.
func (w *walk) asksLater() bool { return w.start != byWord }

// afterFirstMove reports whether the walks go on from a first move of
// this loss (turned away): the limit counts from it, and a new dial is
// no new first move.
func (w *walk) afterFirstMove() bool { return w.start == afterTurnAway }

// othersPlayOn reports whether the game is known to go on without this
// player: turned away by a successor, or the host still held by a later
// one. At the limit the game is over for it (ErrNotTakenIn), and no
// server is tried (it would wait there alone).
func (w *walk) othersPlayOn() bool { return w.start == afterTurnAway || w.held }

// mayTryServers reports whether the servers are still to be tried at the
// limit.
func (w *walk) mayTryServers() bool { return !w.othersPlayOn() && w.servers == serversUntried }

// dialling reports whether a Move to a server is under way (a Dialled is
// its answer).
func (w *walk) dialling() bool { return w.servers == serversDialling }

// Transitions.

// lose begins a loss's walks: the room said it is going (word) or not.
func (w *walk) lose(word bool) {
	*w = walk{start: afterLoss}
	if word {
		w.start = byWord
	}
}

// turnAway begins the walks again after a successor turned this player
// away (or its connection failed before it took the player in); a Move
// under way is over, and what was learnt belongs to the walk before.
// Such a loss is never byWord: a room says it is going only to players it
// took in, and a player taken in is no longer joining.
func (w *walk) turnAway() {
	servers := w.servers
	if servers == serversDialling {
		servers = serversTried
	}
	*w = walk{start: afterTurnAway, servers: servers}
}

// rejoin turns the walks to the host that still answers (Checking).
func (w *walk) rejoin() { *w = walk{start: toHost} }

// rejoining reports whether the walks go to the host that still answers.
func (w *walk) rejoining() bool { return w.start == toHost }

// end ends the search: a room took this player in, or it opened one.
func (w *walk) end() { *w = walk{} }

// dialServer notes a Move to server i under way.
func (w *walk) dialServer(i int) { w.servers, w.server = serversDialling, i }

// serversDone notes that the Move under way is over.
func (w *walk) serversDone() {
	if w.servers == serversDialling {
		w.servers = serversTried
	}
}

// hostHeld notes that a later successor still hears the host.
func (w *walk) hostHeld() { w.held = true }

// cameHere notes that another player that lost the host came here.
func (w *walk) cameHere() { w.came = true }
