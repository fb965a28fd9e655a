package ui

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"

	"rockstep/game"
	"rockstep/net/lan"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

func kinds(effs []effect) []effectKind {
	var k []effectKind
	for _, e := range effs {
		k = append(k, e.kind)
	}
	return k
}

func wantEffects(t *testing.T, step string, got []effect, want ...effectKind) {
	t.Helper()
	if fmt.Sprint(kinds(got)) != fmt.Sprint(want) {
		t.Fatalf("%s: effects %v, want %v", step, kinds(got), want)
	}
}

func wantScreen(t *testing.T, step string, f *flow, want screenID) {
	t.Helper()
	if f.screen != want {
		t.Fatalf("%s: screen %v, want %v", step, f.screen, want)
	}
}

func lanGame(name string, compatible bool) lan.Game {
	return lan.Game{
		ID: name, Name: name, Host: "box", Addr: netip.MustParseAddrPort("192.0.2.7:7777"),
		Players: 1, Max: 8, State: wire.StateSetup.String(), Version: wire.Version, Compatible: compatible,
	}
}

func TestMainMenuIntents(t *testing.T) {
	tests := []struct {
		intent IntentKind
		screen screenID
		effs   []effectKind
	}{
		{IntentHost, screenLobby, []effectKind{effHost}},
		{IntentOpenJoin, screenJoin, nil},
		{IntentOpenSettings, screenSettings, nil},
		{IntentPractice, screenPractice, []effectKind{effPractice}},
		{IntentOpenReplays, screenReplays, nil},
		{IntentQuit, screenMenu, []effectKind{effQuit}},
		{IntentStart, screenMenu, nil}, // not a menu intent: ignored
	}
	for _, tc := range tests {
		f := &flow{notice: "old news"}
		effs := f.apply(Intent{Kind: tc.intent})
		wantEffects(t, fmt.Sprint("intent ", tc.intent), effs, tc.effs...)
		wantScreen(t, fmt.Sprint("intent ", tc.intent), f, tc.screen)
	}
}

func TestJoinFromTheLANListToPlayAndResults(t *testing.T) {
	f := &flow{}
	f.apply(Intent{Kind: IntentOpenJoin})
	g := lanGame("Friday", true)
	g.Fingerprint = "00112233445566778899aabbccddeeff"
	effs := f.apply(Intent{Kind: IntentJoinLAN, Game: g})
	wantEffects(t, "join", effs, effDial)
	if effs[0].addr != "192.0.2.7:7777" || effs[0].hostFP != g.Fingerprint {
		t.Errorf("dial %q expecting host key %q, want the listing's %q", effs[0].addr, effs[0].hostFP, g.Fingerprint)
	}
	wantEffects(t, "second click while joining", f.apply(Intent{Kind: IntentJoinLAN, Game: g}))
	wantEffects(t, "dialling", f.observe(netStatus{active: true, dialing: true}))
	wantScreen(t, "dialling", f, screenJoin)
	f.observe(netStatus{active: true, phase: phaseJoining})
	wantScreen(t, "joining", f, screenJoin)
	f.observe(netStatus{active: true, phase: phaseLobby})
	wantScreen(t, "welcomed", f, screenLobby)

	wantEffects(t, "ready", f.apply(Intent{Kind: IntentReady, Ready: true}), effReady)
	wantEffects(t, "blank chat", f.apply(Intent{Kind: IntentSay, Text: "   "}))
	wantEffects(t, "chat", f.apply(Intent{Kind: IntentSay, Text: "hi"}), effSay)

	f.observe(netStatus{active: true, phase: phaseStarting, room: wire.StateRunning})
	wantScreen(t, "starting", f, screenPlay)
	f.observe(netStatus{active: true, phase: phasePlaying, room: wire.StateRunning})
	wantScreen(t, "playing", f, screenPlay)

	f.apply(Intent{Kind: IntentGameMenu})
	if !f.gameMenu {
		t.Fatal("Esc did not open the in-game menu")
	}
	f.apply(Intent{Kind: IntentResume})
	if f.gameMenu {
		t.Fatal("Resume did not close the in-game menu")
	}
	if effs := f.apply(Intent{Kind: IntentPause, Paused: true}); len(effs) != 1 || effs[0].kind != effPause || !effs[0].ready {
		t.Fatalf("pause: effects %+v", effs)
	}

	// Our world has ended: the results wait for the room to confirm.
	wantEffects(t, "ended here", f.observe(netStatus{active: true, phase: phasePlaying, room: wire.StateRunning, ended: true}))
	wantScreen(t, "ended here", f, screenPlay)
	f.observe(netStatus{active: true, phase: phasePlaying, room: wire.StateFinished})
	wantScreen(t, "room finished, our world behind", f, screenPlay)
	f.observe(netStatus{active: true, phase: phaseFinished, room: wire.StateFinished, ended: true})
	wantScreen(t, "finished", f, screenResults)

	wantEffects(t, "rematch", f.apply(Intent{Kind: IntentRematch}), effReady)
	wantScreen(t, "rematch", f, screenLobby)
	f.observe(netStatus{active: true, phase: phasePlaying, room: wire.StateRunning})
	wantScreen(t, "second game", f, screenPlay)
	f.observe(netStatus{active: true, phase: phaseFinished, room: wire.StateFinished})
	wantEffects(t, "main menu", f.apply(Intent{Kind: IntentMainMenu}), effDisconnect)
	wantScreen(t, "main menu", f, screenMenu)
}

