package ui

import (
	"fmt"
	"io"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"rockstep/game"
	"rockstep/net/invite"
)

// An Autopilot plays the game through the UI's own paths, for the
// end-to-end test: it emits the intents the buttons emit (join the first
// LAN game, ready, start), holds scripted keys while the game runs, and
// logs the hash of the confirmed world at a fixed tick.
//
// A script is steps separated by semicolons, done in order, each waiting
// until it can be done:
//
//	host           press Host game on the main menu
//	join-lan       open Join game and press Join on the first joinable LAN game
//	join ADDR      join ADDR by typing it
//	rejoin         press Rejoin on the main menu (the game this player
//	               crashed out of), and wait until back in the game
//	ready          press Ready in the lobby
//	start N        as host, press Start once N players are ready
//	setup M L W    as host, set the mode (coop or versus), lives and
//	               starting wave, once the lobby shows the setup
//	fly T          play with scripted keys until the confirmed world reaches
//	               tick T, then log "autopilot: hash tick=T hash=H"
//	play-to-end    play with scripted keys until the results are shown, then
//	               log them as the screen shows them: "autopilot: results
//	               <title> | <subtitle> | 1. <name> <score> <lives> [<kills>] | …"
//	rematch        press Back to lobby on the results
//	hold-lobby S   stay S seconds in the lobby; fail if a game starts (a
//	               rematch must wait for the host's Start)
//	wait-alone     stay in the lobby until every other player has left
//	wait-host      play on until the game says who hosts it now (the host went away)
//	wait-apart     play on until our side of the game lacks a majority and
//	               the strip says so: "autopilot: apart: <the strip's line>"
//	wait-portmap   in the lobby of a game we host, wait for the router's verdict on its port and log the lobby's sentence
//	move-to-server in the lobby of a game we host, press the offer to move
//	               the room to a known server (shown when the router would
//	               not open the port), wait for the server room's invite
//	               code and log it: "autopilot: invite code: CODE"
//	wait-players N in the lobby, wait until N players are in the room, all
//	               connected and ready
//	end-at T       as host, play until the displayed world reaches tick T,
//	               then end the game for everyone (the in-game menu's End)
//	linger S       keep playing S seconds (so the others reach the same tick)
//	log-host       log who hosts, as this machine sees it: "autopilot: host:
//	               me=SLOT powers=BOOL roster=SLOT NAME room-here=BOOL paused=BOOL"
//	               (powers: the Esc menu offers Pause and End for everyone)
//	pause          ask the room to pause the game for everyone, as the Esc
//	               menu's Pause does (whether or not the menu offers it)
//	wait-back      play on until the game says a player is back (a Rejoin)
//	wait-refused   wait until the room this machine runs (after a host
//	               migration) refused a host's command from another player
//	end-game       as host, end the game for everyone (the Esc menu's End)
//	log-lobby      log where the lobby says the game is, its host key and
//	               its hint: "autopilot: lobby: where=… key=… hint=…"
//	rejoin-ended   press Rejoin on the main menu and wait for the results
//	               of the game that ended while we were away; log them as
//	               play-to-end does, then "autopilot: results were away's"
//	quit           leave the game and end the program
//
// A step not done within its deadline (60 s) ends the program with an
// error; while a game is played, the deadline counts from the last tick the
// displayed world advanced (a game is as long as it is, a stall is not), and
// every 10 s a line says where the game is.
type Autopilot struct {
	steps []apStep
	log   io.Writer

	cur      int
	since    time.Time
	lastTry  time.Time
	lastTick uint32    // the displayed world's tick when since was last moved by it
	lastSaid time.Time // the last "playing" line
	screen   screenID  // the screen last seen, to log changes
	seen     bool

	mu       sync.Mutex
	hashTick uint32 // tick to log the hash at; 0 none
	hashed   bool
	hashLine string
	endTick  uint32 // the confirmed world's tick after the last executed turn
	endHash  uint64 // and its hash: logged with the results ("end hash")
	err      error
}

type apStep struct {
	op    string
	arg   string
	n     int
	setup game.Setup
}

