package ui

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"rockstep/game"
	"rockstep/net/invite"
	"rockstep/net/lan"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// The screen flow is pure: intents (what the player clicked or typed) and
// observations of the network session go in, the screen to show and
// effects (what the shell must do: dial, host, tell the session) come out.
// It knows nothing of widgets, windows or sockets, so it is tested without
// a display.

// screenID names a screen of the game.
type screenID uint8

const (
	screenMenu     screenID = iota // main menu
	screenJoin                     // LAN list and join by address
	screenLobby                    // the room's setup, roster and chat
	screenPlay                     // a network game
	screenResults                  // the scores of a finished network game
	screenSettings                 // name, volume, full screen
	screenPractice                 // a single-player game on the local engine
	screenReplays                  // the recent replays and desync reports
	screenReplay                   // the replay viewer
	screenScores                   // the high scores
	screenControls                 // the key and gamepad bindings
)

var screenNames = [...]string{"menu", "join", "lobby", "play", "results", "settings", "practice", "replays", "replay", "scores", "controls"}

func (s screenID) String() string {
	if int(s) < len(screenNames) {
		return screenNames[s]
	}
	return "screen?"
}

// IntentKind says what the player asked for.
type IntentKind uint8

// Intent kinds. Buttons emit them; so does the autopilot.
const (
	IntentHost         IntentKind = iota + 1 // main menu: host a game
	IntentOpenJoin                           // main menu: the join screen
	IntentOpenSettings                       // main menu: settings
	IntentPractice                           // main menu: a single-player game
	IntentQuit                               // main menu: leave the program
	IntentBack                               // back to the main menu from join, settings, practice
	IntentJoinLAN                            // join Game from the LAN list
	IntentJoinAddr                           // join Addr typed by the player
	IntentSaveSettings                       // keep Settings
	IntentReady                              // lobby: Ready says whether the player is ready
	IntentStart                              // lobby: the host starts the game
	IntentSetup                              // lobby: the host changes the setup to Setup
	IntentSay                                // lobby: chat Text
	IntentLeave                              // lobby, in-game menu: leave the room
	IntentGameMenu                           // in game: Esc opens or closes the in-game menu
	IntentResume                             // in-game menu: close it
	IntentRematch                            // results: back to the lobby, ready for another game
	IntentMainMenu                           // results: leave the room for the main menu
	IntentPause                              // in-game menu, the host: Paused says pause or resume the game for everyone
	IntentOpenReplays                        // main menu: the recent replays
	IntentWatch                              // replays: watch the replay at Path
	IntentRejoin                             // main menu: back into the game at Addr that this player left by a crash
	IntentEndGame                            // in-game menu, the host: end the game for everyone now
	IntentRestart                            // practice menu: a new practice game
	IntentOpenScores                         // main menu, results, a practice game over: the high scores (ScoresMark lit)
	IntentKick                               // lobby, the host: remove the player in Slot from the room
	IntentOpenControls                       // main menu, settings: the Controls screen
	IntentSaveControls                       // controls: keep the bindings of Settings and stay
	IntentJoinCode                           // join the game of the invite code Addr typed or pasted by the player
	IntentHostServer                         // main menu: host a game in a new room on the known server at Addr
	IntentMoveToServer                       // lobby, the host before anyone joined: move the room to the known server at Addr
	IntentJoinRoom                           // join: join room Room of the server at Addr, pinned to its key Pin
)

// Intent is one thing the player asked for.
type Intent struct {
	Kind     IntentKind
	Game     lan.Game   // IntentJoinLAN
	Rejoin   bool       // IntentJoinLAN: the game is the one this player crashed out of; come back with the kept token
	Lobby    bool       // IntentRejoin: the kept seat is a lobby's (its host crashed in it; savedSession.Lobby)
	Addr     string     // IntentJoinAddr, IntentRejoin, IntentJoinCode (the code)
	Ready    bool       // IntentReady
	Setup    game.Setup // IntentSetup
	Text     string     // IntentSay
	Settings Settings   // IntentSaveSettings, IntentSaveControls
	Paused   bool       // IntentPause
	Path     string     // IntentWatch
	Mark     scoresMark // IntentOpenScores: the entry to light
	Slot     uint8      // IntentKick
	Room     uint32     // IntentJoinRoom
	Pin      string     // IntentJoinRoom: the server's host key
	Name     string     // IntentJoinRoom: the room's name
}

// effectKind says what the shell must do.
type effectKind uint8

