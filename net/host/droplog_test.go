package host

import (
	"bytes"
	"log/slog"
	"net/netip"
	"strings"
	"testing"
	"time"
)

// TestHostDropLog: the host's new drops are logged one line per reason per
// dropLogEvery, the first of a quiet spell at once, the rest summed up when
// the interval is over, and every drop is counted whatever the log says.
func TestHostDropLog(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, nil))
	var d dropLog
	var counts [numHostDrops]uint64
	from := netip.MustParseAddrPort("10.0.0.1:4000")
	start := time.Hour    // the host's clock, well after its start
	for i := range 1000 { // 10 s of drops, 100 a second of each reason
		now := start + time.Duration(i)*10*time.Millisecond
		for _, r := range []int{dropHostCreateRate, dropHostNoJoin} {
			counts[r]++
			d.note(now, log, r, from, counts[r])
		}
		d.flush(now, log, func(r int) uint64 { return counts[r] })
	}
	d.flush(start+dropLogEvery+time.Second, log, func(r int) uint64 { return counts[r] })
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
