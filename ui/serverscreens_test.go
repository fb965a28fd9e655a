package ui

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"rockstep/net/client"
	"rockstep/net/host"
	"rockstep/net/host/hosttest"
	"rockstep/net/invite"
	"rockstep/net/lan"
	"rockstep/net/lockstep"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// serverShots are the screenshots TestServerScreens takes, in order.
var serverShots = []string{"server-menu", "server-settings", "server-join", "server-offer", "server-lobby"}

// TestServerScreens walks the screens of hosting on a server in a real
// window, with a server on loopback that holds a room, and saves a
// screenshot of each: the menu's Host on SERVER, Settings → Servers, Join
// with the server's rooms, the lobby's offer to move the room (the tests
// ask no router: none is found), and the lobby of the room moved there.
//
//	xvfb-run -a -s "-screen 0 1280x720x24" go test -run ServerScreens ./ui/
//
// With ROCKSTEP_SHOTS=DIR it keeps the PNGs in DIR.
func TestServerScreens(t *testing.T) {
	sizedShots(t, walkServerScreens, serverShots)
}

func walkServerScreens(t *testing.T) {
	hs := hosttest.Start(t, transport.LAN(), host.LAN())
	ctx, cancel := context.WithTimeout(context.Background(), serverPatience)
	defer cancel()
	sc := lockstep.LAN()
	sc.Name, sc.PlayerID = "Ada", [16]byte{7}
	ada, id, err := client.CreateRoom(ctx, []string{hs.Addr()}, wire.CreateRoom{Name: "Friday night"}, client.Options{Session: sc})
	if err != nil {
		t.Fatal(err)
	}
	defer ada.Close()
	app, err := NewApp(Options{Seed: 7, ConfigDir: t.TempDir(), Discovery: &lan.Fake{}, Listen: "127.0.0.1:0", Name: "Grace", AddServer: hs.Addr()})
	if err != nil {
		t.Fatalf("NewApp: %v", err)
	}
	defer app.Close()
	w := &walker{App: app, t: t, dir: os.Getenv(envShotsDir)}
	app.script = func(int) Intents { return Intents{} }
	w.stages = []stage{
		{name: "server-menu", done: func(w *walker) bool { return w.frames > 20 }},
		{name: "server-settings", act: func(w *walker) { w.emit(Intent{Kind: IntentOpenSettings}) },
			done: func(w *walker) bool { return w.cur2() == screenSettings }, wait: 5, check: func(w *walker) string {
				s := w.App.cur.(*settingsScreen)
				if len(s.edit.Servers) != 1 || s.edit.Servers[0].Addr != hs.Addr() {
					return fmt.Sprintf("Settings list %+v, want %s", s.edit.Servers, hs.Addr())
				}
				return ""
			}},
		{name: "server-join", act: func(w *walker) { w.emit(Intent{Kind: IntentBack}); w.emit(Intent{Kind: IntentOpenJoin}) },
			done: func(w *walker) bool {
				s, ok := w.App.cur.(*joinScreen)
				return ok && strings.Contains(s.srvSig, "Friday night")
			}, wait: 5, check: func(w *walker) string {
				s := w.App.cur.(*joinScreen)
				if !strings.Contains(s.srvSig, fmt.Sprintf("%s|%d|Friday night|Ada|1/8|in lobby|Join", hs.Addr(), id)) {
					return fmt.Sprintf("the server rows are %q", s.srvSig)
				}
				if k, _ := w.settings.server(hs.Addr()); k.Fingerprint != hs.Transport.HostKey().Fingerprint() {
					return fmt.Sprintf("the server's key pinned as %q, want %q", k.Fingerprint, hs.Transport.HostKey().Fingerprint())
				}
				return ""
			}},
		{name: "server-offer", act: func(w *walker) { w.emit(Intent{Kind: IntentBack}); w.emit(Intent{Kind: IntentHost}) },
			done: func(w *walker) bool {
				s, ok := w.App.cur.(*lobbyScreen)
				return ok && s.move.addr != ""
			}, wait: 5, check: func(w *walker) string {
				s := w.App.cur.(*lobbyScreen)
				if got := s.move.button.Text().Label; got != "Move this room to "+hs.Addr() {
					return fmt.Sprintf("the offer reads %q", got)
				}
				return ""
			}},
		{name: "server-lobby", act: func(w *walker) { w.emit(Intent{Kind: IntentMoveToServer, Addr: hs.Addr()}) },
			done: func(w *walker) bool {
				s, ok := w.App.cur.(*lobbyScreen)
				id, _, _ := w.nv.serverRoom()
				c, err := invite.Decode(s.invite.shown)
				return ok && id != 0 && err == nil && c.RoomID == id
			}, wait: 10, check: func(w *walker) string {
				s := w.App.cur.(*lobbyScreen)
				if !strings.Contains(s.where.Label, "Pings are to the server") || !strings.Contains(s.where.Label, "input delay") {
					return fmt.Sprintf("the server room's lobby says %q", s.where.Label)
				}
				if s.move.addr != "" || !w.nv.host || s.coop.GetWidget().Disabled {
					return fmt.Sprintf("after the move: offer %q, host %v, setup disabled %v", s.move.addr, w.nv.host, s.coop.GetWidget().Disabled)
				}
				return ""
			}},
	}
	runWindow(t, app, w)
	if w.err != nil {
		t.Fatal(w.err)
	}
	if fmt.Sprint(w.shots) != fmt.Sprint(serverShots) {
		t.Fatalf("took %v, want %v", w.shots, serverShots)
	}
}
