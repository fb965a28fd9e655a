package transport

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/xtaci/kcp-go/v5"
)

// The UDP transport's datagrams. Every datagram starts with one kind byte;
// integers are little-endian, like the KCP segment header they sit next to.
//
//	kind 1 Hello   client→server  kind | version u8 | nonce [8] | zero padding
//	                              at least helloSize (65) bytes in all, so that
//	                              no answer is larger than the question
//	kind 2 Cookie  server→client  kind | nonce [8] | cookie [16]            25 bytes
//	kind 3 Connect client→server  kind | version u8 | nonce [8] | cookie [16] 26 bytes
//	kind 4 Accept  server→client  kind | nonce [8] | conv u32               13 bytes
//	kind 5 Refuse  server→client  kind | nonce [8] | reason u8              10 bytes
//	kind 6 Data    both ways      kind | KCP segments, each a 24-byte header
//	                              (conv u32, cmd u8, frg u8, wnd u16, ts u32,
//	                              sn u32, una u32, len u32) and len bytes
//	kind 7 Ping    both ways      kind | conv u32                            5 bytes
//	kind 8 Close   both ways      kind | conv u32 | reason u8                6 bytes
//	kind 9 Datagram both ways     kind | conv u32 | one frame, unreliable: sent
//	                              at once, never retransmitted or reordered by
//	                              the transport (SendDatagram)
//
// The cookie is HMAC-SHA256(server secret, client IP (16 bytes, IPv4
// unmapped then 4-in-6) | client port u16 | nonce | time window u64)[:16],
// where the window is the Unix time divided by cookieWindow; the server
// accepts the current and the previous window. The server keeps no state for
// a source until a Connect carries a valid cookie, and it answers a Hello with
// a Cookie (or a Refuse for an unknown version) no larger than the Hello.
//
// Kind ids are only ever appended; a changed layout takes a new
// protocolVersion, carried by Hello and Connect.
const (
	kindHello   byte = 1
	kindCookie  byte = 2
	kindConnect byte = 3
	kindAccept  byte = 4
	kindRefuse  byte = 5
	kindData    byte = 6
	kindPing    byte = 7
	kindClose   byte = 8
	kindDgram   byte = 9
)

// protocolVersion is the version of the datagram layout above.
const protocolVersion byte = 1

// Sizes of the handshake datagrams, bytes (kind byte included).
const (
	nonceSize   = 8
	cookieSize  = 16
	helloSize   = 1 + 64 // the minimum; longer Hellos are accepted
	cookieLen   = 1 + nonceSize + cookieSize
	connectLen  = 1 + 1 + nonceSize + cookieSize
	acceptLen   = 1 + nonceSize + 4
	refuseLen   = 1 + nonceSize + 1
	pingLen     = 1 + 4
	closeLen    = 1 + 4 + 1
	dgramHead   = 1 + 4
	segmentHead = kcp.IKCP_OVERHEAD // bytes of a KCP segment header
)

// Close reasons carried by a Close datagram. Values from CloseApp up are the
// caller's own (Server.CloseConn); the transport uses the ones below it.
const (
	CloseNormal   byte = 0  // the peer hung up (Client.Run's context ended)
	CloseShutdown byte = 1  // the server is stopping
	CloseTimeout  byte = 2  // the sender stopped hearing from the receiver
	CloseProtocol byte = 3  // the receiver sent something the protocol forbids
	CloseReplaced byte = 4  // a new Connect from the same address replaced the session
	CloseApp      byte = 16 // first reason free for callers
)

// Refuse reasons carried by a Refuse datagram.
const (
	RefuseFull    byte = 1 // the server holds MaxSessions sessions
	RefusePerIP   byte = 2 // the client's IP holds MaxPerIP sessions
	RefuseVersion byte = 3 // the server does not speak the client's protocol version
)

// Errors returned by the UDP transport. Test with errors.Is: returned errors
// wrap them with detail. Send also returns ErrQueueFull (declared with Pipe)
// when MaxQueue bytes are waiting.
var (
	ErrTimeout     = errors.New("transport: peer timed out")
	ErrClosed      = errors.New("transport: connection closed")
	ErrRefused     = errors.New("transport: connection refused")
	ErrFrameSize   = errors.New("transport: frame size out of range")
	ErrUnknownConn = errors.New("transport: unknown connection")
	ErrBadConfig   = errors.New("transport: bad config")
	// ErrAbandoned, as the cause of a Run context's cancellation, stops
	// the client without telling the server: a crash, as tests need one.
	ErrAbandoned = errors.New("transport: abandoned")
)

