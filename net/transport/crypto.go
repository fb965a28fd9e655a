package transport

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ed25519"
	"crypto/hkdf"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
)

// The session's cryptography. The handshake agrees on ephemeral X25519
// keys (crypto/ecdh); the server signs the handshake transcript with its
// long-term Ed25519 host key, so that a client that knows the host's
// fingerprint can tell it from an impostor. HKDF-SHA256 turns the shared
// secret into one key per direction, and every datagram after the
// handshake is sealed with AES-256-GCM under its direction's key:
//
//	kind u8 | conv u32 | seq u32 | ciphertext | tag [16]
//
// The clear header (kind, conv, seq) is the additional data; the nonce is
// seq (little-endian, zero-padded to 12 bytes). seq counts the sender's
// datagrams from 1 and never repeats under one key: a session that would
// wrap it ends instead (2^32 datagrams, years at a game's rate). The
// receiver keeps a window of the last replayWindow sequence numbers and
// drops what it has seen or what is older.

// Sizes of the sealed datagrams, bytes.
const (
	sealHead       = 1 + 4 + 4 // kind, conv, seq: in clear, authenticated
	tagSize        = 16        // GCM tag
	sealedOverhead = sealHead + tagSize
	keySize        = 32 // AES-256 and X25519 public keys
	sigSize        = ed25519.SignatureSize
	replayWindow   = 1024 // sequence numbers a receiver remembers; a multiple of 64
)

// transcriptLabel starts every signed handshake transcript and every HKDF
// salt: a signature made for anything else never verifies here.
const transcriptLabel = "rockstep transport v3 handshake"

// ErrHostKey is returned by Dial when the server proves a host key other
// than the one Config.HostFingerprint asks for. Test with errors.Is; the
// error is a *HostKeyError.
var ErrHostKey = errors.New("transport: host key does not match")

// HostKeyError is the error Dial returns when the server's host key is not
// the expected one. It matches ErrHostKey under errors.Is.
type HostKeyError struct {
	Want, Got string // fingerprints
}

func (e *HostKeyError) Error() string {
	return fmt.Sprintf("transport: the server's host key %s is not the expected %s", FormatFingerprint(e.Got), FormatFingerprint(e.Want))
}

// Is makes errors.Is(err, ErrHostKey) true for every HostKeyError.
func (e *HostKeyError) Is(target error) bool { return target == ErrHostKey }

// transcript is what the server signs in an Accept: everything both ends
// agreed on. Its hash also salts the key derivation.
func transcript(nonce [nonceSize]byte, clientPub []byte, conv uint32, serverPub, hostPub []byte) []byte {
	b := make([]byte, 0, len(transcriptLabel)+nonceSize+3*keySize+4)
	b = append(b, transcriptLabel...)
	b = append(b, nonce[:]...)
	b = append(b, clientPub...)
	b = binary.LittleEndian.AppendUint32(b, conv)
	b = append(b, serverPub...)
	return append(b, hostPub...)
}

// sessionKeys derives the two directions' keys from the X25519 shared
// secret and the transcript.
func sessionKeys(shared, transcript []byte) (clientToServer, serverToClient []byte, err error) {
	salt := sha256.Sum256(transcript)
	c2s, err := hkdf.Key(sha256.New, shared, salt[:], "rockstep c2s", keySize)
	if err != nil {
		return nil, nil, err
	}
	s2c, err := hkdf.Key(sha256.New, shared, salt[:], "rockstep s2c", keySize)
	if err != nil {
		return nil, nil, err
	}
	return c2s, s2c, nil
}