const (
	effHost         effectKind = iota + 1 // open a room here and join it
	effDial                               // join the room at addr
	effDisconnect                         // leave the room; stop hosting
	effQuit                               // end the program
	effPractice                           // start a single-player game
	effSaveSettings                       // save and apply settings
	effReady                              // session.SetReady(ready)
	effStart                              // session.RequestStart()
	effSetup                              // session.ChangeSetup(setup)
	effSay                                // session.Say(text)
	effEndGame                            // session.EndGame(): the host ends the game for everyone
	effPause                              // session.Pause(ready): the host pauses or resumes
	effRestart                            // start the practice game again
	effKick                               // session.Kick(slot): the host removes a player from the lobby
	effHostServer                         // open a room on the known server at addr and join it as its host (closing any room here)
)

type effect struct {
	kind     effectKind
	addr     string
	rejoin   bool   // effDial: with the token kept for this game
	gameID   string // effDial: the LAN game's id, when joined from the list
	hostFP   string // effDial: the host key the LAN list showed, or an invite code's pin; the dial accepts no other
	ready    bool
	slot     uint8 // effKick
	setup    game.Setup
	text     string
	settings Settings

	addrs []string // effDial: an invite code's addresses, all tried at once (addr is then "")
	room  uint32   // effDial: the room an invite code names on a server (0: the default room)
	// secret: effDial: an unlisted room's secret, which its invite code
	// carries and every Join to it must (0: a listed room)
	secret uint64
}

// netStatus is what the flow observes of the network each frame.
type netStatus struct {
	active  bool               // a session exists or is being set up
	dialing bool               // the connection is being made
	dialErr error              // the connection could not be made
	closed  bool               // the session's loop has stopped
	lost    bool               // closed because the connection was lost, not by our leaving
	phase   phase              //
	host    bool               // the local player is the room's host
	room    wire.RoomState     //
	refusal wire.Refuse        // when phase is Refused
	leave   wire.Leave         // when phase is Left
	ended   bool               // the game ended in the confirmed world (results are read; the room confirms)
	started bool               // the session has a world (the game began)
	desync  *wire.DesyncReport // the game stopped on a desync
	// awayResults: back after the game ended (a Rejoin into the lobby),
	// the room sent that game's world and its results are read
	// (lockstep's AwayResults).
	awayResults bool
}

// flow is the screen state machine.
type flow struct {
	screen   screenID
	notice   string // one line on the main menu: a warning, why a game ended
	joinErr  string // one line on the join screen: why joining failed
	target   string // what is being joined: an address or a game's name
	hosting  bool   // the session is our own room
	gameMenu bool   // the in-game menu is open
	rejoin   bool   // the session is a rejoin with a kept token
	// rejoinLobby: ... for a seat in a lobby, not a game: finding the room
	// in its lobby is no news of a game that ended.
	rejoinLobby bool
	// awayEnded: a rejoin found the room in its lobby (the last game's
	// results, or the rematch's setup): the game this player crashed out
	// of ended while it was away. The lobby says so, and who hosts now,
	// until the next game starts or the player leaves the room.
	awayEnded bool
	awayShown bool // the results of the game that ended while away were shown (once)

	replay     string // the replay being watched
	replayOnly bool   // the program was started to watch one replay: leaving it quits

	scoresMark scoresMark // the entry the high scores light
	scoresBack screenID   // where the high scores go back to: the menu, the results, practice (play again)

	// roomGone, on the results, says why the room is gone (the host left,
	// the server stopped, the connection was lost): the table stays until
	// the player leaves it, with no rematch to go back to.
	roomGone string

	controlsFrom screenID // where Back leaves the Controls screen for
	// settingsFrom is where Save and Cancel leave Settings for: the menu,
	// or the lobby of a room we host that asked for a server to be added
	// (its room stays open meanwhile).
	settingsFrom screenID
}

// openScores shows the high scores from screen from, with mark lit.
func (f *flow) openScores(from screenID, mark scoresMark) {
	f.screen, f.scoresBack, f.scoresMark, f.gameMenu = screenScores, from, mark, false
}

