package portmap

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net/netip"
)

// PCP (RFC 6887): a MAP request and its answer are fixed-size datagrams to
// and from the gateway's port 5351, the port NAT-PMP uses too.
const (
	pcpVersion    = 2
	pcpOpMap      = 1
	pcpMapLen     = 60 // bytes: a 24-byte header and the 36-byte MAP opcode
	pcpProtoUDP   = 17
	pcpResponseOp = 0x80 // the R bit
)

// PCP result codes (RFC 6887, section 7.4).
const (
	pcpSuccess               = 0
	pcpUnsuppVersion         = 1
	pcpNotAuthorized         = 2
	pcpNetworkFailure        = 7
	pcpNoResources           = 8
	pcpCannotProvideExternal = 11
	pcpAddressMismatch       = 12
	pcpExcessiveRemotePeers  = 13
	pcpUnsuppProtocol        = 9
	pcpUserExceededQuota     = 10
	pcpMalformedRequest      = 3
	pcpUnsuppOpcode          = 4
	pcpUnsuppOption          = 5
	pcpMalformedOption       = 6
)

// pcpMapRequest is a PCP MAP request for UDP from client's internal port to
// the suggested external port, for lifetime seconds (0 deletes the
// mapping made with the same nonce).
func pcpMapRequest(client netip.Addr, nonce [12]byte, internal, external uint16, lifetime uint32) []byte {
	b := make([]byte, pcpMapLen)
	b[0] = pcpVersion
	b[1] = pcpOpMap
	binary.BigEndian.PutUint32(b[4:8], lifetime)
	c := client.As16() // an IPv4 client is written IPv4-mapped
	copy(b[8:24], c[:])
	copy(b[24:36], nonce[:])
	b[36] = pcpProtoUDP
	binary.BigEndian.PutUint16(b[40:42], internal)
	binary.BigEndian.PutUint16(b[42:44], external)
	// Suggested external address: the IPv4-mapped "any" (::ffff:0.0.0.0),
	// so an IPv4 router picks its own.
	b[54], b[55] = 0xff, 0xff
	return b
}

// pcpAnswer is a decoded answer to a MAP request.
type pcpAnswer struct {
	result   byte
	lifetime uint32 // seconds
	epoch    uint32 // the server's epoch: seconds since it last lost its mappings
	external netip.AddrPort
}

var errNotPCP = errors.New("not a PCP MAP answer")

// parsePCPAnswer decodes a gateway's answer to a MAP request carrying
// nonce. A NAT-PMP-only gateway answers a version 2 request with its own
// version 0 and UNSUPP_VERSION: that decodes as result pcpUnsuppVersion.
func parsePCPAnswer(b []byte, nonce [12]byte) (pcpAnswer, error) {
	if len(b) >= 4 && b[0] == 0 { // NAT-PMP (version 0): its result code is 16 bits at 2..4
		if binary.BigEndian.Uint16(b[2:4]) == natpmpUnsuppVersion {
			return pcpAnswer{result: pcpUnsuppVersion}, nil
		}
		return pcpAnswer{}, fmt.Errorf("%w: NAT-PMP answer, result %d", errNotPCP, binary.BigEndian.Uint16(b[2:4]))
	}
	if len(b) < 24 || b[0] != pcpVersion {
		if len(b) >= 4 && b[3] == pcpUnsuppVersion {
			return pcpAnswer{result: pcpUnsuppVersion}, nil
		}
		return pcpAnswer{}, fmt.Errorf("%w: %d bytes", errNotPCP, len(b))
	}
	if b[1] != pcpResponseOp|pcpOpMap {
		return pcpAnswer{}, fmt.Errorf("%w: opcode %#x", errNotPCP, b[1])
	}
	a := pcpAnswer{result: b[3], lifetime: binary.BigEndian.Uint32(b[4:8]), epoch: binary.BigEndian.Uint32(b[8:12])}
	if a.result != pcpSuccess {
		return a, nil // an error answer may omit or garble the opcode data
	}
	if len(b) < pcpMapLen {
		return pcpAnswer{}, fmt.Errorf("%w: success in %d bytes", errNotPCP, len(b))
	}
	if [12]byte(b[24:36]) != nonce {
		return pcpAnswer{}, fmt.Errorf("%w: another request's nonce", errNotPCP)
	}
	addr := netip.AddrFrom16([16]byte(b[44:60])).Unmap()
	a.external = netip.AddrPortFrom(addr, binary.BigEndian.Uint16(b[42:44]))
	return a, nil
}

// pcpOutcome is what the machine makes of a PCP result code.
func pcpOutcome(result byte) (Outcome, string) {
	switch result {
	case pcpSuccess:
		return OK, ""
	case pcpUnsuppVersion, pcpUnsuppOpcode, pcpUnsuppOption, pcpUnsuppProtocol, pcpMalformedRequest, pcpMalformedOption:
		return Unsupported, ""
	case pcpNotAuthorized:
		return Denied, "not authorized"
	case pcpNetworkFailure, pcpCannotProvideExternal:
		return NoPublic, ""
	case pcpNoResources, pcpUserExceededQuota, pcpExcessiveRemotePeers:
		return Denied, "no room for another mapping"
	case pcpAddressMismatch:
		return Denied, "address mismatch"
	}
	return Denied, fmt.Sprintf("PCP result %d", result)
}