// newAEAD returns AES-256-GCM under key.
func newAEAD(key []byte) (cipher.AEAD, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// channel is one end's sealing state: its own key and sequence, the
// peer's key and replay window.
type channel struct {
	conv   uint32
	send   cipher.AEAD
	recv   cipher.AEAD
	seq    uint32 // of the last datagram sealed; 0: none yet
	replay replay

	// Scratch, kept here so that the AEAD's arguments do not escape to
	// the heap on every datagram.
	head   [sealHead]byte
	nonce  [12]byte
	rnonce [12]byte
}

// newChannel makes a channel for conv with the keys of each direction.
func newChannel(conv uint32, sendKey, recvKey []byte) (*channel, error) {
	send, err := newAEAD(sendKey)
	if err != nil {
		return nil, err
	}
	recv, err := newAEAD(recvKey)
	if err != nil {
		return nil, err
	}
	return &channel{conv: conv, send: send, recv: recv}, nil
}

// errExhausted: the channel has sealed 2^32-1 datagrams and may seal no
// more under its key.
var errExhausted = errors.New("transport: sequence numbers exhausted")

// seal appends to dst the sealed datagram of kind carrying plaintext. dst's
// spare capacity must not overlap plaintext.
func (ch *channel) seal(dst []byte, kind byte, plaintext []byte) ([]byte, error) {
	if ch.seq == ^uint32(0) {
		return dst, errExhausted
	}
	ch.seq++
	ch.head[0] = kind
	binary.LittleEndian.PutUint32(ch.head[1:], ch.conv)
	binary.LittleEndian.PutUint32(ch.head[5:], ch.seq)
	binary.LittleEndian.PutUint64(ch.nonce[:], uint64(ch.seq))
	dst = append(dst, ch.head[:]...)
	return ch.send.Seal(dst, ch.nonce[:], plaintext, ch.head[:]), nil
}

// openResult says what open made of a datagram.
type openResult uint8

const (
	openOK        openResult = iota
	openMalformed            // too short to be sealed
	openReplay               // a sequence number seen before, or older than the window
	openForged               // fails authentication: not sealed by the peer under this session's key
)

// open authenticates and decrypts a sealed datagram for this channel (its
// conv already checked by the caller) into dst[:0], and marks its
// sequence number seen. The plaintext is valid until dst is reused; pkt is
// not modified. newest reports whether seq is the highest seen so far.
func (ch *channel) open(dst, pkt []byte) (plain []byte, newest bool, r openResult) {
	if len(pkt) < sealedOverhead {
		return nil, false, openMalformed
	}
	seq := binary.LittleEndian.Uint32(pkt[5:9])
	if !ch.replay.fresh(seq) {
		return nil, false, openReplay
	}
	binary.LittleEndian.PutUint64(ch.rnonce[:], uint64(seq))
	plain, err := ch.recv.Open(dst[:0], ch.rnonce[:], pkt[sealHead:], pkt[:sealHead])
	if err != nil {
		return nil, false, openForged
	}
	newest = seq > ch.replay.top
	ch.replay.mark(seq)
	return plain, newest, openOK
}

// replay remembers which of the last replayWindow sequence numbers have
// arrived. Sequence numbers start at 1; 0 never arrives.
type replay struct {
	top  uint32 // the highest sequence number seen; 0: none yet
	bits [replayWindow / 64]uint64
}

// fresh reports whether seq may be new: not 0, not older than the window,
// not seen before.
func (r *replay) fresh(seq uint32) bool {
	switch {
	case seq == 0:
		return false
	case seq > r.top:
		return true
	case r.top-seq >= replayWindow:
		return false
	}
	return r.bits[seq/64%(replayWindow/64)]&(1<<(seq%64)) == 0
}

// mark records seq as seen; call it only for a seq that fresh accepted and
// that authenticated.
func (r *replay) mark(seq uint32) {
	if seq > r.top {
		// Forget the numbers the window slides past.
		if seq-r.top >= replayWindow {
			r.bits = [replayWindow / 64]uint64{}
		} else {
			for s := uint64(r.top) + 1; s <= uint64(seq); s++ { // fewer than replayWindow turns
				r.bits[s/64%(replayWindow/64)] &^= 1 << (s % 64)
			}
		}
		r.top = seq
	}
	r.bits[seq/64%(replayWindow/64)] |= 1 << (seq % 64)
}

// x25519 is the curve of the handshake's ephemeral keys.
var x25519 = ecdh.X25519()