// apply handles an intent and returns what the shell must do: each
// screen's intents are its own method's.
func (f *flow) apply(in Intent) []effect {
	switch f.screen {
	case screenMenu:
		return f.applyMenu(in)
	case screenReplays:
		return f.applyReplays(in)
	case screenReplay:
		return f.applyReplay(in)
	case screenJoin:
		return f.applyJoin(in)
	case screenSettings:
		return f.applySettings(in)
	case screenControls:
		return f.applyControls(in)
	case screenPractice:
		return f.applyPractice(in)
	case screenScores:
		return f.applyScores(in)
	case screenLobby:
		return f.applyLobby(in)
	case screenPlay:
		return f.applyPlay(in)
	case screenResults:
		return f.applyResults(in)
	}
	return nil
}

// applyMenu handles an intent on the menu screen.
func (f *flow) applyMenu(in Intent) []effect {
	switch in.Kind {
	case IntentHost:
		f.notice, f.hosting, f.target = "", true, "your game"
		f.screen = screenLobby
		return []effect{{kind: effHost}}
	case IntentHostServer:
		f.notice, f.hosting, f.target = "", true, in.Addr
		f.screen = screenLobby
		return []effect{{kind: effHostServer, addr: in.Addr}}
	case IntentOpenJoin:
		f.notice, f.joinErr = "", ""
		f.screen = screenJoin
	case IntentOpenSettings:
		f.notice = ""
		f.screen, f.settingsFrom = screenSettings, screenMenu
	case IntentOpenControls:
		f.notice = ""
		f.screen, f.controlsFrom = screenControls, screenMenu
	case IntentPractice:
		f.notice = ""
		f.screen = screenPractice
		return []effect{{kind: effPractice}}
	case IntentOpenReplays:
		f.notice = ""
		f.screen = screenReplays
	case IntentOpenScores:
		f.notice = ""
		f.openScores(screenMenu, scoresMark{rank: -1})
	case IntentWatch:
		f.notice, f.replay = "", in.Path
		f.screen = screenReplay
	case IntentRejoin:
		f.notice, f.joinErr, f.target, f.hosting, f.rejoin = "", "", in.Addr, false, true
		f.rejoinLobby = in.Lobby
		f.screen = screenJoin
		return []effect{{kind: effDial, addr: in.Addr, rejoin: true}}
	case IntentQuit:
		return []effect{{kind: effQuit}}
	case IntentSaveSettings: // the first start's name
		return []effect{{kind: effSaveSettings, settings: in.Settings}}
	}
	return nil
}

// applyReplays handles an intent on the replays screen.
func (f *flow) applyReplays(in Intent) []effect {
	switch in.Kind {
	case IntentWatch:
		f.replay = in.Path
		f.screen = screenReplay
	case IntentBack:
		f.screen = screenMenu
	}
	return nil
}

// applyReplay handles an intent on the replay screen.
func (f *flow) applyReplay(in Intent) []effect {
	if in.Kind == IntentBack {
		if f.replayOnly {
			return []effect{{kind: effQuit}}
		}
		f.screen = screenReplays
	}
	return nil
}

// applyJoin handles an intent on the join screen.
func (f *flow) applyJoin(in Intent) []effect {
	switch in.Kind {
	case IntentBack:
		if f.target != "" {
			f.target = ""
			return []effect{{kind: effDisconnect}} // stop trying
		}
		f.screen = screenMenu
	case IntentJoinLAN:
		if f.target != "" {
			return nil // one attempt at a time
		}
		if !in.Game.Compatible {
			f.joinErr = fmt.Sprintf("%s runs another version of Rockstep (protocol %d, ours %d) and cannot be joined", gameName(in.Game), in.Game.Version, wire.Version)
			return nil
		}
		f.joinErr, f.target, f.hosting, f.rejoin = "", gameName(in.Game), false, in.Rejoin
		f.rejoinLobby = false
		return []effect{{kind: effDial, addr: in.Game.Addr.String(), rejoin: in.Rejoin, gameID: in.Game.ID, hostFP: in.Game.Fingerprint}}
	case IntentJoinCode:
		if f.target != "" {
			return nil
		}
		return f.joinCode(in.Addr)
	case IntentJoinRoom:
		if f.target != "" || in.Addr == "" || in.Room == 0 {
			return nil
		}
		f.joinErr, f.target, f.hosting, f.rejoin = "", "“"+in.Name+"” on "+in.Addr, false, false
		return []effect{{kind: effDial, addr: in.Addr, hostFP: in.Pin, room: in.Room}}
	case IntentJoinAddr:
		if f.target != "" {
			return nil
		}
		if _, link := invite.FromLink(in.Addr); link || invite.Looks(in.Addr) { // pasted in the address field, or -join CODE
			return f.joinCode(in.Addr)
		}
		addr, err := parseJoinAddr(in.Addr)
		if err != nil {
			f.joinErr = err.Error()
			return nil
		}
		f.joinErr, f.target, f.hosting, f.rejoin = "", addr, false, false
		return []effect{{kind: effDial, addr: addr}}
	}
	return nil
}

