package portmap

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net/netip"
)

// NAT-PMP (RFC 6886), spoken here rather than through a library so that
// its result codes and epoch are read as numbers: a request and its answer
// are one small datagram each way to the gateway's port 5351.
const (
	natpmpVersion   = 0
	natpmpOpAddress = 0 // ask for the router's outside address
	natpmpOpMapUDP  = 1
	natpmpAnswerOp  = 128 // added to the request's opcode in its answer

	natpmpAddressLen = 12 // bytes: the answer to opcode 0
	natpmpMapLen     = 16 // bytes: the answer to a mapping request
)

// NAT-PMP result codes (RFC 6886, section 3.5).
const (
	natpmpSuccess        = 0
	natpmpUnsuppVersion  = 1
	natpmpNotAuthorized  = 2
	natpmpNetworkFailure = 3 // the router has no outside address itself
	natpmpOutOfResources = 4
	natpmpUnsuppOpcode   = 5
)

var errNotNATPMP = errors.New("not a NAT-PMP answer")

// natpmpAnswer is a decoded NAT-PMP answer: the result code and epoch
// always; the outside address (opcode 0) or the mapping (opcode 1) on
// success.
type natpmpAnswer struct {
	op       byte   // the request's opcode it answers
	result   uint16 // result code
	epoch    uint32 // seconds since the router's mappings were last reset
	external netip.Addr
	internal uint16
	mapped   uint16 // the external port granted
	lifetime uint32 // seconds
}

// natpmpAddressRequest asks the router for its outside address.
func natpmpAddressRequest() []byte { return []byte{natpmpVersion, natpmpOpAddress} }

// natpmpMapRequest asks for a UDP mapping of internal to the suggested
// external port for lifetime seconds (lifetime 0 and external 0 delete
// the mapping of internal).
func natpmpMapRequest(internal, external uint16, lifetime uint32) []byte {
	b := make([]byte, 12)
	b[0], b[1] = natpmpVersion, natpmpOpMapUDP
	binary.BigEndian.PutUint16(b[4:6], internal)
	binary.BigEndian.PutUint16(b[6:8], external)
	binary.BigEndian.PutUint32(b[8:12], lifetime)
	return b
}

// parseNATPMPAnswer decodes the answer to a request of opcode op (for a
// mapping, of internal port internal). An error answer may be short: its
// result code is still read (RFC 6886 section 3.5: a router that does not
// speak version 0 answers with its own version and UNSUPP_VERSION).
func parseNATPMPAnswer(b []byte, op byte, internal uint16) (natpmpAnswer, error) {
	if len(b) < 4 {
		return natpmpAnswer{}, fmt.Errorf("%w: %d bytes", errNotNATPMP, len(b))
	}
	if b[1] != natpmpAnswerOp+op {
		return natpmpAnswer{}, fmt.Errorf("%w: opcode %#x", errNotNATPMP, b[1])
	}
	a := natpmpAnswer{op: op, result: binary.BigEndian.Uint16(b[2:4])}
	if b[0] != natpmpVersion {
		if a.result == natpmpUnsuppVersion {
			return a, nil
		}
		return natpmpAnswer{}, fmt.Errorf("%w: version %d", errNotNATPMP, b[0])
	}
	if len(b) >= 8 {
		a.epoch = binary.BigEndian.Uint32(b[4:8])
	}
	if a.result != natpmpSuccess {
		return a, nil
	}
	switch op {
	case natpmpOpAddress:
		if len(b) < natpmpAddressLen {
			return natpmpAnswer{}, fmt.Errorf("%w: address answer in %d bytes", errNotNATPMP, len(b))
		}
		a.external = netip.AddrFrom4([4]byte(b[8:12]))
	default:
		if len(b) < natpmpMapLen {
			return natpmpAnswer{}, fmt.Errorf("%w: mapping answer in %d bytes", errNotNATPMP, len(b))
		}
		a.internal = binary.BigEndian.Uint16(b[8:10])
		a.mapped = binary.BigEndian.Uint16(b[10:12])
		a.lifetime = binary.BigEndian.Uint32(b[12:16])
		if a.internal != internal {
			return natpmpAnswer{}, fmt.Errorf("%w: another port's mapping (%d)", errNotNATPMP, a.internal)
		}
	}
	return a, nil
}

// natpmpOutcome is what the machine makes of a NAT-PMP result code.
func natpmpOutcome(result uint16) (Outcome, string) {
	switch result {
	case natpmpSuccess:
		return OK, ""
	case natpmpUnsuppVersion, natpmpUnsuppOpcode:
		return Unsupported, ""
	case natpmpNotAuthorized:
		return Denied, "not authorized"
	case natpmpNetworkFailure:
		return NoPublic, ""
	case natpmpOutOfResources:
		return Denied, "no room for another mapping"
	}
	return Denied, fmt.Sprintf("NAT-PMP result %d", result)
}
