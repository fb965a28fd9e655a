package host

import (
	"log/slog"
	"time"
)

// dropLogEvery is the least time between two log lines about one drop
// reason, as for the transport's: the first drop after a quiet spell is
// logged at once (at the next look, twice a second for the rooms' and
// every tick for the host's), the rest are summed up in one line per
// reason per interval.
const dropLogEvery = 10 * time.Second

// dropLog writes counted drops to the host's log, one line per reason per
// dropLogEvery: the host's own (Host.dropped) and the rooms'
// (room.Stats.Dropped, summed over every room, closed ones too) each have
// one. Loop goroutine only.
type dropLog struct {
	seen   []uint64        // the totals the last lines covered
	last   []time.Duration // when each reason was last logged
	logged []bool
}

// note logs as msg, for each reason whose interval is over, the drops
// since its last line; totals are the counts since the host started, by
// reason, and name names a reason.
func (d *dropLog) note(log *slog.Logger, msg string, now time.Duration, totals []uint64, name func(int) string) {
	if len(d.seen) != len(totals) {
		d.seen = make([]uint64, len(totals))
		d.last = make([]time.Duration, len(totals))
		d.logged = make([]bool, len(totals))
	}
	for r, total := range totals {
		if total <= d.seen[r] || d.logged[r] && now-d.last[r] < dropLogEvery {
			continue
		}
		args := []any{"reason", name(r), "count", total - d.seen[r], "total", total}
		if d.logged[r] {
			args = append(args, "in", (now - d.last[r]).Round(time.Second).String())
		}
		log.Warn(msg, args...)
		d.seen[r], d.last[r], d.logged[r] = total, now, true
	}
}