// applySettings handles an intent on the settings screen.
func (f *flow) applySettings(in Intent) []effect {
	switch in.Kind {
	case IntentSaveSettings:
		f.screen = f.settingsFrom
		return []effect{{kind: effSaveSettings, settings: in.Settings}}
	case IntentOpenControls:
		f.screen, f.controlsFrom = screenControls, screenSettings
	case IntentBack:
		f.screen = f.settingsFrom
	}
	return nil
}

// applyControls handles an intent on the controls screen.
func (f *flow) applyControls(in Intent) []effect {
	switch in.Kind {
	case IntentSaveControls:
		return []effect{{kind: effSaveSettings, settings: in.Settings}}
	case IntentBack:
		f.screen = f.controlsFrom
	}
	return nil
}

// applyPractice handles an intent on the practice screen.
func (f *flow) applyPractice(in Intent) []effect {
	// Esc opens the practice menu, which pauses the game.
	switch in.Kind {
	case IntentBack, IntentMainMenu:
		f.screen, f.gameMenu = screenMenu, false
	case IntentGameMenu:
		f.gameMenu = !f.gameMenu
	case IntentResume:
		f.gameMenu = false
	case IntentRestart:
		f.gameMenu = false
		return []effect{{kind: effRestart}}
	case IntentOpenScores:
		f.openScores(screenPractice, in.Mark)
	}
	return nil
}

// applyScores handles an intent on the scores screen.
func (f *flow) applyScores(in Intent) []effect {
	switch in.Kind {
	case IntentBack, IntentMainMenu:
		if f.scoresBack == screenResults {
			f.screen = screenResults
		} else {
			f.screen = screenMenu
		}
	case IntentPractice:
		if f.scoresBack == screenPractice {
			f.screen = screenPractice
			return []effect{{kind: effPractice}}
		}
	}
	return nil
}

// applyLobby handles an intent on the lobby screen.
func (f *flow) applyLobby(in Intent) []effect {
	switch in.Kind {
	case IntentReady:
		return []effect{{kind: effReady, ready: in.Ready}}
	case IntentStart:
		return []effect{{kind: effStart}}
	case IntentSetup:
		return []effect{{kind: effSetup, setup: in.Setup}}
	case IntentKick:
		return []effect{{kind: effKick, slot: in.Slot}}
	case IntentOpenSettings: // "Add a community server": Settings → Servers, and back
		if !f.hosting {
			return nil
		}
		f.screen, f.settingsFrom = screenSettings, screenLobby
	case IntentMoveToServer:
		if !f.hosting || in.Addr == "" {
			return nil
		}
		f.target = in.Addr
		return []effect{{kind: effHostServer, addr: in.Addr}}
	case IntentSay:
		if t := strings.TrimSpace(in.Text); t != "" {
			return []effect{{kind: effSay, text: t}}
		}
	case IntentLeave, IntentBack:
		return f.leave("")
	}
	return nil
}

// applyPlay handles an intent on the play screen.
func (f *flow) applyPlay(in Intent) []effect {
	switch in.Kind {
	case IntentGameMenu:
		f.gameMenu = !f.gameMenu
	case IntentResume:
		f.gameMenu = false
	case IntentPause:
		return []effect{{kind: effPause, ready: in.Paused}}
	case IntentEndGame:
		f.gameMenu = false
		return []effect{{kind: effEndGame}}
	case IntentLeave:
		return f.leave("")
	}
	return nil
}

// applyResults handles an intent on the results screen.
func (f *flow) applyResults(in Intent) []effect {
	switch in.Kind {
	case IntentRematch:
		if f.roomGone != "" {
			return nil // no room to go back to
		}
		f.screen = screenLobby
		return []effect{{kind: effReady, ready: true}}
	case IntentMainMenu, IntentLeave, IntentBack:
		return f.leave("")
	case IntentOpenScores:
		f.openScores(screenResults, in.Mark)
	}
	return nil
}

// leave ends the session and goes to the main menu with notice.
func (f *flow) leave(notice string) []effect {
	*f = flow{screen: screenMenu, notice: notice}
	return []effect{{kind: effDisconnect}}
}

