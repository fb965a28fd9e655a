package transport

import (
	"crypto/ecdh"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/xtaci/kcp-go/v5"
)

// The UDP transport's datagrams. Every datagram starts with one kind byte;
// integers are little-endian, like the KCP segment header they carry.
//
//	kind 1 Hello   client→server  kind | version u8 | nonce [8] | zero padding
//	                              at least helloSize (65) bytes in all, so that
//	                              no answer is larger than the question
//	kind 2 Cookie  server→client  kind | nonce [8] | cookie [16]            25 bytes
//	kind 3 Connect client→server  kind | version u8 | nonce [8] | cookie [16] |
//	                              client X25519 key [32] | zero padding, at
//	                              least connectSize (141) bytes: as long as
//	                              the Accept it asks for
//	kind 4 Accept  server→client  kind | nonce [8] | conv u32 | server X25519
//	                              key [32] | host Ed25519 key [32] |
//	                              signature [64] of the transcript   141 bytes
//	kind 5 Refuse  server→client  kind | nonce [8] | reason u8              10 bytes
//
// and, once the session is made, the sealed kinds (see crypto.go), each
// kind | conv u32 | seq u32 | sealed payload | tag [16]:
//
//	kind 6 Data     both ways  KCP segments, each a 24-byte header (conv u32,
//	                           cmd u8, frg u8, wnd u16, ts u32, sn u32, una u32,
//	                           len u32) and len bytes
//	kind 7 Ping     both ways  nothing (a heartbeat)
//	kind 8 Close    both ways  reason u8
//	kind 9 Datagram both ways  one frame, unreliable: sent at once, never
//	                           retransmitted or reordered by the transport
//	                           (SendDatagram)
//	kind 10 Challenge server→client  challenge [challengeSize]: sent to a new
//	                           address the session's peer was heard from,
//	                           before the session moves there
//	kind 11 Response  client→server  the challenge, echoed from the address
//	                           it reached
//
// and, outside any session, kind 12 Keepalive (keepalive.go): four bytes
// that keep a path through a NAT open, counted and dropped.
//
// The cookie is HMAC-SHA256(server secret, client IP (16 bytes, IPv4
// unmapped then 4-in-6) | client port u16 | nonce | time window u64)[:16],
// where the window is the Unix time divided by cookieWindow; the server
// accepts the current and the previous window. The server keeps no state for
// a source until a Connect carries a valid cookie, and it answers a Hello with
// a Cookie (or a Refuse for an unknown version) no larger than the Hello.
//
// The session is found by its conv, never by the address a datagram came
// from: a datagram that opens under the session's key and is not a replay
// is the peer's, whatever its source. The server answers a new source only
// once it has proved it can receive (path validation, as QUIC's, RFC 9000
// §8.2): it sends a Challenge there and moves the session when the Response
// comes back from there (see Server.established). Anything else is dropped
// and counted by reason. A cookie's Connect makes one session: a replayed
// Connect makes none.
//
// Kind ids are only ever appended; a changed layout takes a new
// protocolVersion, carried by Hello and Connect.
const (
	kindHello     byte = 1
	kindCookie    byte = 2
	kindConnect   byte = 3
	kindAccept    byte = 4
	kindRefuse    byte = 5
	kindData      byte = 6
	kindPing      byte = 7
	kindClose     byte = 8
	kindDgram     byte = 9
	kindChallenge byte = 10
	kindResponse  byte = 11
)

// protocolVersion is the version of the datagram layout above. Version 2:
// sealed datagrams, X25519 and a signed Accept. Version 3: Challenge and
// Response (a version 2 client would not answer a Challenge, and could not
// roam).
const protocolVersion byte = 3

// challengeSize is the bytes of a path challenge: random, so that only a
// peer that received it (and holds the session's keys) can echo it.
const challengeSize = 16

// amplification is how many times the bytes of the authentic datagrams
// from an address not yet validated the server sends there at most
// (challenges only), as QUIC's anti-amplification limit (RFC 9000 §8).
const amplification = 3

// challengeEvery is the least time between two challenges of one session:
// a peer that keeps forging new source addresses gets a challenge sent out
// at most this often. A real rebinding needs one, two if the first is lost.
const challengeEvery = 100 * time.Millisecond

// Sizes of the handshake datagrams, bytes (kind byte included).
const (
	nonceSize   = 8
	cookieSize  = 16
	helloSize   = 1 + 64 // the minimum; longer Hellos are accepted
	cookieLen   = 1 + nonceSize + cookieSize
	acceptLen   = 1 + nonceSize + 4 + keySize + ed25519.PublicKeySize + sigSize
	connectSize = acceptLen // the minimum; longer Connects are accepted
	connectBody = 1 + 1 + nonceSize + cookieSize + keySize
	refuseLen   = 1 + nonceSize + 1
	segmentHead = kcp.IKCP_OVERHEAD // bytes of a KCP segment header
)

// Close reasons carried by a Close datagram. Values from CloseApp up are the
// caller's own (Server.CloseConn); the transport uses the ones below it.
const (
	CloseNormal   byte = 0 // the peer hung up (Client.Run's context ended)
	CloseShutdown byte = 1 // the server is stopping
	CloseTimeout  byte = 2 // the sender stopped hearing from the receiver
	CloseProtocol byte = 3 // the receiver sent something the protocol forbids
	// 4 was CloseReplaced, when a new Connect from a session's address
	// replaced it; sessions are bound to their keys now, so none does.
	CloseApp byte = 16 // first reason free for callers
)