// CloseError says why a connection was closed and by whom. It matches
// ErrClosed under errors.Is.
type CloseError struct {
	Reason byte // a Close reason: CloseNormal, CloseShutdown, …, or the caller's own
	ByPeer bool // the other end closed (a Close datagram arrived)
}

func (e *CloseError) Error() string {
	who := "locally"
	if e.ByPeer {
		who = "by peer"
	}
	return fmt.Sprintf("transport: connection closed %s, reason %d", who, e.Reason)
}

// Is makes errors.Is(err, ErrClosed) true for every CloseError.
func (e *CloseError) Is(target error) bool { return target == ErrClosed }

// RefusedError is the error Dial returns when the server refuses to connect.
// It matches ErrRefused under errors.Is.
type RefusedError struct {
	Reason byte // RefuseFull, RefusePerIP or RefuseVersion
}

func (e *RefusedError) Error() string {
	switch e.Reason {
	case RefuseFull:
		return "transport: connection refused: server full"
	case RefusePerIP:
		return "transport: connection refused: too many sessions from this address"
	case RefuseVersion:
		return "transport: connection refused: protocol version not supported"
	}
	return fmt.Sprintf("transport: connection refused, reason %d", e.Reason)
}

// Is makes errors.Is(err, ErrRefused) true for every RefusedError.
func (e *RefusedError) Is(target error) bool { return target == ErrRefused }

func appendHello(b []byte, nonce [nonceSize]byte) []byte {
	b = append(b, kindHello, protocolVersion)
	b = append(b, nonce[:]...)
	for len(b) < helloSize {
		b = append(b, 0)
	}
	return b
}

func appendCookie(b []byte, nonce [nonceSize]byte, cookie [cookieSize]byte) []byte {
	b = append(b, kindCookie)
	b = append(b, nonce[:]...)
	return append(b, cookie[:]...)
}

func appendConnect(b []byte, nonce [nonceSize]byte, cookie [cookieSize]byte) []byte {
	b = append(b, kindConnect, protocolVersion)
	b = append(b, nonce[:]...)
	return append(b, cookie[:]...)
}

func appendAccept(b []byte, nonce [nonceSize]byte, conv uint32) []byte {
	b = append(b, kindAccept)
	b = append(b, nonce[:]...)
	return binary.LittleEndian.AppendUint32(b, conv)
}

func appendRefuse(b []byte, nonce [nonceSize]byte, reason byte) []byte {
	b = append(b, kindRefuse)
	b = append(b, nonce[:]...)
	return append(b, reason)
}

func appendPing(b []byte, conv uint32) []byte {
	return binary.LittleEndian.AppendUint32(append(b, kindPing), conv)
}

func appendClose(b []byte, conv uint32, reason byte) []byte {
	return append(binary.LittleEndian.AppendUint32(append(b, kindClose), conv), reason)
}

// appendDatagram appends a Datagram datagram carrying frame for conv.
func appendDatagram(b []byte, conv uint32, frame []byte) []byte {
	b = append(b, kindDgram)
	b = binary.LittleEndian.AppendUint32(b, conv)
	return append(b, frame...)
}

// convOf returns the conv id of a Data, Ping, Close or Datagram datagram,
// and false if pkt is too short to hold one.
func convOf(pkt []byte) (uint32, bool) {
	if len(pkt) < 5 {
		return 0, false
	}
	return binary.LittleEndian.Uint32(pkt[1:5]), true
}

// checkSegments reports whether segs (a Data datagram without its kind byte)
// is a well-formed run of KCP segments, all for conv, that kcp.KCP.Input can
// take safely: known commands, lengths within the datagram and at most mss,
// and fragment counts no larger than a wire.MaxFrame frame needs. KCP itself
// would accept some of these and then stall (a message with more fragments
// than the receive window) or panic (a segment larger than its buffers).
func checkSegments(segs []byte, conv uint32, mss, maxFrg int) bool {
	if len(segs) < segmentHead {
		return false
	}
	for len(segs) > 0 {
		if len(segs) < segmentHead {
			return false
		}
		if binary.LittleEndian.Uint32(segs[0:4]) != conv {
			return false
		}
		cmd, frg := segs[4], segs[5]
		n := binary.LittleEndian.Uint32(segs[20:24])
		switch cmd {
		case kcp.IKCP_CMD_PUSH:
			if int(frg) > maxFrg || n == 0 || n > uint32(mss) {
				return false
			}
		case kcp.IKCP_CMD_ACK, kcp.IKCP_CMD_WASK, kcp.IKCP_CMD_WINS:
			if n != 0 || frg != 0 {
				return false
			}
		default:
			return false
		}
		if uint64(n) > uint64(len(segs)-segmentHead) {
			return false
		}
		segs = segs[segmentHead+int(n):]
	}
	return true
}
