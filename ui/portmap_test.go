package ui

import (
	"errors"
	"github.com/ebitenui/ebitenui/widget"
	"net/netip"
	"strings"
	"testing"

	"rockstep/net/portmap"
)

// No test of this package asks the machine's real router for a port: a
// hosted game's port mapping finds no router.
func init() {
	portmapGateway = func() (netip.Addr, error) { return netip.Addr{}, errors.New("the ui tests ask no router") }
}

func TestPortmapLine(t *testing.T) {
	ext := netip.MustParseAddrPort("203.0.113.7:7777")
	tests := []struct {
		name string
		st   portmap.Status
		want []string // phrases the sentence must hold
	}{
		{"nothing asked", portmap.Status{}, nil},
		{"asking", portmap.Status{Verdict: portmap.Asking, Internal: 7777}, []string{"Asking your router"}},
		{"opened by NAT-PMP", portmap.Status{Verdict: portmap.Opened, Proto: portmap.NATPMP, External: ext, Internal: 7777},
			[]string{"Players on the internet can join with the invite code below", "your router opened port 7777 by NAT-PMP: 203.0.113.7:7777"}},
		{"no answer", portmap.Status{Verdict: portmap.NoAnswer, Internal: 7777}, []string{"did not answer", "forward UDP port 7777"}},
		{"refused, with the router's reason", portmap.Status{Verdict: portmap.Refused, Why: "not authorized", Internal: 7777}, []string{"refused to open a port (not authorized)", "forward UDP port 7777"}},
		{"double NAT", portmap.Status{Verdict: portmap.DoubleNAT, Internal: 7777}, []string{"double NAT"}},
		{"no router", portmap.Status{Verdict: portmap.NoRouter, Internal: 7777}, []string{"no router"}},
		{"off in Settings", portmap.Status{Verdict: portmap.Off, Internal: 7777}, []string{"is off (Settings → Internet"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := portmapLine(tt.st)
			if tt.want == nil && got != "" {
				t.Fatalf("portmapLine = %q, want nothing", got)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("portmapLine = %q, want it to say %q", got, w)
				}
			}
		})
	}
}

// TestNetConfigPortmap: the setting asks the router, -portmap=false keeps
// it from asking for the run, and a fresh install asks.
func TestNetConfigPortmap(t *testing.T) {
	tests := []struct {
		name    string
		setting bool
		noFlag  bool
		want    bool
	}{
		{"setting on", true, false, true},
		{"setting off", false, false, false},
		{"-portmap=false", true, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := &App{opt: Options{NoPortmap: tt.noFlag}, settings: DefaultSettings()}
			a.settings.Portmap = tt.setting
			if got := a.netConfig().portmap; got != tt.want {
				t.Errorf("portmap %v, want %v", got, tt.want)
			}
		})
	}
	if !DefaultSettings().Portmap {
		t.Error("a fresh install does not ask the router; want it on by default")
	}
}

// TestShutPortOffersTheNextStep: when the router leaves the port shut,
// the lobby says what to do next: move to the known server, or add one.
func TestShutPortOffersTheNextStep(t *testing.T) {
	for _, v := range []portmap.Verdict{portmap.NoAnswer, portmap.Refused, portmap.DoubleNAT, portmap.NoRouter} {
		if !shut(v) {
			t.Errorf("verdict %v: not shut", v)
		}
	}
	if shut(portmap.Opened) || shut(portmap.Off) || shut(portmap.Asking) {
		t.Error("an open port, a choice or a question counted as shut")
	}
	if got := nextStep(true); !strings.Contains(got, "move the room") {
		t.Errorf("with a server known: %q", got)
	}
	if got := nextStep(false); !strings.Contains(got, "Settings → Servers") {
		t.Errorf("with no server known: %q", got)
	}
}

// TestShutPortOffersToAddAServer: a room hosted here whose port stayed
// shut, with no server known, offers "Add a community server…" in the
// lobby; one click opens Settings with the servers' address field in
// focus, and Cancel or Save comes back to the lobby, the room kept. With a
// server known, or the port open, there is no such offer.
func TestShutPortOffersToAddAServer(t *testing.T) {
	for _, tt := range []struct {
		name    string
		verdict portmap.Verdict
		servers []KnownServer
		want    bool
	}{
		{"no router, no server", portmap.NoRouter, nil, true},
		{"refused, no server", portmap.Refused, nil, true},
		{"port opened", portmap.Opened, nil, false},
		{"a server known", portmap.NoRouter, []KnownServer{{Addr: "127.0.0.1:7777"}}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := newTestApp(t, nil)
			a.settings.Servers = tt.servers
			a.flow.screen, a.flow.hosting = screenLobby, true
			a.nv = netView{ok: true, roomHere: true, host: true, phase: phaseLobby, portmap: portmap.Status{Verdict: tt.verdict, Internal: 7777}}
			a.nv.setup = lobbyRoster(1, false)
			s := newLobbyScreen(a)
			if err := s.update(Intents{}); err != nil {
				t.Fatal(err)
			}
			layOut(a, s.top, 1280, 720) // ebitenui makes a button's text as it lays it out
			shown := s.move.row.GetWidget().GetVisibility() == widget.Visibility_Show
			if !tt.want {
				if s.move.add || (shown && s.move.addr == "") {
					t.Errorf("offers %q", s.move.button.Text().Label)
				}
				return
			}
			if !shown || !s.move.add || s.move.button.Text().Label != addServerLabel {
				t.Fatalf("offer shown %v, add %v, reads %q; want %q", shown, s.move.add, s.move.button.Text().Label, addServerLabel)
			}
			s.move.button.Click()
			a.ui.Update() // ebitenui runs the click's handlers in its update
			if len(a.queue) != 1 {
				t.Fatalf("the click queued %v", a.queue)
			}
			if effs := a.flow.apply(a.queue[0]); len(effs) != 0 || a.flow.screen != screenSettings {
				t.Fatalf("the click: screen %v, effects %v; want Settings and the room kept", a.flow.screen, effs)
			}
			a.queue = nil
			set := newSettingsScreen(a)
			if err := set.update(Intents{}); err != nil {
				t.Fatal(err)
			}
			if a.ui.GetFocusedWidget() != set.servers.input {
				t.Errorf("Settings opened with %T in focus, want the servers' address field", a.ui.GetFocusedWidget())
			}
			if effs := a.flow.apply(Intent{Kind: IntentBack}); len(effs) != 0 || a.flow.screen != screenLobby {
				t.Errorf("Cancel: screen %v, effects %v; want the lobby, the room kept", a.flow.screen, effs)
			}
			a.flow.apply(Intent{Kind: IntentOpenSettings})
			if effs := a.flow.apply(Intent{Kind: IntentSaveSettings, Settings: a.settings}); len(effs) != 1 || effs[0].kind != effSaveSettings || a.flow.screen != screenLobby {
				t.Errorf("Save: screen %v, effects %v; want the lobby and the settings saved", a.flow.screen, effs)
			}
		})
	}
}