// Refuse reasons carried by a Refuse datagram.
const (
	RefuseFull    byte = 1 // the server holds MaxSessions sessions
	RefusePerIP   byte = 2 // the client's IP holds MaxPerIP sessions, or its /24 (/64) MaxPerSubnet
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
		return "transport: connection refused: too many sessions from this address or its network"
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

func appendConnect(b []byte, nonce [nonceSize]byte, cookie [cookieSize]byte, clientPub []byte) []byte {
	b = append(b, kindConnect, protocolVersion)
	b = append(b, nonce[:]...)
	b = append(b, cookie[:]...)
	b = append(b, clientPub...)
	for len(b) < connectSize {
		b = append(b, 0)
	}
	return b
}

func appendAccept(b []byte, nonce [nonceSize]byte, conv uint32, serverPub, hostPub, sig []byte) []byte {
	b = append(b, kindAccept)
	b = append(b, nonce[:]...)
	b = binary.LittleEndian.AppendUint32(b, conv)
	b = append(b, serverPub...)
	b = append(b, hostPub...)
	return append(b, sig...)
}

func appendRefuse(b []byte, nonce [nonceSize]byte, reason byte) []byte {
	b = append(b, kindRefuse)
	b = append(b, nonce[:]...)
	return append(b, reason)
}

// sealedKind reports whether kind is one of the sealed kinds.
func sealedKind(kind byte) bool { return kind >= kindData && kind <= kindResponse }

// convOf returns the conv id of a sealed datagram, and false if pkt is too
// short to hold one.
func convOf(pkt []byte) (uint32, bool) {
	if len(pkt) < sealedOverhead {
		return 0, false
	}
	return binary.LittleEndian.Uint32(pkt[1:5]), true
}

// clientHandshake is the client's side of the handshake, without a socket:
// the datagram to send (a Hello, then a Connect) and what each answer
// makes of it.
type clientHandshake struct {
	nonce  [nonceSize]byte
	eph    *ecdh.PrivateKey
	expect string // the host fingerprint required; "": any
	cookie bool   // a Cookie has arrived: pkt is the Connect
	pkt    []byte
}

// established is a handshake's outcome: the session's conv and keys, and
// the host key the server proved.
type established struct {
	conv    uint32
	ch      *channel
	hostPub ed25519.PublicKey
}

func newClientHandshake(expect string) (*clientHandshake, error) {
	eph, err := x25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("handshake key: %w", err)
	}
	h := &clientHandshake{eph: eph, expect: expect}
	_, _ = rand.Read(h.nonce[:]) // crypto/rand.Read never fails
	h.pkt = appendHello(nil, h.nonce)
	return h, nil
}

// receive handles one datagram from the server. It returns the session
// once an Accept proves it, an error for a refusal or a host key other
// than the one expected, and nothing for anything else (a stale or
// forged answer, which the retries outlive). After a Cookie, pkt is the
// Connect to send at once.
func (h *clientHandshake) receive(in []byte) (*established, error) {
	switch {
	case len(in) == cookieLen && in[0] == kindCookie && !h.cookie && string(in[1:1+nonceSize]) == string(h.nonce[:]):
		var cookie [cookieSize]byte
		copy(cookie[:], in[1+nonceSize:])
		h.pkt = appendConnect(nil, h.nonce, cookie, h.eph.PublicKey().Bytes())
		h.cookie = true
	case len(in) == acceptLen && in[0] == kindAccept && h.cookie && string(in[1:1+nonceSize]) == string(h.nonce[:]):
		return h.accept(in)
	case len(in) == refuseLen && in[0] == kindRefuse && string(in[1:1+nonceSize]) == string(h.nonce[:]):
		return nil, &RefusedError{Reason: in[1+nonceSize]}
	}
	return nil, nil
}

// accept checks an Accept's signature and derives the session keys.
func (h *clientHandshake) accept(in []byte) (*established, error) {
	off := 1 + nonceSize
	conv := binary.LittleEndian.Uint32(in[off:])
	off += 4
	serverPub := in[off : off+keySize]
	off += keySize
	hostPub := ed25519.PublicKey(in[off : off+ed25519.PublicKeySize])
	off += ed25519.PublicKeySize
	sig := in[off : off+sigSize]
	tr := transcript(h.nonce, h.eph.PublicKey().Bytes(), conv, serverPub, hostPub)
	if conv == 0 || !ed25519.Verify(hostPub, tr, sig) {
		return nil, nil // forged, or broken on the way: not the server's word
	}
	if fp := Fingerprint(hostPub); !strings.HasPrefix(fp, h.expect) { // "" pins nothing
		return nil, &HostKeyError{Want: h.expect, Got: fp}
	}
	peer, err := x25519.NewPublicKey(serverPub)
	if err != nil {
		return nil, nil
	}
	shared, err := h.eph.ECDH(peer)
	if err != nil {
		return nil, nil // a low-order point: not a real server's key
	}
	c2s, s2c, err := sessionKeys(shared, tr)
	if err != nil {
		return nil, err
	}
	ch, err := newChannel(conv, c2s, s2c)
	if err != nil {
		return nil, err
	}
	return &established{conv: conv, ch: ch, hostPub: slices.Clone(hostPub)}, nil
}

// checkSegments reports whether segs (the opened payload of a Data datagram)
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