// observe follows the session: where it is decides the screen.
func (f *flow) observe(n netStatus) []effect {
	switch f.screen {
	case screenMenu, screenSettings, screenPractice, screenReplays, screenReplay, screenControls:
		return nil
	case screenScores:
		if f.scoresBack != screenResults {
			return nil
		}
		// From the results: still in the room.
	case screenJoin:
		if f.target == "" || !n.active {
			return nil
		}
		if err := f.failure(n); err != "" {
			f.joinErr, f.target = err, ""
			return []effect{{kind: effDisconnect}}
		}
		switch n.phase {
		case phaseLobby:
			// A kept token is for a game that was running (ui/rejoin.go):
			// a lobby is its end.
			f.screen, f.awayEnded, f.awayShown = screenLobby, f.rejoin && !f.rejoinLobby, false
		case phaseStarting, phasePlaying:
			// A game in progress: watching, or back in our own slot,
			// once the snapshot has caught us up.
			f.screen, f.gameMenu = screenPlay, false
		case phaseFinished:
			f.screen = screenResults
		}
		return nil
	}
	// In a room: lobby, play or results.
	if err := f.failure(n); err != "" {
		if f.hosting {
			return f.leave("could not host: " + err)
		}
		return f.leave(err)
	}
	gone := ""
	switch {
	case n.lost && n.phase != phaseLeft:
		// No answer for seconds, or the host hung up on a player it had
		// given up on (a machine that froze): say so, not "closed". A
		// player in a game finds Rejoin on the menu.
		gone = leaves[wire.LeaveTimeout]
	case n.phase == phaseLeft || n.closed:
		gone = leaveText(n.leave)
	}
	if gone != "" {
		if f.screen == screenResults || f.screen == screenScores {
			// The game is over and its table is ours, read from our
			// own world: the player reads it to the end.
			f.roomGone = gone
			return nil
		}
		return f.leave(gone)
	}
	switch f.screen {
	case screenLobby:
		if (n.phase == phasePlaying || n.phase == phaseStarting) && n.room == wire.StateRunning {
			f.screen, f.gameMenu, f.awayEnded = screenPlay, false, false
		} else if f.awayEnded && n.awayResults && !f.awayShown {
			// Back after the game ended: its results first, then the
			// lobby (Back to lobby), which says who hosts the next.
			f.screen, f.awayShown = screenResults, true
		}
	case screenPlay:
		// The results come once our confirmed world has ended and the
		// room has confirmed it: the same table on every machine.
		if n.phase == phaseFinished || (n.ended && n.phase == phaseLobby) {
			f.screen, f.gameMenu = screenResults, false
		}
	case screenResults:
		if n.phase == phasePlaying && n.room == wire.StateRunning {
			// The rematch started: we pressed Back to lobby on another
			// path (a rematch starts only with everyone ready).
			f.screen = screenPlay
		}
	}
	return nil
}

// failure returns why joining failed, or "".
func (f *flow) failure(n netStatus) string {
	switch {
	case n.dialErr != nil:
		return dialErrorText(f.target, n.dialErr)
	case n.phase == phaseRefused:
		return refusalText(n.refusal)
	case n.closed && n.phase == phaseJoining:
		return "the connection to " + f.target + " was lost while joining"
	}
	return ""
}

// gameName is how the UI names a LAN game.
func gameName(g lan.Game) string {
	if g.Name != "" {
		return "“" + g.Name + "”"
	}
	return g.Addr.String()
}

// parseJoinAddr turns what the player typed into host:port, adding the
// default port when there is none.
func parseJoinAddr(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", fmt.Errorf("type the address of a game, like 192.168.1.20 or myhost:%d", wire.DefaultPort)
	}
	host, port, err := net.SplitHostPort(s)
	if err != nil {
		// No port: a name, an IPv4 address, or an IPv6 one with or
		// without brackets.
		h := strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
		if strings.ContainsAny(h, " /[]") {
			return "", fmt.Errorf("%q is not an address: want host or host:port", s)
		}
		return net.JoinHostPort(h, strconv.Itoa(wire.DefaultPort)), nil
	}
	if host == "" {
		return "", fmt.Errorf("%q has no host: want host or host:port", s)
	}
	if p, err := strconv.Atoi(port); err != nil || p < 1 || p > 65535 {
		return "", fmt.Errorf("%q: port %q is not a number from 1 to 65535", s, port)
	}
	return net.JoinHostPort(host, port), nil
}

