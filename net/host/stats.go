package host

import (
	"maps"
	"slices"
	"sync"

	"rockstep/game"
	"rockstep/net/room"
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
	// Stalls counts the players whose rooms held their places while they
	// were silent or acknowledged nothing (room/stall.go); Resumes those
	// of them back in their places.
	Stalls, Resumes uint64

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
	s.Stalls, s.Resumes = sum.Stalls, sum.Resumes
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
	into.Stalls += s.Stalls
	into.Resumes += s.Resumes
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

func sortedKeys(m map[string]uint64) []string { return slices.Sorted(maps.Keys(m)) }