// parseAutopilotSetup reads "coop|versus LIVES WAVE".
func parseAutopilotSetup(f []string) (game.Setup, error) {
	s := game.DefaultSetup()
	switch f[0] {
	case "coop", "co-op":
		s.Mode = game.Coop
	case "versus":
		s.Mode = game.Versus
	default:
		return s, fmt.Errorf("mode %q: want coop or versus", f[0])
	}
	lives, err1 := strconv.Atoi(f[1])
	wave, err2 := strconv.Atoi(f[2])
	if err1 != nil || err2 != nil || lives < 1 || lives > game.MaxLives || wave < 1 || wave > game.MaxStartWave {
		return s, fmt.Errorf("lives %q and wave %q: want 1..%d and 1..%d", f[1], f[2], game.MaxLives, game.MaxStartWave)
	}
	s.Lives, s.StartWave = uint8(lives), uint8(wave)
	return s, nil
}

// apDeadline bounds each step; while playing, the time without a tick.
const apDeadline = 60 * time.Second

// apEvery is how often a line says where a game being played is.
const apEvery = 10 * time.Second

// ParseAutopilot parses a script; log receives its lines.
func ParseAutopilot(script string, log io.Writer) (*Autopilot, error) {
	ap := &Autopilot{log: log}
	for _, part := range strings.Split(script, ";") {
		f := strings.Fields(part)
		if len(f) == 0 {
			continue
		}
		st := apStep{op: f[0]}
		want := 0
		switch st.op {
		case "host", "join-lan", "ready", "quit", "play-to-end", "rematch", "rejoin", "wait-alone", "wait-host", "wait-apart", "wait-portmap", "move-to-server",
			"log-host", "pause", "wait-refused", "end-game", "log-lobby", "rejoin-ended", "wait-back":
		case "join":
			want = 1
		case "setup":
			want = 3
		case "start", "fly", "linger", "hold-lobby", "wait-players", "end-at":
			want = 1
		default:
			n, ok := lobbySteps[st.op] // autopilot_lobby.go
			if !ok {
				return nil, fmt.Errorf("autopilot: unknown step %q", part)
			}
			want = n
		}
		if len(f)-1 != want {
			return nil, fmt.Errorf("autopilot: step %q takes %d argument(s)", part, want)
		}
		if st.op == "setup" {
			setup, err := parseAutopilotSetup(f[1:])
			if err != nil {
				return nil, fmt.Errorf("autopilot: step %q: %w", part, err)
			}
			st.setup = setup
		} else if want == 1 {
			st.arg = f[1]
			if st.op != "join" && st.op != "say" {
				n, err := strconv.Atoi(st.arg)
				if err != nil || n <= 0 {
					return nil, fmt.Errorf("autopilot: step %q: want a positive number", part)
				}
				st.n = n
			}
		}
		ap.steps = append(ap.steps, st)
	}
	if len(ap.steps) == 0 {
		return nil, fmt.Errorf("autopilot: empty script")
	}
	return ap, nil
}

// Err reports why the autopilot failed, if it did.
func (ap *Autopilot) Err() error {
	ap.mu.Lock()
	defer ap.mu.Unlock()
	return ap.err
}

func (ap *Autopilot) logf(format string, args ...any) {
	if ap.log != nil {
		fmt.Fprintf(ap.log, "autopilot: "+format+"\n", args...)
	}
}

// pressRejoin presses Rejoin on the main menu, for the game kept on disk.
func (ap *Autopilot) pressRejoin(a *App, now time.Time) {
	ap.lastTry = now
	ap.logf("rejoining %s at %s", a.saved.Room, a.saved.Addr)
	a.emit(Intent{Kind: IntentRejoin, Addr: a.saved.Addr, Lobby: a.saved.Lobby})
}

// readyAgain presses Ready again in the lobby, as a player would, when the
// host changed the setup after our Ready (the room then clears it) before
// the game started.
func (ap *Autopilot) readyAgain(a *App, now time.Time, retry bool) {
	if a.flow.screen != screenLobby || !a.nv.ok || a.nv.phase != phaseLobby || !retry {
		return
	}
	if p := (&lobbyScreen{a: a}).me(); p != nil && !p.Ready {
		ap.lastTry = now
		ap.logf("ready again for the changed setup")
		a.emit(Intent{Kind: IntentReady, Ready: true})
	}
}

// turnEnd sees every executed turn, on the session's goroutine.
func (ap *Autopilot) turnEnd(turn uint32, hash uint64, w *game.World) {
	ap.mu.Lock()
	defer ap.mu.Unlock()
	ap.endTick, ap.endHash = w.Tick, hash
	if ap.hashTick != 0 && !ap.hashed && w.Tick >= ap.hashTick {
		ap.hashed = true
		ap.hashLine = fmt.Sprintf("hash tick=%d turn=%d hash=%016x", w.Tick, turn, hash)
	}
}

