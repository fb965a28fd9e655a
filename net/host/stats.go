package host

import (
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"sync"

	"rockstep/game"
	"rockstep/net/room"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// Stats is a host's state and counters, as the metrics endpoint reports
// them. Counters count since the host started; rooms closed since keep
// their share.
type Stats struct {
	Rooms, Running, Players, Connections int
	Turns, LateTurns, Resends            uint64
	FramesIn, FramesOut                  uint64
	BytesIn, BytesOut                    uint64
	Dropped                              map[string]uint64 // by reason, room and host
	HungUp                               uint64            // connections hung up on: their room had given them up and they kept sending
	// Repairs counts, by slot, the worlds that strayed from the
	// majority's and were repaired (room/repair.go); StrayedOut the
	// players sent away for straying too often.
	Repairs    [game.MaxPlayers]uint64
	StrayedOut uint64

	// RoomsCreated counts the rooms opened for a CreateRoom; RoomsRefused
	// the CreateRooms refused, by reason ("full", "limit", "room_key",
	// "net_limit");
	// CreatedPlayers is the players in the created rooms open now (the
	// default room's are in Players only).
	RoomsCreated   uint64
	RoomsRefused   map[string]uint64
	CreatedPlayers int

	// The default room, as a LAN listing shows the server.
	Name        string
	RoomPlayers int
	RoomMax     int
	RoomState   wire.RoomState

	// LastReport is the path of the last desync report this host wrote
	// beside a replay, or "".
	LastReport string
}

type statsBox struct {
	mu     sync.Mutex
	cur    Stats
	closed room.Stats // counters of rooms already closed
}

// listing is what a LAN listing shows of the default room that changes
// while it is open.
type listing struct {
	players int
	state   wire.RoomState
}

// listingChanged reports whether the default room's players or state
// differ from the last published stats.
func (h *Host) listingChanged() bool {
	def := h.rooms[DefaultRoom]
	if def == nil {
		return false
	}
	st, _ := def.r.State()
	return listing{def.r.PlayerCount(), st} != h.listed
}

func (h *Host) publishStats() {
	s := Stats{Rooms: len(h.rooms), Connections: len(h.conns), Dropped: map[string]uint64{}}
	if def := h.rooms[DefaultRoom]; def != nil {
		s.Name, s.RoomPlayers, s.RoomMax = def.r.Name(), def.r.PlayerCount(), def.r.MaxPlayers()
		s.RoomState, _ = def.r.State()
		h.listed = listing{s.RoomPlayers, s.RoomState}
	}
	var sum room.Stats
	for _, id := range h.order {
		hr := h.rooms[id]
		if st, _ := hr.r.State(); st == wire.StateRunning {
			s.Running++
		}
		s.Players += hr.r.PlayerCount()
		if id != DefaultRoom {
			s.CreatedPlayers += hr.r.PlayerCount()
		}
		add(&sum, hr.r.Stats())
	}
	h.stats.mu.Lock()
	add(&sum, h.stats.closed)
	h.stats.mu.Unlock()
	h.roomDrops.note(h.log, "room: dropped", h.now(), sum.Dropped[:], room.DropReasonName)
	s.Turns, s.LateTurns, s.Resends = sum.Turns, sum.LateTurns, sum.Resends
	s.Repairs, s.StrayedOut = sum.Repairs, sum.SentAway
	s.FramesIn, s.FramesOut, s.BytesIn, s.BytesOut = sum.FramesIn, sum.FramesOut, sum.BytesIn, sum.BytesOut
	for i, n := range sum.Dropped {
		s.Dropped[room.DropReasonName(i)] = n
	}
	for i, n := range h.dropped {
		s.Dropped[hostDropNames[i]] = n
	}
	s.HungUp = h.hungUp
	s.RoomsCreated = h.created
	s.RoomsRefused = make(map[string]uint64, numRefusals)
	for i, n := range h.refused {
		s.RoomsRefused[refusalNames[i]] = n
	}
	if h.rec != nil {
		s.LastReport = h.rec.lastReport()
	}
	h.stats.mu.Lock()
	h.stats.cur = s
	h.stats.mu.Unlock()
}

func add(into *room.Stats, s room.Stats) {
	into.FramesIn += s.FramesIn
	into.FramesOut += s.FramesOut
	into.BytesIn += s.BytesIn
	into.BytesOut += s.BytesOut
	into.Turns += s.Turns
	into.LateTurns += s.LateTurns
	into.Resends += s.Resends
	into.Duplicates += s.Duplicates
	for i := range s.Dropped {
		into.Dropped[i] += s.Dropped[i]
	}
	for i := range s.Repairs {
		into.Repairs[i] += s.Repairs[i]
	}
	into.SentAway += s.SentAway
}

// Stats returns the latest published stats (refreshed twice a second). It
// is safe from any goroutine.
func (h *Host) Stats() Stats {
	h.stats.mu.Lock()
	defer h.stats.mu.Unlock()
	s := h.stats.cur
	d := make(map[string]uint64, len(s.Dropped))
	for k, v := range s.Dropped {
		d[k] = v
	}
	s.Dropped = d
	r := make(map[string]uint64, len(s.RoomsRefused))
	for k, v := range s.RoomsRefused {
		r[k] = v
	}
	s.RoomsRefused = r
	return s
}

// MetricsHandler serves /healthz and /metrics (Prometheus text format) for
// the host and, if srv is not nil, its transport.
func (h *Host) MetricsHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		if h.closing.Load() {
			http.Error(w, "shutting down", http.StatusServiceUnavailable)
			return
		}
		io.WriteString(w, "ok\n")
	})
	mux.HandleFunc("/metrics", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4")
		h.writeMetrics(w)
	})
	return mux
}

