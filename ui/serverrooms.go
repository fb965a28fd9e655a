package ui

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/ebitenui/ebitenui/widget"

	"rockstep/assets/palette"
	"rockstep/net/client"
	"rockstep/net/transport"
	"rockstep/net/wire"
	"rockstep/ui/draw"
)

// The Join screen lists, beside the LAN's games, the rooms of the known
// servers: each server is asked for its room list (client.ListRooms) every
// serverPollEvery while the screen is open, on a connection of its own
// that hangs up once answered: no connection is held.

// serverPollEvery is how often a known server's rooms are asked for.
const serverPollEvery = 3 * time.Second

// serverListTimeout bounds one list request: the handshake and the pages.
const serverListTimeout = 8 * time.Second

// serverListing is what a known server last said of its rooms.
type serverListing struct {
	list client.RoomList
	err  error // why it could not be listed (then list is empty)
	at   time.Time
	// gone are the rooms the listing before this one had and this one
	// has not: closed since, shown as gone until the next listing.
	gone []wire.RoomInfo
}

// serverRooms polls the known servers' room lists in the background; its
// methods are called on the UI's goroutine.
type serverRooms struct {
	mu    sync.Mutex
	lists map[string]serverListing // by the server's address as known
	busy  map[string]bool          // a request is out
	asked map[string]time.Time     // when the last request went out
}

// poll asks each of servers whose last request is serverPollEvery old,
// and not still out, for its rooms, pinned to its key if it has one.
func (p *serverRooms) poll(servers []KnownServer, now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.lists == nil {
		p.lists, p.busy, p.asked = map[string]serverListing{}, map[string]bool{}, map[string]time.Time{}
	}
	for _, k := range servers {
		if p.busy[k.Addr] || now.Sub(p.asked[k.Addr]) < serverPollEvery {
			continue
		}
		p.busy[k.Addr], p.asked[k.Addr] = true, now
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), serverListTimeout)
			defer cancel()
			cfg := transport.LAN()
			cfg.HostFingerprint = k.Fingerprint
			l, err := client.ListRooms(ctx, []string{k.Addr}, cfg)
			if err != nil {
				err = serverError(k.Addr, err)
			}
			p.mu.Lock()
			defer p.mu.Unlock()
			p.busy[k.Addr] = false
			next := serverListing{list: l, err: err, at: time.Now()}
			if prev, ok := p.lists[k.Addr]; ok && err == nil {
				next.gone = goneRooms(prev.list.Rooms, l.Rooms)
			}
			p.lists[k.Addr] = next
		}()
	}
}

// listing returns what the server at addr last said, if it answered.
func (p *serverRooms) listing(addr string) (serverListing, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	l, ok := p.lists[addr]
	return l, ok
}

// goneRooms returns the rooms of before that after has not (by id).
func goneRooms(before, after []wire.RoomInfo) []wire.RoomInfo {
	var gone []wire.RoomInfo
	for _, b := range before {
		found := false
		for _, a := range after {
			found = found || a.RoomID == b.RoomID
		}
		if !found {
			gone = append(gone, b)
		}
	}
	return gone
}

// serverRow is one line of the Join screen's server rooms.
type serverRow struct {
	Server   string // the known server's address
	Room     wire.RoomInfo
	Addr     string // the address that answered, to dial
	Pin      string // the server's key, to dial pinned
	Joinable bool
	Action   string // Join, Watch, Full, Incompatible
	Players  string // "2/8"
	State    string // in lobby, playing, finished
	Note     string // for a server that could not be listed: why (no room then)
}

