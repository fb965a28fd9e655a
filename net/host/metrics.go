//go:build !js

package host

import (
	"io"
	"net/http"
	"strconv"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"rockstep/net/transport"
)

// MetricsHandler serves /healthz and /metrics for the host and, if it has
// one, its transport. /metrics is what operators expect of a Go service
// (github.com/prometheus/client_golang): the host's own metrics beside the
// Go runtime's (go_*: goroutines, heap, GC pauses) and the process's
// (process_*: CPU seconds, resident memory, open files), in the standard
// exposition, text or protobuf or OpenMetrics as the scraper asks.
// Every call makes a registry of its own, so the -metrics listener and the
// web face may each have one.
func (h *Host) MetricsHandler() http.Handler {
	reg := prometheus.NewRegistry()
	reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		hostCollector{h},
	)
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		if h.closing.Load() {
			http.Error(w, "shutting down", http.StatusServiceUnavailable)
			return
		}
		io.WriteString(w, "ok\n")
	})
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg}))
	return mux
}

// The host's metrics: the names, help and labels /metrics has always had
// (dashboards and alerts keep working), now read from Stats at each scrape.
var (
	hostGauges = []struct {
		desc *prometheus.Desc
		v    func(Stats) int
	}{
		{newDesc("rockstep_rooms", "Rooms open."), func(s Stats) int { return s.Rooms }},
		{newDesc("rockstep_rooms_running", "Rooms with a game running."), func(s Stats) int { return s.Running }},
		{newDesc("rockstep_players", "Players in rooms, connected or held for a reconnect."), func(s Stats) int { return s.Players }},
		{newDesc("rockstep_connections", "Connections, in a room or not yet."), func(s Stats) int { return s.Connections }},
		{newDesc("rockstep_created_room_players", "Players in the rooms players created (not the default room), connected or held for a reconnect."), func(s Stats) int { return s.CreatedPlayers }},
	}
	hostCounters = []struct {
		desc *prometheus.Desc
		v    func(Stats) uint64
	}{
		{newDesc("rockstep_turns_total", "Master turns compiled."), func(s Stats) uint64 { return s.Turns }},
		{newDesc("rockstep_late_turns_total", "Turns compiled after a room went lagging."), func(s Stats) uint64 { return s.LateTurns }},
		{newDesc("rockstep_master_resends_total", "Master frames sent again."), func(s Stats) uint64 { return s.Resends }},
		{newDesc("rockstep_frames_in_total", "Frames received by rooms."), func(s Stats) uint64 { return s.FramesIn }},
		{newDesc("rockstep_frames_out_total", "Frames sent by rooms."), func(s Stats) uint64 { return s.FramesOut }},
		{newDesc("rockstep_bytes_in_total", "Bytes received by rooms."), func(s Stats) uint64 { return s.BytesIn }},
		{newDesc("rockstep_bytes_out_total", "Bytes sent by rooms."), func(s Stats) uint64 { return s.BytesOut }},
		{newDesc("rockstep_hung_up_total", "Connections hung up on because their room had given them up (silent past its timeout) and they kept sending."), func(s Stats) uint64 { return s.HungUp }},
		{newDesc("rockstep_rooms_created_total", "Rooms opened for a player's CreateRoom."), func(s Stats) uint64 { return s.RoomsCreated }},
		{newDesc("rockstep_stalls_total", "Players silent or acknowledging nothing for the room's silence timeout in a running game, their places held (a machine starved for seconds)."), func(s Stats) uint64 { return s.Stalls }},
		{newDesc("rockstep_stall_resumes_total", "Stalled players back in their places."), func(s Stats) uint64 { return s.Resumes }},
		{newDesc("rockstep_strayed_out_total", "Players sent away because their worlds kept disagreeing with the others'."), func(s Stats) uint64 { return s.StrayedOut }},
	}
	roomsRefusedDesc = newDesc("rockstep_rooms_refused_total", "CreateRooms refused, by reason.", "reason")
	repairsDesc      = newDesc("rockstep_repairs_total", "Worlds that strayed from the majority's and were repaired in place, by player slot.", "slot")
	droppedDesc      = newDesc("rockstep_dropped_total", "Frames dropped, by reason.", "reason")

	transportGauges = []struct {
		desc *prometheus.Desc
		v    func(transport.ServerStats) int
	}{
		{newDesc("rockstep_transport_sessions", "Transport sessions."), func(s transport.ServerStats) int { return s.Sessions }},
	}
	transportCounters = []struct {
		desc *prometheus.Desc
		v    func(transport.ServerStats) uint64
	}{
		{newDesc("rockstep_transport_packets_in_total", "Datagrams received."), func(s transport.ServerStats) uint64 { return s.PacketsIn }},
		{newDesc("rockstep_transport_packets_out_total", "Datagrams sent."), func(s transport.ServerStats) uint64 { return s.PacketsOut }},
		{newDesc("rockstep_transport_bytes_in_total", "Datagram bytes received."), func(s transport.ServerStats) uint64 { return s.BytesIn }},
		{newDesc("rockstep_transport_bytes_out_total", "Datagram bytes sent."), func(s transport.ServerStats) uint64 { return s.BytesOut }},
	}
	transportDroppedDesc = newDesc("rockstep_transport_dropped_total", "Datagrams dropped, by reason.", "reason")
)