// TestNoOneEndsTheGameFromTheDrawnWorld: game over is the confirmed
// world's, reported to the room by every client: the flow never asks the
// room to end a game, whatever the drawn world shows; only the host's
// menu choice does.
func TestNoOneEndsTheGameFromTheDrawnWorld(t *testing.T) {
	f := &flow{}
	wantEffects(t, "host", f.apply(Intent{Kind: IntentHost}), effHost)
	if !f.hosting {
		t.Fatal("not hosting")
	}
	f.observe(netStatus{active: true, phase: phaseLobby, host: true})
	wantEffects(t, "start", f.apply(Intent{Kind: IntentStart}), effStart)
	wantEffects(t, "setup", f.apply(Intent{Kind: IntentSetup, Setup: game.Setup{Lives: 5}}), effSetup)
	f.observe(netStatus{active: true, phase: phasePlaying, room: wire.StateRunning, host: true})
	wantScreen(t, "playing", f, screenPlay)
	wantEffects(t, "ended", f.observe(netStatus{active: true, phase: phasePlaying, room: wire.StateRunning, host: true, ended: true}))
	f.observe(netStatus{active: true, phase: phaseFinished, room: wire.StateFinished, host: true, ended: true})
	wantScreen(t, "finished", f, screenResults)
	f.apply(Intent{Kind: IntentRematch})
	wantScreen(t, "rematch", f, screenLobby)
	f.observe(netStatus{active: true, phase: phasePlaying, room: wire.StateRunning, host: true})
	f.apply(Intent{Kind: IntentGameMenu})
	wantEffects(t, "the host ends the game", f.apply(Intent{Kind: IntentEndGame}), effEndGame)
	if f.gameMenu {
		t.Error("the menu stayed open after ending the game")
	}
}

// TestRejoinFromTheMenu: Rejoin dials the kept game with its token and
// goes to the game once the session is playing.
func TestRejoinFromTheMenu(t *testing.T) {
	f := &flow{}
	effs := f.apply(Intent{Kind: IntentRejoin, Addr: "192.0.2.7:7777"})
	wantEffects(t, "rejoin", effs, effDial)
	if !effs[0].rejoin || effs[0].addr != "192.0.2.7:7777" {
		t.Fatalf("rejoin effect %+v", effs[0])
	}
	wantScreen(t, "rejoining", f, screenJoin)
	f.observe(netStatus{active: true, phase: phaseStarting, room: wire.StateRunning})
	wantScreen(t, "catching up", f, screenPlay)
}

