package lan

import (
	"encoding/binary"
	"testing"
	"time"

	"github.com/miekg/dns"
)

// badNSEC appends to a packed response one NSEC record, in the section
// whose count sits at countOff, whose type bitmap miekg/dns refuses (a
// window of length 0), the kind of record another responder may send.
func badNSEC(packet []byte, countOff int) []byte {
	out := append([]byte(nil), packet...)
	out = append(out, 0xc0, 12) // name: a pointer to the first question or answer name
	out = binary.BigEndian.AppendUint16(out, dns.TypeNSEC)
	out = binary.BigEndian.AppendUint16(out, dns.ClassINET|1<<15)
	out = binary.BigEndian.AppendUint32(out, 120)
	rdata := []byte{0xc0, 12, 0, 0} // next name, then window 0 with length 0
	out = binary.BigEndian.AppendUint16(out, uint16(len(rdata)))
	out = append(out, rdata...)
	binary.BigEndian.PutUint16(out[countOff:], binary.BigEndian.Uint16(out[countOff:])+1)
	return out
}

// TestTableKeepsWhatDecodes: an answer that carries, beside a game, a
// record that does not decode still lists the game, wherever the bad
// record sits; the record is counted as malformed once.
func TestTableKeepsWhatDecodes(t *testing.T) {
	good := rawPacket(t, ptr(inst("a1")), srv(inst("a1"), 7777), txt(inst("a1"), gameTXT("a1", 1)...))
	var msg dns.Msg
	if err := msg.Unpack(badNSEC(good, 6)); err == nil {
		t.Fatalf("miekg/dns decodes the bad NSEC: the test proves nothing")
	}
	for name, packet := range map[string][]byte{
		"answers end with it": badNSEC(good, 6),
		"additional records":  badNSEC(good, 10),
		"an authority record": badNSEC(good, 8),
	} {
		t.Run(name, func(t *testing.T) {
			tab := newTable(3*time.Second, MaxGames)
			err := tab.receive(t0, packet, src4)
			if games := tab.list(t0); len(games) != 1 || games[0].ID != "a1" || games[0].Addr.Port() != 7777 {
				t.Errorf("games %v, want a1 on port 7777", games)
			}
			if st := tab.stats; st.Malformed != 1 || st.Answers != 1 || err == nil {
				t.Errorf("stats %+v, error %v; want 1 malformed, 1 answer, an error", st, err)
			}
		})
	}
	// A packet cut inside a record is still refused as a whole.
	tab := newTable(3*time.Second, MaxGames)
	if err := tab.receive(t0, good[:len(good)-3], src4); err == nil || len(tab.list(t0)) != 0 {
		t.Errorf("a truncated packet: error %v, games %v", err, tab.list(t0))
	}
}
