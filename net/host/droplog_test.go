package host

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"rockstep/net/room"
)

// TestRoomDropsAreLoggedPerReasonPerInterval: the rooms' drops reach the
// host's log as one line per reason per interval, however many there
// are: the first after a quiet spell at once, the rest summed up when the
// interval is over.
func TestRoomDropsAreLoggedPerReasonPerInterval(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, nil))
	var d dropLog
	var totals [room.NumDropReasons]uint64
	const step = 500 * time.Millisecond // publishStats runs twice a second
	lines := func() []string {
		out := strings.Split(strings.TrimSpace(buf.String()), "\n")
		buf.Reset()
		if len(out) == 1 && out[0] == "" {
			return nil
		}
		return out
	}
	// 20 seconds of 450 start_rate drops and 100 ready_rate drops a second.
	var now time.Duration
	for i := 0; i < 40; i++ {
		now += step
		totals[room.DropStartRate] += 225
		totals[room.DropReadyRate] += 50
		d.note(log, "room: dropped", now, totals[:], room.DropReasonName)
	}
	now += dropLogEvery // the interval is over: the rest are summed up
	d.note(log, "room: dropped", now, totals[:], room.DropReasonName)
	got := lines()
	count, summed := map[string]int{}, map[string]int{}
	for _, l := range got {
		for _, reason := range []string{"start_rate", "ready_rate"} {
			if !strings.Contains(l, "reason="+reason+" ") {
				continue
			}
			count[reason]++
			var n int
			if _, err := fmt.Sscanf(l[strings.Index(l, "count="):], "count=%d", &n); err != nil {
				t.Fatalf("line %q: %v", l, err)
			}
			summed[reason] += n
		}
	}
	// 30 s: the first at once, then one every 10 s.
	for _, tc := range []struct {
		reason string
		total  uint64
	}{{"start_rate", totals[room.DropStartRate]}, {"ready_rate", totals[room.DropReadyRate]}} {
		if count[tc.reason] < 3 || count[tc.reason] > 4 {
			t.Errorf("%d lines for %s in 30 s, want 3 or 4: %q", count[tc.reason], tc.reason, got)
		}
		if uint64(summed[tc.reason]) != tc.total {
			t.Errorf("the lines for %s count %d drops, want all %d", tc.reason, summed[tc.reason], tc.total)
		}
	}
	if len(got) != count["start_rate"]+count["ready_rate"] {
		t.Errorf("lines for other reasons: %q", got)
	}
	// A quiet spell, then one drop: logged at once.
	now += time.Minute
	d.note(log, "room: dropped", now, totals[:], room.DropReasonName)
	if got := lines(); got != nil {
		t.Errorf("lines with no new drops: %q", got)
	}
	totals[room.DropSetupRate]++
	now += step
	d.note(log, "room: dropped", now, totals[:], room.DropReasonName)
	if got := lines(); len(got) != 1 || !strings.Contains(got[0], "reason=setup_rate") || !strings.Contains(got[0], "count=1") {
		t.Errorf("the first drop after a quiet spell logged as %q, want one setup_rate line at once", got)
	}
}

// TestHostDropLog: the host's own drops are logged the same way: one line
// per reason per dropLogEvery, and every drop is counted whatever the log
// says.
func TestHostDropLog(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, nil))
	var d dropLog
	var counts [numHostDrops]uint64
	start := time.Hour    // the host's clock, well after its start
	for i := range 1000 { // 10 s of drops, 100 a second of each reason
		now := start + time.Duration(i)*10*time.Millisecond
		counts[dropHostCreateRate]++
		counts[dropHostNoJoin]++
		d.note(log, "host: dropped", now, counts[:], hostDropName)
	}
	d.note(log, "host: dropped", start+dropLogEvery+time.Second, counts[:], hostDropName)
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	per := map[string]int{}
	for _, l := range lines {
		for _, r := range []string{"host_create_rate", "host_no_join"} {
			if strings.Contains(l, "reason="+r) {
				per[r]++
			}
		}
	}
	if per["host_create_rate"] != 2 || per["host_no_join"] != 2 || len(lines) != 4 {
		t.Errorf("%d log lines, by reason %v; want 2 per reason:\n%s", len(lines), per, buf.String())
	}
	if !strings.Contains(buf.String(), "count=999") {
		t.Errorf("no line sums up the 999 later drops:\n%s", buf.String())
	}
}
