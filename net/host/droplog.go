package host

import (
	"log/slog"
	"time"

	"rockstep/net/room"
)

// roomDropLogEvery is the least time between two log lines about one of
// the rooms' drop reasons, as for the transport's: the first drop after a
// quiet spell is logged at once (at the next stats, twice a second), the
// rest are summed up in one line per reason per interval.
const roomDropLogEvery = 10 * time.Second

// roomDropLog writes the rooms' drops (room.Stats.Dropped, summed over
// every room, closed ones too) to the host's log. Loop goroutine only.
type roomDropLog struct {
	seen   [room.NumDropReasons]uint64        // the totals the last lines covered
	last   [room.NumDropReasons]time.Duration // when each reason was last logged
	logged [room.NumDropReasons]bool
}

// note logs, for each reason whose interval is over, the drops since its
// last line; totals are the counts since the host started.
func (d *roomDropLog) note(log *slog.Logger, now time.Duration, totals [room.NumDropReasons]uint64) {
	for r, total := range totals {
		if total <= d.seen[r] || d.logged[r] && now-d.last[r] < roomDropLogEvery {
			continue
		}
		args := []any{"reason", room.DropReasonName(r), "count", total - d.seen[r], "total", total}
		if d.logged[r] {
			args = append(args, "in", (now - d.last[r]).Round(time.Second).String())
		}
		log.Warn("room: dropped", args...)
		d.seen[r], d.last[r], d.logged[r] = total, now, true
	}
}