func TestJoinFailuresStayOnTheJoinScreen(t *testing.T) {
	tests := []struct {
		name string
		n    netStatus
		want string
	}{
		{"timed out", netStatus{active: true, dialErr: fmt.Errorf("dial: %w", transport.ErrTimeout)}, "No answer from 10.0.0.9:7777 in 5 seconds"},
		{"dial context ended", netStatus{active: true, dialErr: fmt.Errorf("dial 10.0.0.9:7777: %w", context.DeadlineExceeded)}, "No answer from 10.0.0.9:7777 in 5 seconds"},
		{"name not found", netStatus{active: true, dialErr: fmt.Errorf("dial zzz:7777: %w", &net.DNSError{Err: "no such host", Name: "zzz", IsNotFound: true})}, "No computer named “zzz” was found"},
		{"connection refused", netStatus{active: true, dialErr: transport.ErrRefused}, "the host refused the connection"},
		{"transport full", netStatus{active: true, dialErr: fmt.Errorf("dial: %w", &transport.RefusedError{Reason: transport.RefuseFull})}, "as many players as it can take"},
		{"transport version", netStatus{active: true, dialErr: fmt.Errorf("dial: %w", &transport.RefusedError{Reason: transport.RefuseVersion})}, "another version of Rockstep"},
		{"other", netStatus{active: true, dialErr: fmt.Errorf("dial 10.0.0.9:7777: %w", &net.OpError{Op: "write", Net: "udp", Err: errors.New("network is unreachable")})}, "Cannot reach 10.0.0.9:7777: network is unreachable."},
		{"full", netStatus{active: true, phase: phaseRefused, refusal: wire.Refuse{Reason: wire.RefuseFull}}, "full"},
		{"running", netStatus{active: true, phase: phaseRefused, refusal: wire.Refuse{Reason: wire.RefuseRunning}}, "already started"},
		{"bad token", netStatus{active: true, phase: phaseRefused, refusal: wire.Refuse{Reason: wire.RefuseBadToken}}, "has ended"},
		{"version", netStatus{active: true, phase: phaseRefused, refusal: wire.Refuse{Reason: wire.RefuseVersion, Text: "v3"}}, "another version of Rockstep (v3)"},
		{"lost while joining", netStatus{active: true, phase: phaseJoining, closed: true}, "lost"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := &flow{screen: screenJoin}
			wantEffects(t, "join", f.apply(Intent{Kind: IntentJoinAddr, Addr: "10.0.0.9"}), effDial)
			wantEffects(t, "failure", f.observe(tc.n), effDisconnect)
			wantScreen(t, "failure", f, screenJoin)
			if !strings.Contains(f.joinErr, tc.want) {
				t.Errorf("error %q, want it to say %q", f.joinErr, tc.want)
			}
			// Plain words: none of the layers a Go error is wrapped in.
			for _, raw := range []string{"dial ", "context deadline", "lookup ", "transport:"} {
				if strings.Contains(f.joinErr, raw) {
					t.Errorf("error %q says %q", f.joinErr, raw)
				}
			}
			// The player can try again at once.
			wantEffects(t, "retry", f.apply(Intent{Kind: IntentJoinAddr, Addr: "10.0.0.9:7000"}), effDial)
		})
	}
}

func TestIncompatibleGamesCannotBeJoined(t *testing.T) {
	f := &flow{screen: screenJoin}
	g := lanGame("Old", false)
	g.Version = wire.Version + 1
	wantEffects(t, "join incompatible", f.apply(Intent{Kind: IntentJoinLAN, Game: g}))
	if !strings.Contains(f.joinErr, "another version") {
		t.Errorf("error %q", f.joinErr)
	}
}