// step runs the script for one update: it may emit intents and replace
// the keys' intents.
func (ap *Autopilot) step(a *App, in Intents) Intents {
	now := time.Now()
	if !ap.seen || a.flow.screen != ap.screen {
		ap.seen, ap.screen = true, a.flow.screen
		if a.flow.notice != "" {
			ap.logf("screen %v (%s)", a.flow.screen, a.flow.notice)
		} else {
			ap.logf("screen %v", a.flow.screen)
		}
	}
	if ap.cur >= len(ap.steps) {
		return in
	}
	if ap.since.IsZero() {
		ap.since = now
	}
	st := ap.steps[ap.cur]
	done := false
	retry := now.Sub(ap.lastTry) > 500*time.Millisecond
	nv := &a.nv
	switch ap.do(&apTurn{a: a, st: st, in: &in, now: now, retry: retry}) {
	case apStop:
		return in
	case apDone:
		done = true
	}
	if done {
		ap.logf("%s done", strings.TrimSpace(st.op+" "+st.arg))
		ap.cur++
		ap.since, ap.lastTry, ap.lastSaid = now, time.Time{}, time.Time{}
		return in
	}
	if now.Sub(ap.since) > apDeadline {
		ap.mu.Lock()
		ap.err = fmt.Errorf("autopilot: step %q not done in %v (screen %v, %s)", st.op, apDeadline, a.flow.screen, ap.where(nv))
		ap.mu.Unlock()
		ap.logf("%v", ap.err)
		a.quit = true
	}
	return in
}

// apTurn is what a step sees in one update.
type apTurn struct {
	a     *App
	st    apStep
	in    *Intents // the keys' intents, which a step may replace
	now   time.Time
	retry bool // the last try is long enough ago to try again
}

// apStatus is what a step says after an update.
type apStatus uint8

const (
	apWait apStatus = iota // not done yet
	apDone                 // done: on to the next step
	apStop                 // the program ends: stop here
)

// apResult is apDone if done, else apWait.
func apResult(done bool) apStatus {
	if done {
		return apDone
	}
	return apWait
}

// do runs the current step for one update.
func (ap *Autopilot) do(t *apTurn) apStatus {
	switch t.st.op {
	case "host":
		return ap.apHost(t)
	case "join-lan", "join":
		return ap.apJoinLan(t)
	case "rejoin":
		return ap.apRejoin(t)
	case "ready":
		return ap.apReady(t)
	case "start":
		return ap.apStart(t)
	case "setup":
		return ap.apSetup(t)
	case "play-to-end":
		return ap.apPlayToEnd(t)
	case "rematch":
		return ap.apRematch(t)
	case "wait-host":
		return ap.apWaitHost(t)
	case "wait-apart":
		return ap.apWaitApart(t)
	case "wait-alone":
		return ap.apWaitAlone(t)
	case "wait-portmap":
		return ap.apWaitPortmap(t)
	case "move-to-server":
		return ap.apMoveToServer(t)
	case "wait-players":
		return ap.apWaitPlayers(t)
	case "end-at":
		return ap.apEndAt(t)
	case "hold-lobby":
		return ap.apHoldLobby(t)
	case "fly":
		return ap.apFly(t)
	case "linger":
		return ap.apLinger(t)
	case "log-host", "pause", "wait-refused", "end-game", "log-lobby", "wait-back", "rejoin-ended":
		return ap.apHostSteps(t)
	case "quit":
		return ap.apQuit(t)
	}
	if _, ok := lobbySteps[t.st.op]; ok {
		return ap.apLobbyStep(t)
	}
	return apWait
}

// apHost is the step host (see Autopilot).
func (ap *Autopilot) apHost(t *apTurn) apStatus {
	a := t.a
	done := false
	if a.flow.screen == screenMenu {
		a.emit(Intent{Kind: IntentHost})
		done = true
	}
	return apResult(done)
}

// apJoinLan is the step join-lan, join (see Autopilot): the first joinable game of the LAN list, or by address.
func (ap *Autopilot) apJoinLan(t *apTurn) apStatus {
	a, st, now, retry := t.a, t.st, t.now, t.retry
	done := false
	switch a.flow.screen {
	case screenMenu:
		a.emit(Intent{Kind: IntentOpenJoin})
	case screenJoin:
		if a.flow.target != "" || !retry {
			break
		}
		ap.lastTry = now
		if st.op == "join" {
			a.emit(Intent{Kind: IntentJoinAddr, Addr: st.arg})
			break
		}
		for _, r := range lanRows(a.lanGames(), a.saved) {
			if r.Joinable {
				ap.logf("joining %s at %s", r.Game.Name, r.Game.Addr)
				a.emit(Intent{Kind: IntentJoinLAN, Game: r.Game})
				break
			}
		}
	case screenLobby:
		done = true
	}
	return apResult(done)
}

