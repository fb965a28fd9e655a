package ui

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/ebitenui/ebitenui/widget"

	"rockstep/game"
	"rockstep/net/client"
	"rockstep/net/host"
	"rockstep/net/host/hosttest"
	"rockstep/net/invite"
	"rockstep/net/lockstep"
	"rockstep/net/room"
	"rockstep/net/transport"
)

// TestGuestLobbyScreens shows the lobby as a guest sees it: the window
// joins a room on a loopback port whose host (an in-process player) has
// chosen Versus and is ready. The guest must see Versus chosen, the
// setup's buttons its own to read but not to press, no Start, and no text
// below minTextPx.
//
//	xvfb-run -a -s "-screen 0 1280x720x24" go test -run GuestLobby ./ui/
func TestGuestLobbyScreens(t *testing.T) {
	sizedShots(t, walkGuestLobby, []string{"lobby-guest"})
}

func walkGuestLobby(t *testing.T) {
	dir := os.Getenv(envShotsDir)
	hc := host.LAN()
	hc.Name = "Grace’s game"
	hc.Room = room.LAN()
	hs := hosttest.Start(t, transport.LAN(), hc)
	p := transport.NewPipe()
	hs.Host.Attach(p)
	grace := client.Attach(p, client.Options{Session: lockstep.Config{Name: "Grace", PlayerID: [16]byte{2}}})
	defer grace.Close()

	app, err := NewApp(Options{Seed: 7, ConfigDir: t.TempDir(), Join: hs.Addr(), Name: guestName})
	if err != nil {
		t.Fatalf("NewApp: %v", err)
	}
	defer app.Close()
	w := &walker{App: app, t: t, dir: dir, block: make(chan struct{})}
	versus := game.Setup{Mode: game.Versus, Lives: 3, StartWave: 2, Saucers: true, Hyperspace: true}
	asked, said := false, false
	w.stages = []stage{{name: "lobby-guest", done: func(w *walker) bool {
		grace.Do(func(s *lockstep.Session) {
			st := s.SetupState()
			if s.Phase() != phaseLobby || len(st.Players) < 2 {
				return
			}
			if !asked {
				asked = true
				s.ChangeSetup(versus)
				return
			}
			if st.Setup.Mode == game.Versus && !said {
				said = true
				s.SetReady(true)
				s.Say("versus this time: last ship flying wins")
			}
		})
		nv := &w.nv
		if w.cur2() != screenLobby || !nv.ok || len(nv.setup.Players) < 2 || nv.setup.Setup.Mode != game.Versus || len(nv.chat) == 0 {
			return false
		}
		for _, pl := range nv.setup.Players {
			if pl.Host && !pl.Ready {
				return false
			}
		}
		// Every ping measured, so that the picture shows figures.
		for _, pl := range nv.setup.Players {
			if pl.Ping == 0 {
				return false
			}
		}
		return true
	}, wait: 10, check: func(w *walker) string {
		s := w.App.cur.(*lobbyScreen)
		if w.nv.host {
			return "the window hosts; want a guest"
		}
		on := w.App.theme().toggleOn
		if s.versus.Image() != on || s.coop.Image() == on {
			return "a guest does not see Versus chosen (Versus not drawn on, or Co-op drawn on)"
		}
		if !s.versus.GetWidget().Disabled || !s.coop.GetWidget().Disabled {
			return "a guest may press the mode buttons"
		}
		if s.start.GetWidget().GetVisibility() == widget.Visibility_Show {
			return "a guest is offered Start"
		}
		if !strings.Contains(s.title.Label, "Grace") {
			return fmt.Sprintf("the lobby's title is %q", s.title.Label)
		}
		// A guest can pass the game on: its lobby shows the code of the
		// address it reached, pinned to the host's key.
		c, err := invite.Decode(s.invite.code.Label)
		if err != nil || len(c.Addrs) != 1 || c.Addrs[0].String() != hs.Addr() || c.Fingerprint() != w.nv.hostFingerprint()[:16] {
			return fmt.Sprintf("a guest's lobby shows the code %q (%v), want %s pinned to the host key", s.invite.code.Label, err, hs.Addr())
		}
		if s.invite.row.GetWidget().GetVisibility() != widget.Visibility_Show {
			return "a guest's lobby hides the invite code"
		}
		return ""
	}}}
	runWindow(t, app, w)
	if w.err != nil {
		t.Fatal(w.err)
	}
	if fmt.Sprint(w.shots) != "[lobby-guest]" {
		t.Fatalf("took %v, want [lobby-guest]", w.shots)
	}
}