func TestBackWhileJoiningCancels(t *testing.T) {
	f := &flow{screen: screenJoin}
	f.apply(Intent{Kind: IntentJoinAddr, Addr: "example.org"})
	wantEffects(t, "back while dialling", f.apply(Intent{Kind: IntentBack}), effDisconnect)
	wantScreen(t, "back while dialling", f, screenJoin)
	wantEffects(t, "back", f.apply(Intent{Kind: IntentBack}))
	wantScreen(t, "back", f, screenMenu)
}

func TestBeingSentAwayShowsWhyOnTheMenu(t *testing.T) {
	for _, s := range []screenID{screenLobby, screenPlay} {
		f := &flow{screen: s}
		wantEffects(t, s.String(), f.observe(netStatus{active: true, phase: phaseLeft, leave: wire.Leave{Reason: wire.LeaveShutdown, Text: "Ada left"}}), effDisconnect)
		wantScreen(t, s.String(), f, screenMenu)
		if f.notice != "The room was closed. (Ada left)" {
			t.Errorf("%v: notice %q", s, f.notice)
		}
	}
	f := &flow{screen: screenPlay}
	f.observe(netStatus{active: true, phase: phasePlaying, closed: true})
	wantScreen(t, "loop stopped", f, screenMenu)
	// A connection lost in the game (no answer, or the host hung up on a
	// machine that froze) is named as such, not as a closed game.
	for _, s := range []screenID{screenLobby, screenPlay} {
		f := &flow{screen: s}
		wantEffects(t, s.String(), f.observe(netStatus{active: true, phase: phasePlaying, closed: true, lost: true}), effDisconnect)
		wantScreen(t, s.String()+" lost", f, screenMenu)
		if !strings.Contains(f.notice, "connection to the game was lost") {
			t.Errorf("%v, connection lost: notice %q", s, f.notice)
		}
	}
}

func TestHostingFailureReturnsToTheMenu(t *testing.T) {
	f := &flow{}
	f.apply(Intent{Kind: IntentHost})
	f.observe(netStatus{active: true, dialErr: fmt.Errorf("listen udp :7777: address in use")})
	wantScreen(t, "host failed", f, screenMenu)
	if !strings.Contains(f.notice, "could not host") {
		t.Errorf("notice %q", f.notice)
	}
}

func TestLeavingFromTheLobbyAndTheGameMenu(t *testing.T) {
	f := &flow{screen: screenLobby}
	wantEffects(t, "lobby leave", f.apply(Intent{Kind: IntentLeave}), effDisconnect)
	wantScreen(t, "lobby leave", f, screenMenu)
	f = &flow{screen: screenPlay, gameMenu: true}
	wantEffects(t, "game leave", f.apply(Intent{Kind: IntentLeave}), effDisconnect)
	wantScreen(t, "game leave", f, screenMenu)
	if f.gameMenu {
		t.Error("the in-game menu stayed open")
	}
}

func TestSettingsAndPracticeReturnToTheMenu(t *testing.T) {
	f := &flow{screen: screenSettings}
	s := DefaultSettings()
	effs := f.apply(Intent{Kind: IntentSaveSettings, Settings: s})
	wantEffects(t, "save", effs, effSaveSettings)
	if effs[0].settings.PlayerID != s.PlayerID {
		t.Error("settings not passed on")
	}
	wantScreen(t, "save", f, screenMenu)
	f = &flow{screen: screenPractice}
	f.apply(Intent{Kind: IntentBack})
	wantScreen(t, "practice back", f, screenMenu)

	f = &flow{screen: screenPractice}
	f.apply(Intent{Kind: IntentGameMenu})
	if !f.gameMenu {
		t.Error("Esc in practice: no menu")
	}
	wantEffects(t, "restart", f.apply(Intent{Kind: IntentRestart}), effRestart)
	wantScreen(t, "restart", f, screenPractice)
	if f.gameMenu {
		t.Error("the practice menu stayed open after Restart")
	}
	f.apply(Intent{Kind: IntentGameMenu})
	f.apply(Intent{Kind: IntentMainMenu})
	wantScreen(t, "practice main menu", f, screenMenu)
	if f.gameMenu {
		t.Error("the menu flag outlived the practice game")
	}
}