// apRejoin is the step rejoin (see Autopilot).
func (ap *Autopilot) apRejoin(t *apTurn) apStatus {
	a, now, retry, nv := t.a, t.now, t.retry, &t.a.nv
	done := false
	switch {
	case a.flow.screen == screenMenu && a.saved != nil && retry:
		ap.pressRejoin(a, now)
	case a.flow.screen == screenPlay && nv.ok && nv.phase == phasePlaying && nv.slot >= 0:
		done = true
	}
	return apResult(done)
}

// apReady is the step ready (see Autopilot).
func (ap *Autopilot) apReady(t *apTurn) apStatus {
	a, now, retry, nv := t.a, t.now, t.retry, &t.a.nv
	done := false
	if a.flow.screen == screenPlay {
		done = true // the game started as soon as we were ready
	} else if a.flow.screen == screenLobby && nv.ok && nv.phase == phaseLobby {
		if p := (&lobbyScreen{a: a}).me(); p != nil {
			if p.Ready {
				done = true
			} else if retry {
				ap.lastTry = now
				a.emit(Intent{Kind: IntentReady, Ready: true})
			}
		}
	}
	return apResult(done)
}

// apStart is the step start (see Autopilot).
func (ap *Autopilot) apStart(t *apTurn) apStatus {
	a, st, now, retry, nv := t.a, t.st, t.now, t.retry, &t.a.nv
	done := false
	if a.flow.screen == screenPlay {
		done = true
		return apResult(done)
	}
	if a.flow.screen == screenLobby && nv.ok && nv.host && retry {
		ready := 0
		for _, p := range nv.setup.Players {
			if p.Ready && p.Connected {
				ready++
			}
		}
		if ready >= st.n && ready == len(nv.setup.Players) {
			ap.lastTry = now
			ap.logf("starting with %d players", ready)
			a.emit(Intent{Kind: IntentStart})
		}
	}
	return apResult(done)
}

// apSetup is the step setup (see Autopilot).
func (ap *Autopilot) apSetup(t *apTurn) apStatus {
	a, st, now, retry, nv := t.a, t.st, t.now, t.retry, &t.a.nv
	done := false
	if a.flow.screen == screenLobby && nv.ok && nv.host && len(nv.setup.Players) > 0 {
		cur := nv.setup.Setup.Options()
		want := st.setup.Options()
		if cur == want {
			done = true
		} else if retry {
			ap.lastTry = now
			a.emit(Intent{Kind: IntentSetup, Setup: want})
		}
	}
	return apResult(done)
}

// apPlayToEnd is the step play-to-end (see Autopilot).
func (ap *Autopilot) apPlayToEnd(t *apTurn) apStatus {
	a, in, now, retry, nv := t.a, t.in, t.now, t.retry, &t.a.nv
	done := false
	switch a.flow.screen {
	case screenLobby:
		ap.readyAgain(a, now, retry)
	case screenPlay:
		in.Ship = apKeys(a.frames)
		ap.playing(nv, now)
	case screenResults:
		if rs, ok := a.cur.(*resultsScreen); ok {
			ap.logf("results digest=%016x %s", nv.results.Digest(), strings.Join(rs.shown, " | "))
			ap.mu.Lock()
			tick, hash := ap.endTick, ap.endHash
			ap.mu.Unlock()
			ap.logf("end hash tick=%d hash=%016x", tick, hash) // the world the results are of, as bots' summaries give it
			done = true
		}
	}
	return apResult(done)
}

// apRematch is the step rematch (see Autopilot).
func (ap *Autopilot) apRematch(t *apTurn) apStatus {
	a := t.a
	done := false
	if a.flow.screen == screenResults {
		a.emit(Intent{Kind: IntentRematch})
	}
	if a.flow.screen == screenLobby {
		done = true
	}
	return apResult(done)
}