func (h *Host) writeMetrics(w io.Writer) {
	s := h.Stats()
	writeMetrics(w, []metric{
		{"rockstep_rooms", "Rooms open.", gauge, uint64(s.Rooms)},
		{"rockstep_rooms_running", "Rooms with a game running.", gauge, uint64(s.Running)},
		{"rockstep_players", "Players in rooms, connected or held for a reconnect.", gauge, uint64(s.Players)},
		{"rockstep_connections", "Connections, in a room or not yet.", gauge, uint64(s.Connections)},
		{"rockstep_turns_total", "Master turns compiled.", counter, s.Turns},
		{"rockstep_late_turns_total", "Turns compiled after a room went lagging.", counter, s.LateTurns},
		{"rockstep_master_resends_total", "Master frames sent again.", counter, s.Resends},
		{"rockstep_frames_in_total", "Frames received by rooms.", counter, s.FramesIn},
		{"rockstep_frames_out_total", "Frames sent by rooms.", counter, s.FramesOut},
		{"rockstep_bytes_in_total", "Bytes received by rooms.", counter, s.BytesIn},
		{"rockstep_bytes_out_total", "Bytes sent by rooms.", counter, s.BytesOut},
		{"rockstep_hung_up_total", "Connections hung up on because their room had given them up (silent past its timeout) and they kept sending.", counter, s.HungUp},
		{"rockstep_rooms_created_total", "Rooms opened for a player's CreateRoom.", counter, s.RoomsCreated},
		{"rockstep_created_room_players", "Players in the rooms players created (not the default room), connected or held for a reconnect.", gauge, uint64(s.CreatedPlayers)},
	})
	fmt.Fprintf(w, "# HELP rockstep_rooms_refused_total CreateRooms refused, by reason.\n# TYPE rockstep_rooms_refused_total counter\n")
	for _, name := range sortedKeys(s.RoomsRefused) {
		fmt.Fprintf(w, "rockstep_rooms_refused_total{reason=%q} %d\n", name, s.RoomsRefused[name])
	}
	fmt.Fprintf(w, "# HELP rockstep_repairs_total Worlds that strayed from the majority's and were repaired in place, by player slot.\n# TYPE rockstep_repairs_total counter\n")
	for i, n := range s.Repairs {
		fmt.Fprintf(w, "rockstep_repairs_total{slot=\"%d\"} %d\n", i, n)
	}
	writeMetrics(w, []metric{
		{"rockstep_strayed_out_total", "Players sent away because their worlds kept disagreeing with the others'.", counter, s.StrayedOut},
	})
	fmt.Fprintf(w, "# HELP rockstep_dropped_total Frames dropped, by reason.\n# TYPE rockstep_dropped_total counter\n")
	for _, name := range sortedKeys(s.Dropped) {
		fmt.Fprintf(w, "rockstep_dropped_total{reason=%q} %d\n", name, s.Dropped[name])
	}
	if h.srv != nil {
		ts := h.srv.Stats()
		writeMetrics(w, []metric{
			{"rockstep_transport_sessions", "Transport sessions.", gauge, uint64(ts.Sessions)},
			{"rockstep_transport_packets_in_total", "Datagrams received.", counter, ts.PacketsIn},
			{"rockstep_transport_packets_out_total", "Datagrams sent.", counter, ts.PacketsOut},
			{"rockstep_transport_bytes_in_total", "Datagram bytes received.", counter, ts.BytesIn},
			{"rockstep_transport_bytes_out_total", "Datagram bytes sent.", counter, ts.BytesOut},
		})
		fmt.Fprintf(w, "# HELP rockstep_transport_dropped_total Datagrams dropped, by reason.\n# TYPE rockstep_transport_dropped_total counter\n")
		for i, n := range ts.Dropped {
			fmt.Fprintf(w, "rockstep_transport_dropped_total{reason=%q} %d\n", transport.DropReason(i), n)
		}
	}
}

// metric is one value of the metrics endpoint, with its help line.
type metric struct {
	name, help string
	kind       string // gauge or counter
	v          uint64
}

const (
	gauge   = "gauge"
	counter = "counter"
)

// writeMetrics writes ms in the Prometheus text format.
func writeMetrics(w io.Writer, ms []metric) {
	for _, m := range ms {
		fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n%s %d\n", m.name, m.help, m.name, m.kind, m.name, m.v)
	}
}

func sortedKeys(m map[string]uint64) []string { return slices.Sorted(maps.Keys(m)) }