func TestParseJoinAddr(t *testing.T) {
	tests := []struct{ in, want, err string }{
		{"192.168.1.20", "192.168.1.20:7777", ""},
		{" 192.168.1.20:7000 ", "192.168.1.20:7000", ""},
		{"myhost", "myhost:7777", ""},
		{"myhost:7778", "myhost:7778", ""},
		{"::1", "[::1]:7777", ""},
		{"[::1]", "[::1]:7777", ""},
		{"[fe80::1]:9000", "[fe80::1]:9000", ""},
		{"", "", "type the address"},
		{"host:99999", "", "port"},
		{"host:x", "", "port"},
		{":7777", "", "no host"},
		{"a b", "", "not an address"},
	}
	for _, tc := range tests {
		got, err := parseJoinAddr(tc.in)
		switch {
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("parseJoinAddr(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("parseJoinAddr(%q) = %q, %v; want an error saying %q", tc.in, got, err, tc.err)
		}
	}
}

func TestLANRowsMergeSortAndGrey(t *testing.T) {
	now := time.Now()
	a := lanGame("alpha", true)
	b := lanGame("Bravo", true)
	b.ID, b.Addr = "b", netip.MustParseAddrPort("192.0.2.8:7777")
	bOld := b
	bOld.Addr, bOld.Seen, bOld.Players = netip.MustParseAddrPort("[fe80::8]:7777"), now.Add(-time.Second), 5
	b.Seen = now
	old := lanGame("aardvark", false)
	old.ID, old.Version = "old", wire.Version+1
	full := lanGame("charlie", true)
	full.ID, full.Players, full.Max = "full", 4, 4
	run := lanGame("delta", true)
	run.ID, run.State = "run", wire.StateRunning.String()

	rows := lanRows([]lan.Game{old, bOld, a, full, b, run}, nil)
	var got []string
	for _, r := range rows {
		got = append(got, fmt.Sprintf("%s:%s:%v", r.Game.Name, r.Action, r.Joinable))
	}
	want := []string{"alpha:Join:true", "Bravo:Join:true", "delta:Watch:true", fmt.Sprintf("aardvark:v%d:false", wire.Version+1), "charlie:Full:false"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("rows %v\nwant %v", got, want)
	}
	if rows[1].Game.Addr != b.Addr || rows[1].Players != "1/8" {
		t.Errorf("merged Bravo = %v %s, want the newest answer (%v, 1/8)", rows[1].Game.Addr, rows[1].Players, b.Addr)
	}
	if !strings.Contains(rows[3].State, "other version") {
		t.Errorf("incompatible state %q", rows[3].State)
	}
	if lanSignature(rows) == lanSignature(lanRows([]lan.Game{a, b}, nil)) {
		t.Error("signature does not change with the list")
	}
	if lanSignature(rows) != lanSignature(lanRows([]lan.Game{run, full, b, a, bOld, old}, nil)) {
		t.Error("signature depends on the order games came in")
	}
	// The game this player crashed out of: Rejoin, first; by LAN id, or
	// by address when joined by address.
	for _, kept := range []*savedSession{{GameID: "run", Addr: "x"}, {Addr: run.Addr.String()}} {
		rows = lanRows([]lan.Game{a, b, run}, kept)
		if r := rows[0]; r.Game.ID != "run" || r.Action != "Rejoin" || !r.Rejoin || !r.Joinable {
			t.Errorf("kept %+v: first row %+v, want Rejoin for the running game", kept, r)
		}
	}
	if rows := lanRows([]lan.Game{run}, &savedSession{GameID: "other"}); rows[0].Action != "Watch" {
		t.Errorf("another game's kept session made %q", rows[0].Action)
	}
}

// TestReplaysFlow: the menu's Replays opens the list; Watch opens the
// viewer, whose Back returns to the list, and from there to the menu. A
// program started to watch one replay (-replay FILE) quits on Back.
func TestReplaysFlow(t *testing.T) {
	f := &flow{}
	wantEffects(t, "open replays", f.apply(Intent{Kind: IntentOpenReplays}))
	wantScreen(t, "open replays", f, screenReplays)
	wantEffects(t, "watch", f.apply(Intent{Kind: IntentWatch, Path: "/r/a.rsrp"}))
	wantScreen(t, "watch", f, screenReplay)
	if f.replay != "/r/a.rsrp" {
		t.Fatalf("watching %q", f.replay)
	}
	wantEffects(t, "the network is quiet", f.observe(netStatus{}))
	wantScreen(t, "the network is quiet", f, screenReplay)
	wantEffects(t, "back from the viewer", f.apply(Intent{Kind: IntentBack}))
	wantScreen(t, "back from the viewer", f, screenReplays)
	wantEffects(t, "back from the list", f.apply(Intent{Kind: IntentBack}))
	wantScreen(t, "back from the list", f, screenMenu)

	only := &flow{replayOnly: true}
	wantEffects(t, "-replay FILE", only.apply(Intent{Kind: IntentWatch, Path: "b.rsrp"}))
	wantScreen(t, "-replay FILE", only, screenReplay)
	wantEffects(t, "-replay FILE, back", only.apply(Intent{Kind: IntentBack}), effQuit)
}

func TestLobbyKick(t *testing.T) {
	f := &flow{screen: screenLobby}
	effs := f.apply(Intent{Kind: IntentKick, Slot: 2})
	wantEffects(t, "kick", effs, effKick)
	if effs[0].slot != 2 {
		t.Errorf("kick slot %d, want 2", effs[0].slot)
	}
	wantScreen(t, "kick", f, screenLobby)
}

// TestEveryRefusalAndLeaveIsExplained: each reason a room gives has words
// of its own for the player, and the room's own words follow them.
func TestEveryRefusalAndLeaveIsExplained(t *testing.T) {
	const fallback = "Cannot join: the room refused us"
	for r := wire.RefuseFull; r <= wire.RefuseRules; r++ {
		if r == 6 {
			continue // reserved
		}
		if got := refusalText(wire.Refuse{Reason: r}); got == fallback {
			t.Errorf("refusal %d has no words of its own: %q", r, got)
		}
	}
	if got := refusalText(wire.Refuse{Reason: wire.RefuseFull, Text: "8 of 8"}); got != "Cannot join: the game is full (8 of 8)" {
		t.Errorf("a full room with words: %q", got)
	}
	if got := refusalText(wire.Refuse{Reason: wire.RefuseRules}); got != "Cannot join: another version of the game (its rules differ)" {
		t.Errorf("a build with other rules: %q", got)
	}
	if got := refusalText(wire.Refuse{Reason: 200}); got != fallback {
		t.Errorf("an unknown refusal: %q, want %q", got, fallback)
	}
	for _, l := range []wire.LeaveReason{0, wire.LeaveQuit, wire.LeaveKicked, wire.LeaveShutdown, wire.LeaveTimeout, wire.LeaveGameOver, wire.LeaveTooSlow} {
		if got := leaveText(wire.Leave{Reason: l}); got == "You left the game." {
			t.Errorf("leave reason %d has no words of its own", l)
		}
	}
	if got := leaveText(wire.Leave{Reason: wire.LeaveKicked, Text: "rude"}); !strings.HasSuffix(got, " (rude)") || !strings.HasPrefix(got, "You were removed") {
		t.Errorf("a kick with words: %q", got)
	}
	// Sent away for straying: the room decided, and its words say why.
	if got, want := leaveText(wire.Leave{Reason: wire.LeaveStrayed, Text: "your game keeps disagreeing with the others'"}),
		"You were sent away: your game keeps disagreeing with the others'."; got != want {
		t.Errorf("sent away for straying: %q, want %q", got, want)
	}
	if got := leaveText(wire.Leave{Reason: wire.LeaveStrayed}); !strings.HasPrefix(got, "You were sent away: ") {
		t.Errorf("sent away for straying, no words: %q", got)
	}
}

// TestResultsStayWhenTheRoomGoes: the host leaves (or the server stops, or
// the connection is lost) while the results show: the table is this
// game's, read from our own world, so it stays, with why the room is gone
// and no rematch; Main menu leaves as ever. The same from the high scores
// opened from the results.
func TestResultsStayWhenTheRoomGoes(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    netStatus
		want string
	}{
		{"host left", netStatus{active: true, phase: phaseLeft, closed: true, leave: wire.Leave{Reason: wire.LeaveShutdown, Text: "Ada left"}}, "The room was closed. (Ada left)"},
		{"connection lost", netStatus{active: true, phase: phaseFinished, closed: true, lost: true}, "The connection to the game was lost."},
	} {
		f := &flow{screen: screenResults}
		wantEffects(t, tc.name, f.observe(tc.n))
		wantScreen(t, tc.name, f, screenResults)
		if f.roomGone != tc.want {
			t.Errorf("%s: the results say %q, want %q", tc.name, f.roomGone, tc.want)
		}
		wantEffects(t, tc.name+": back to lobby", f.apply(Intent{Kind: IntentRematch}))
		wantScreen(t, tc.name+": back to lobby", f, screenResults)
		f.apply(Intent{Kind: IntentOpenScores})
		wantScreen(t, tc.name+": high scores", f, screenScores)
		wantEffects(t, tc.name+": high scores", f.observe(tc.n))
		wantScreen(t, tc.name+": high scores", f, screenScores)
		f.apply(Intent{Kind: IntentBack})
		wantScreen(t, tc.name+": back from the high scores", f, screenResults)
		wantEffects(t, tc.name+": main menu", f.apply(Intent{Kind: IntentMainMenu}), effDisconnect)
		wantScreen(t, tc.name+": main menu", f, screenMenu)
		if f.roomGone != "" {
			t.Errorf("%s: the menu keeps roomGone %q", tc.name, f.roomGone)
		}
	}
}