// apWaitHost is the step wait-host (see Autopilot).
func (ap *Autopilot) apWaitHost(t *apTurn) apStatus {
	a, in, now, retry, nv := t.a, t.in, t.now, t.retry, &t.a.nv
	done := false
	ap.readyAgain(a, now, retry)
	// Play on until the game says who hosts it now (the host went away).
	if a.flow.screen == screenPlay {
		in.Ship = apKeys(a.frames)
		ap.playing(nv, now)
	}
	// The news the play screen shows: who hosts the game now.
	if ps, ok := a.cur.(*netPlayScreen); ok && ps.newsLeft > 0 && ps.newsKind == newsHosts {
		ap.logf("news: %s", ps.news)
		done = true
	}
	return apResult(done)
}

// apWaitApart is the step wait-apart (see Autopilot): play on until our
// side of the game lacks a majority and the strip says so.
func (ap *Autopilot) apWaitApart(t *apTurn) apStatus {
	a, in, nv := t.a, t.in, &t.a.nv
	if a.flow.screen == screenPlay {
		in.Ship = apKeys(a.frames)
		ap.playing(nv, t.now)
	}
	if ps, ok := a.cur.(*netPlayScreen); ok && nv.apart {
		if line := ps.stripLine(); line != "" {
			ap.logf("apart: %s", line)
			return apDone
		}
	}
	return apWait
}

// apWaitAlone is the step wait-alone (see Autopilot).
func (ap *Autopilot) apWaitAlone(t *apTurn) apStatus {
	a, nv := t.a, &t.a.nv
	done := false
	done = a.flow.screen == screenLobby && nv.ok && len(nv.setup.Players) == 1
	return apResult(done)
}

// apWaitPortmap is the step wait-portmap (see Autopilot): the router's verdict on our room's port, and the invite code, as the lobby shows them.
func (ap *Autopilot) apWaitPortmap(t *apTurn) apStatus {
	a, now, nv := t.a, t.now, &t.a.nv
	done := false
	ls, ok := a.cur.(*lobbyScreen)
	if !ok || a.flow.screen != screenLobby || !nv.portmap.Done() {
		return apResult(done)
	}
	code := ls.invite.shown
	if nv.external.IsValid() && !codeHolds(code, nv.external) {
		return apResult(done) // the code with the router's address is made at the lobby's next update
	}
	ap.logf("portmap: %s (%v after this step began)", portmapLine(nv.portmap), now.Sub(ap.since).Round(time.Millisecond))
	ap.logf("invite code: %s", code)
	done = true
	return apResult(done)
}

// apMoveToServer is the step move-to-server (see Autopilot).
func (ap *Autopilot) apMoveToServer(t *apTurn) apStatus {
	a, now, retry, nv := t.a, t.now, t.retry, &t.a.nv
	done := false
	if a.flow.screen != screenLobby {
		return apResult(done)
	}
	if id, srv, _ := nv.serverRoom(); id != 0 {
		ls, ok := a.cur.(*lobbyScreen)
		if c, err := invite.Decode(ls.invite.shown); !ok || err != nil || c.RoomID != id {
			return apResult(done) // the code is made at the lobby's next update
		}
		ap.logf("moved to server: room %d at %s (%v after this step began)", id, srv, now.Sub(ap.since).Round(time.Millisecond))
		ap.logf("invite code: %s", ls.invite.shown)
		done = true
		return apResult(done)
	}
	if srv, ok := a.moveServer(); ok && retry && a.flow.target != srv.Addr {
		ap.lastTry = now
		ap.logf("moving the room to %s (%s)", srv.Addr, portmapLine(nv.portmap))
		a.emit(Intent{Kind: IntentMoveToServer, Addr: srv.Addr})
	}
	return apResult(done)
}

// apWaitPlayers is the step wait-players (see Autopilot).
func (ap *Autopilot) apWaitPlayers(t *apTurn) apStatus {
	a, st, nv := t.a, t.st, &t.a.nv
	done := false
	if a.flow.screen != screenLobby || !nv.ok || nv.phase != phaseLobby {
		return apResult(done)
	}
	ready := 0
	for _, p := range nv.setup.Players {
		if p.Ready && p.Connected {
			ready++
		}
	}
	done = len(nv.setup.Players) == st.n && ready == st.n
	return apResult(done)
}

// apEndAt is the step end-at (see Autopilot).
func (ap *Autopilot) apEndAt(t *apTurn) apStatus {
	a, st, in, now, retry, nv := t.a, t.st, t.in, t.now, t.retry, &t.a.nv
	done := false
	switch a.flow.screen {
	case screenLobby:
		ap.readyAgain(a, now, retry)
	case screenPlay:
		in.Ship = apKeys(a.frames)
		ap.playing(nv, now)
		if nv.host && nv.hasWorld && nv.world.Tick >= uint32(st.n) {
			ap.logf("ending the game at tick %d", nv.world.Tick)
			a.emit(Intent{Kind: IntentEndGame})
			done = true
		}
	case screenResults:
		done = true // it ended before: game over
	}
	return apResult(done)
}

