package lan

import (
	"encoding/binary"
	"errors"

	"github.com/miekg/dns"
)

// errShort: a packet ends inside its header, a question or a record's
// fixed fields, so nothing after that point can be found.
var errShort = errors.New("truncated")

// unpackLenient decodes an mDNS packet as far as it can: a record that
// does not decode (a type miekg/dns rejects, an NSEC with a bitmap it
// dislikes, a record of another responder's dialect) is skipped by its
// RDLENGTH and counted in bad, and the records after it are still read.
// miekg/dns's Msg.Unpack drops a whole section at the first such record,
// which would hide every game in an answer that also carries one. err is
// set only when the packet's framing itself breaks (then the records read
// so far are returned).
func unpackLenient(packet []byte) (msg dns.Msg, bad int, err error) {
	if len(packet) < 12 {
		return msg, 0, errShort
	}
	msg.Id = binary.BigEndian.Uint16(packet[0:])
	flags := binary.BigEndian.Uint16(packet[2:])
	msg.Response = flags&(1<<15) != 0
	msg.Opcode = int(flags>>11) & 0xf
	msg.Authoritative = flags&(1<<10) != 0
	msg.Truncated = flags&(1<<9) != 0
	msg.Rcode = int(flags & 0xf)
	counts := [4]int{}
	for i := range counts {
		counts[i] = int(binary.BigEndian.Uint16(packet[4+2*i:]))
	}
	off := 12
	for range counts[0] {
		name, next, err := dns.UnpackDomainName(packet, off)
		if err != nil || next+4 > len(packet) {
			return msg, bad, errShort
		}
		msg.Question = append(msg.Question, dns.Question{
			Name:   name,
			Qtype:  binary.BigEndian.Uint16(packet[next:]),
			Qclass: binary.BigEndian.Uint16(packet[next+2:]),
		})
		off = next + 4
	}
	sections := []*[]dns.RR{&msg.Answer, &msg.Ns, &msg.Extra}
	for s, dst := range sections {
		for range counts[1+s] { // each round moves off forward or returns: bounded by the packet
			rr, next, err := dns.UnpackRR(packet, off)
			if err == nil && next > off {
				if rr != nil {
					*dst = append(*dst, rr)
				}
				off = next
				continue
			}
			// Skip the record by its own framing: name, type, class,
			// TTL, RDLENGTH and that many bytes.
			_, next, err = dns.UnpackDomainName(packet, off)
			if err != nil || next+10 > len(packet) {
				return msg, bad + 1, errShort
			}
			end := next + 10 + int(binary.BigEndian.Uint16(packet[next+8:]))
			if end > len(packet) {
				return msg, bad + 1, errShort
			}
			bad++
			off = end
		}
	}
	return msg, bad, nil
}