// TestFlowRejoinAfterTheGameEnded: a Rejoin that finds the room in its lobby
// (the game ended while the player was away: its results, or the rematch's
// setup) shows the lobby saying so and who hosts now, until the next game
// starts; a Rejoin into a running game and a plain join say nothing of it.
func TestFlowRejoinAfterTheGameEnded(t *testing.T) {
	tests := []struct {
		name   string
		intent Intent
		n      netStatus
		screen screenID
		away   bool
	}{
		{"rejoin, results still shown", Intent{Kind: IntentRejoin, Addr: "192.0.2.7:7777"}, netStatus{active: true, phase: phaseLobby, room: wire.StateFinished}, screenLobby, true},
		{"rejoin, rematch lobby", Intent{Kind: IntentRejoin, Addr: "192.0.2.7:7777"}, netStatus{active: true, phase: phaseLobby, room: wire.StateSetup}, screenLobby, true},
		{"rejoin from the LAN list", Intent{Kind: IntentJoinLAN, Game: lanGame("run", true), Rejoin: true}, netStatus{active: true, phase: phaseLobby, room: wire.StateSetup}, screenLobby, true},
		{"rejoin, game running", Intent{Kind: IntentRejoin, Addr: "192.0.2.7:7777"}, netStatus{active: true, phase: phaseStarting, room: wire.StateRunning}, screenPlay, false},
		{"plain join", Intent{Kind: IntentJoinAddr, Addr: "192.0.2.7:7777"}, netStatus{active: true, phase: phaseLobby, room: wire.StateSetup}, screenLobby, false},
		{"rejoin of a lobby's seat (its host crashed in it)", Intent{Kind: IntentRejoin, Addr: "192.0.2.7:7777", Lobby: true}, netStatus{active: true, phase: phaseLobby, room: wire.StateSetup}, screenLobby, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := &flow{}
			if tc.intent.Kind == IntentJoinAddr || tc.intent.Kind == IntentJoinLAN {
				f.screen = screenJoin
			}
			wantEffects(t, "join", f.apply(tc.intent), effDial)
			f.observe(tc.n)
			wantScreen(t, "joined", f, tc.screen)
			if f.awayEnded != tc.away {
				t.Fatalf("awayEnded %v, want %v", f.awayEnded, tc.away)
			}
			if !tc.away {
				return
			}
			f.observe(netStatus{active: true, phase: phaseStarting, room: wire.StateRunning})
			wantScreen(t, "rematch", f, screenPlay)
			if f.awayEnded {
				t.Error("the next game started and the lobby still says the last ended while we were away")
			}
		})
	}
}