// dialErrorText explains in plain words why the connection to target
// failed: no answer, no such name, a refusal, or (rarely) what the system
// said, without the layers of "dial …:" around it.
func dialErrorText(target string, err error) string {
	var dnsErr *net.DNSError
	var refused *transport.RefusedError
	var changed *ServerKeyError
	var refusedRoom *ServerRefusedError
	switch {
	case errors.As(err, &changed):
		return sentence(changed.Error())
	case errors.As(err, &refusedRoom):
		return sentence(refusedRoom.Error())
	case noAnswer(err) != "": // an invite code's addresses, all silent
		return "The host did not answer (at " + noAnswer(err) + "): the game may have ended, or none of the code's addresses can be reached from here."
	case errors.Is(err, transport.ErrHostKey):
		return "Not joined: the computer that answered is not the host of " + target + " (its host key differs). Check the code or the address with the host."
	case errors.Is(err, transport.ErrTimeout), errors.Is(err, context.DeadlineExceeded):
		return fmt.Sprintf("No answer from %s in %d seconds. Is the game still hosted, and is the address right?", target, int(dialTimeout/time.Second))
	case errors.As(err, &dnsErr):
		name := dnsErr.Name
		if name == "" {
			name = target
		}
		return fmt.Sprintf("No computer named “%s” was found on the network. Check the name, or type its address, like 192.168.1.20.", name)
	case errors.As(err, &refused):
		switch refused.Reason {
		case transport.RefuseFull:
			return "Cannot join " + target + ": the host has as many players as it can take."
		case transport.RefusePerIP:
			return "Cannot join " + target + ": too many players from this computer are in it already."
		case transport.RefuseVersion:
			return "Cannot join " + target + ": it runs another version of Rockstep."
		}
		return "Cannot join " + target + ": the host refused the connection."
	case errors.Is(err, transport.ErrRefused):
		return "Cannot join " + target + ": the host refused the connection."
	}
	// Whatever the system said, without the wrapping layers.
	for {
		inner := errors.Unwrap(err)
		if inner == nil {
			break
		}
		err = inner
	}
	return "Cannot reach " + target + ": " + err.Error() + "."
}

// refusals explains each reason a room may turn us away for.
var refusals = map[wire.RefuseReason]string{
	wire.RefuseFull:       "the game is full",
	wire.RefuseRunning:    "the game has already started",
	wire.RefuseBadToken:   "the game you were in has ended, or your place in it was given up",
	wire.RefuseVersion:    "the game runs another version of Rockstep",
	wire.RefuseNoRoom:     "that room does not exist (any more)",
	wire.RefuseShutdown:   "the server is shutting down",
	wire.RefuseRateLimit:  "the server is busy: try again in a moment",
	wire.RefuseBanned:     "the host removed you from this game",
	wire.RefuseNotHosting: "that player does not host the game",
	wire.RefuseMoving:     "that player does not host the game",
	wire.RefuseRules:      "another version of the game (its rules differ)",
	wire.RefuseRoomKey:    "this server opens rooms only for players with its room key",
}

// refusalText explains why a room turned us away.
func refusalText(r wire.Refuse) string {
	return "Cannot join: " + explain(refusals[r.Reason], "the room refused us", r.Text)
}

// leaves explains each reason a room may send us away for.
var leaves = map[wire.LeaveReason]string{
	0:                  "The game was closed.",
	wire.LeaveQuit:     "The game was closed.",
	wire.LeaveKicked:   "You were removed from the game.",
	wire.LeaveShutdown: "The room was closed.",
	wire.LeaveTimeout:  "The connection to the game was lost.",
	wire.LeaveGameOver: "The game is over.",
	wire.LeaveTooSlow:  "Your computer could not keep up with the game.",
}

// leaveText explains why the room sent us away.
func leaveText(l wire.Leave) string {
	if l.Reason == wire.LeaveStrayed {
		// Not a choice of ours: say who decided and why.
		why := l.Text
		if why == "" {
			why = "your game kept disagreeing with the others'"
		}
		return "You were sent away: " + why + "."
	}
	return explain(leaves[l.Reason], "You left the game.", l.Text)
}

// explain is known, or otherwise if it is empty, followed by the room's
// own words in brackets if it sent any.
func explain(known, otherwise, text string) string {
	if known == "" {
		known = otherwise
	}
	if text != "" {
		known += " (" + text + ")"
	}
	return known
}
