package transport

import (
	"bytes"
	"log/slog"
	"net/netip"
	"strings"
	"testing"
	"time"
)

// TestDropLog: a server's drops are logged one line per reason per
// dropLogEvery, the first of a quiet spell at once, the rest summed up,
// and every drop is counted whatever the log says.
func TestDropLog(t *testing.T) {
	var buf bytes.Buffer
	cfg := LAN()
	cfg.Log = slog.New(slog.NewTextHandler(&buf, nil))
	o := newOffline(t, cfg)
	from := netip.MustParseAddrPort("10.0.0.1:4000")
	junk := []byte{0xee, 1, 2, 3}
	forged := forgeries(12345, 1)[0] // no such session
	now := t0
	for i := range 1000 { // 10 s of drops, 100 a second of each reason
		now = t0.Add(time.Duration(i) * 10 * time.Millisecond)
		o.handlePacket(now, from, junk)
		o.handlePacket(now, from, forged)
		o.tick(now)
	}
	o.tick(t0.Add(dropLogEvery + time.Second))
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	per := map[string]int{}
	for _, l := range lines {
		for _, r := range []string{"malformed", "unknown_session"} {
			if strings.Contains(l, "reason="+r) {
				per[r]++
			}
		}
	}
	// The first drop of each reason, then one line summing the other 999.
	if per["malformed"] != 2 || per["unknown_session"] != 2 || len(lines) != 4 {
		t.Errorf("%d log lines, by reason %v; want 2 per reason:\n%s", len(lines), per, buf.String())
	}
	if !strings.Contains(buf.String(), "count=999") {
		t.Errorf("no line sums up the 999 later drops:\n%s", buf.String())
	}
	if st := o.Stats(); st.Dropped[DropMalformed] != 1000 || st.Dropped[DropUnknownSession] != 1000 {
		t.Errorf("counted %v, want 1000 of each", st.Dropped)
	}
}