// serverRows turns the known servers' listings into rows: a server not
// answered yet, or that could not be listed, says so in one row; a room
// that is full, running (watched), of another version, or gone since the
// last listing says so.
func serverRows(servers []KnownServer, listing func(string) (serverListing, bool)) []serverRow {
	var rows []serverRow
	for _, k := range servers {
		l, ok := listing(k.Addr)
		switch {
		case !ok:
			rows = append(rows, serverRow{Server: k.Addr, Note: "asking " + k.Addr + " for its rooms…"})
			continue
		case l.err != nil:
			rows = append(rows, serverRow{Server: k.Addr, Note: sentence(l.err.Error())})
			continue
		case len(l.list.Rooms) == 0 && len(l.gone) == 0:
			rows = append(rows, serverRow{Server: k.Addr, Note: k.Addr + " lists no rooms: Host can open one there."})
			continue
		}
		for _, r := range l.gone {
			rows = append(rows, serverRow{Server: k.Addr, Room: r, Action: "Gone", State: "closed", Players: "—"})
		}
		for _, r := range l.list.Rooms {
			row := serverRow{Server: k.Addr, Room: r, Addr: l.list.Addr, Pin: l.list.Fingerprint,
				Players: fmt.Sprintf("%d/%d", r.Players, r.Max)}
			switch r.State {
			case wire.StateRunning:
				row.State = "playing"
			case wire.StateFinished:
				row.State = "finished"
			default:
				row.State = "in lobby"
			}
			switch {
			case r.Version != wire.Version:
				row.Action, row.State = "Incompatible", fmt.Sprintf("version %d, ours %d", r.Version, wire.Version)
			case r.State == wire.StateRunning:
				row.Action, row.Joinable = "Watch", true
			case r.Players >= r.Max:
				row.Action, row.State = "Full", "full"
			default:
				row.Action, row.Joinable = "Join", true
			}
			rows = append(rows, row)
		}
	}
	return rows
}

// serverRowsSignature changes when the rows shown would.
func serverRowsSignature(rows []serverRow) string {
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "%s|%d|%s|%s|%s|%s|%s|%s\n", r.Server, r.Room.RoomID, r.Room.Name, r.Room.Host, r.Players, r.State, r.Action, r.Note)
	}
	return b.String()
}

// maxServerRows bounds the server rooms the Join screen shows: the
// screen holds them at 800×600.
const maxServerRows = 3

// joinListHeight is the LAN list's height on the Join screen, in design
// pixels: less when the known servers' rooms are listed under it.
func joinListHeight(a *App) int {
	if len(a.settings.Servers) > 0 {
		return 120 // a header and two rows (lanRowsShown)
	}
	return 260
}

// serverRoomsTitle heads the Join screen's server rooms.
func serverRoomsTitle(servers []KnownServer) string {
	if len(servers) == 1 {
		return "Rooms on your server " + servers[0].Addr + " (Settings → Servers)"
	}
	return "Rooms on your servers (Settings → Servers)"
}

// refreshServers asks the known servers for their rooms when it is time,
// pins the key of a server that answered for the first time, and rebuilds
// the rows if they changed.
func (s *joinScreen) refreshServers() {
	a := s.a
	if s.servers == nil {
		return
	}
	a.serverRooms.poll(a.settings.Servers, time.Now())
	for _, k := range a.settings.Servers {
		if l, ok := a.serverRooms.listing(k.Addr); ok && l.err == nil && a.settings.pinServer(k.Addr, l.list.Fingerprint) {
			a.saveSettings()
		}
	}
	rows := serverRows(a.settings.Servers, a.serverRooms.listing)
	if len(rows) > maxServerRows {
		rows = rows[:maxServerRows]
	}
	sig := serverRowsSignature(rows)
	if sig == s.srvSig {
		return
	}
	s.srvSig = sig
	t := a.theme()
	s.servers.RemoveChildren()
	mid := widget.WidgetOpts.LayoutData(widget.GridLayoutData{VerticalPosition: widget.GridLayoutPositionCenter})
	for _, r := range rows {
		if r.Note != "" {
			s.servers.AddChild(t.para(r.Note, &t.smallFace, palette.Dim, joinListWidth))
			continue
		}
		line := t.grid([]bool{true, false, false, false, false}, 18, 0,
			widget.ContainerOpts.BackgroundImage(t.row), widget.ContainerOpts.WidgetOpts(stretchRow()))
		c := palette.Text
		if !r.Joinable {
			c = colGreyText
		}
		cell := func(text, h string) *widget.Text {
			text = draw.Ellipsis(text, t.bodyFace, float64(t.px(colWidth(h)-8)))
			return t.text(text, &t.bodyFace, c, t.size(colWidth(h), 0), mid)
		}
		name := r.Room.Name
		if len(a.settings.Servers) > 1 {
			name += " — " + r.Server
		}
		line.AddChild(cell("  "+name, "GAME"), cell(r.Room.Host, "HOST"), cell(r.Players, "PLAYERS"), cell(r.State, "STATE"))
		b := t.button(r.Action, a.emit, Intent{Kind: IntentJoinRoom, Addr: r.Addr, Room: r.Room.RoomID, Pin: r.Pin, Name: r.Room.Name}, t.size(colWidth(""), 0))
		enable(b, r.Joinable)
		line.AddChild(b)
		s.servers.AddChild(line)
	}
}