// apHoldLobby is the step hold-lobby (see Autopilot).
func (ap *Autopilot) apHoldLobby(t *apTurn) apStatus {
	a, st, now := t.a, t.st, t.now
	done := false
	if a.flow.screen != screenLobby {
		ap.mu.Lock()
		ap.err = fmt.Errorf("autopilot: left the lobby for %v while holding: a game started without the host's Start", a.flow.screen)
		ap.mu.Unlock()
		ap.logf("%v", ap.err)
		a.quit = true
		return apStop
	}
	done = now.Sub(ap.since) >= time.Duration(st.n)*time.Second
	return apResult(done)
}

// apFly is the step fly (see Autopilot).
func (ap *Autopilot) apFly(t *apTurn) apStatus {
	a, st, in, now, nv := t.a, t.st, t.in, t.now, &t.a.nv
	done := false
	ap.mu.Lock()
	if ap.hashTick == 0 {
		ap.hashTick = uint32(st.n)
	}
	line := ap.hashLine
	ap.mu.Unlock()
	if a.flow.screen == screenPlay {
		in.Ship = apKeys(a.frames)
		ap.playing(nv, now)
	}
	if line != "" {
		ap.logf("%s", line)
		done = true
	}
	return apResult(done)
}

// apLinger is the step linger (see Autopilot).
func (ap *Autopilot) apLinger(t *apTurn) apStatus {
	a, st, in, now := t.a, t.st, t.in, t.now
	done := false
	if a.flow.screen == screenPlay {
		in.Ship = apKeys(a.frames)
	}
	done = now.Sub(ap.since) >= time.Duration(st.n)*time.Second
	return apResult(done)
}

// apHostSteps are the steps log-host, pause, wait-refused, end-game,
// log-lobby, wait-back and rejoin-ended (see hostStep).
func (ap *Autopilot) apHostSteps(t *apTurn) apStatus {
	return apResult(ap.hostStep(t.a, t.st, t.in, t.now, t.retry))
}

// apQuit is the step quit (see Autopilot).
func (ap *Autopilot) apQuit(t *apTurn) apStatus {
	t.a.emit(Intent{Kind: IntentLeave})
	t.a.quit = true
	return apDone
}

// playing moves the step's deadline while the displayed world advances,
// and says where the game is every apEvery.
func (ap *Autopilot) playing(nv *netView, now time.Time) {
	if nv.hasWorld && nv.world.Tick != ap.lastTick {
		ap.lastTick, ap.since = nv.world.Tick, now
	}
	if ap.lastSaid.IsZero() {
		ap.lastSaid = now
	}
	if now.Sub(ap.lastSaid) >= apEvery {
		ap.lastSaid = now
		ap.logf("playing: %s", ap.where(nv))
	}
}

// where says where the session is, for the log.
func (ap *Autopilot) where(nv *netView) string {
	st := nv.stats
	return fmt.Sprintf("phase %v, room %d/%d, tick %d, ended %v, rtt %v, k %d, delay %d, buffered %d, packets in %d out %d",
		nv.phase, nv.status.State, nv.status.Child, nv.world.Tick, nv.ended, st.RTT.Round(time.Millisecond), st.K, st.Delay, st.TurnsBuffered, st.PacketsIn, st.PacketsOut)
}

// apKeys are the scripted controls of update n: a ship that turns, sets
// a middling thrust, and fires short and charged shots.
func apKeys(n int) game.Input {
	var in game.Input
	switch m := n % 240; {
	case m < 40:
		in |= game.Right
	case m >= 120 && m < 150:
		in |= game.Left
	}
	if n%600 == 30 || n%600 == 90 {
		in |= game.Up
	}
	if n%600 == 400 {
		in |= game.Down
	}
	if f := n % 90; f < 8 || (n%360 >= 200 && n%360 < 200+game.MaxCharge+4) {
		in |= game.Fire
	}
	return in
}

// codeHolds reports whether the invite code names addr.
func codeHolds(code string, addr netip.AddrPort) bool {
	c, err := invite.Decode(code)
	return err == nil && slices.Contains(c.Addrs, addr)
}