func newDesc(name, help string, labels ...string) *prometheus.Desc {
	return prometheus.NewDesc(name, help, labels, nil)
}

// hostCollector reads a host's Stats (and its transport's) at each scrape:
// the counters are the host's own, so they are exposed as they are rather
// than mirrored into client_golang's counters.
type hostCollector struct{ h *Host }

func (c hostCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, m := range hostGauges {
		ch <- m.desc
	}
	for _, m := range hostCounters {
		ch <- m.desc
	}
	ch <- roomsRefusedDesc
	ch <- repairsDesc
	ch <- droppedDesc
	if c.h.srv != nil {
		for _, m := range transportGauges {
			ch <- m.desc
		}
		for _, m := range transportCounters {
			ch <- m.desc
		}
		ch <- transportDroppedDesc
	}
}

func (c hostCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.h.Stats()
	for _, m := range hostGauges {
		ch <- prometheus.MustNewConstMetric(m.desc, prometheus.GaugeValue, float64(m.v(s)))
	}
	for _, m := range hostCounters {
		ch <- prometheus.MustNewConstMetric(m.desc, prometheus.CounterValue, float64(m.v(s)))
	}
	for _, reason := range sortedKeys(s.RoomsRefused) {
		ch <- prometheus.MustNewConstMetric(roomsRefusedDesc, prometheus.CounterValue, float64(s.RoomsRefused[reason]), reason)
	}
	for slot, n := range s.Repairs {
		ch <- prometheus.MustNewConstMetric(repairsDesc, prometheus.CounterValue, float64(n), strconv.Itoa(slot))
	}
	for _, reason := range sortedKeys(s.Dropped) {
		ch <- prometheus.MustNewConstMetric(droppedDesc, prometheus.CounterValue, float64(s.Dropped[reason]), reason)
	}
	if c.h.srv == nil {
		return
	}
	ts := c.h.srv.Stats()
	for _, m := range transportGauges {
		ch <- prometheus.MustNewConstMetric(m.desc, prometheus.GaugeValue, float64(m.v(ts)))
	}
	for _, m := range transportCounters {
		ch <- prometheus.MustNewConstMetric(m.desc, prometheus.CounterValue, float64(m.v(ts)))
	}
	for i, n := range ts.Dropped {
		ch <- prometheus.MustNewConstMetric(transportDroppedDesc, prometheus.CounterValue, float64(n), transport.DropReason(i).String())
	}
}