// TestLobbyAwayEndedLineNamesTheHost: the lobby's line for a player back after
// the end names who hosts now, from the roster.
func TestLobbyAwayEndedLineNamesTheHost(t *testing.T) {
	roster := []wire.Player{{Slot: 0, Name: "Ada"}, {Slot: 1, Name: "Bo", Host: true}}
	over := wire.RoomStatus{State: wire.StateFinished, End: wire.EndGameOver}
	tests := []struct {
		name    string
		players []wire.Player
		me      int
		st      wire.RoomStatus
		want    string
	}{
		{"another hosts, rematch lobby", roster, 0, wire.RoomStatus{State: wire.StateSetup, End: wire.EndGameOver}, "The game ended while you were away. Bo hosts the next game."},
		{"we host", roster, 1, wire.RoomStatus{State: wire.StateSetup}, "The game ended while you were away. You host the next game."},
		{"results still shown", roster, 0, over, "The game ended while you were away: game over. Bo hosts the next game."},
		{"ended by the host", roster, 0, wire.RoomStatus{State: wire.StateFinished, End: wire.EndByHost}, "The game ended while you were away: the host ended it. Bo hosts the next game."},
		{"no roster yet", nil, 0, wire.RoomStatus{}, "The game ended while you were away."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := awayEndedLine(tc.players, tc.me, tc.st); got != tc.want {
				t.Errorf("awayEndedLine = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestFlowRejoinAfterTheEndShowsTheResults: a Rejoin that lands in the
// lobby after the game ended shows that game's results once the room's
// world of its end has come (netStatus.awayResults), then, on Back to
// lobby, the lobby saying the game ended while the player was away and
// who hosts; the results are not shown again. A plain join into a
// finished room, or results that never come, stay in the lobby.
func TestFlowRejoinAfterTheEndShowsTheResults(t *testing.T) {
	fin := netStatus{active: true, phase: phaseLobby, room: wire.StateFinished}
	withResults := fin
	withResults.awayResults = true
	tests := []struct {
		name   string
		intent Intent
		then   netStatus
		screen screenID
	}{
		{"rejoin, results come", Intent{Kind: IntentRejoin, Addr: "192.0.2.7:7777"}, withResults, screenResults},
		{"rejoin, no results (yet)", Intent{Kind: IntentRejoin, Addr: "192.0.2.7:7777"}, fin, screenLobby},
		{"plain join", Intent{Kind: IntentJoinAddr, Addr: "192.0.2.7:7777"}, withResults, screenLobby},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := &flow{}
			if tc.intent.Kind == IntentJoinAddr {
				f.screen = screenJoin
			}
			wantEffects(t, "join", f.apply(tc.intent), effDial)
			f.observe(fin)
			wantScreen(t, "joined", f, screenLobby)
			f.observe(tc.then)
			wantScreen(t, "the end's world came", f, tc.screen)
			if tc.screen != screenResults {
				return
			}
			wantEffects(t, "back to lobby", f.apply(Intent{Kind: IntentRematch}), effReady)
			wantScreen(t, "back to lobby", f, screenLobby)
			f.observe(withResults)
			wantScreen(t, "in the lobby after the results", f, screenLobby)
			if !f.awayEnded {
				t.Error("the lobby after the results no longer says the game ended while we were away")
			}
		})
	}
}
