package wire

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// Errors that decoding and encoding wrap. Test for them with errors.Is; the
// wrapping error names the message and the field.
var (
	ErrVersion     = errors.New("wrong protocol version")
	ErrUnknownType = errors.New("unknown message type")
	ErrTooLarge    = errors.New("too large")
	ErrTruncated   = errors.New("truncated")
	ErrTrailing    = errors.New("trailing bytes")
	ErrLimit       = errors.New("over limit") // a length or count above its limit
	ErrInvalid     = errors.New("invalid")    // a value outside its range or a malformed field
)

// headerSize is the size of a frame header: version and type, in bytes.
const headerSize = 2

// typeNames names the message types in errors and logs, indexed by Type.
var typeNames = [...]string{
	TypeHello:           "hello",
	TypeCookie:          "cookie",
	TypeJoin:            "join",
	TypeWelcome:         "welcome",
	TypeRefuse:          "refuse",
	TypeSetupState:      "setup state",
	TypeSetupChange:     "setup change",
	TypeReady:           "ready",
	TypeStart:           "start",
	TypeClientPacket:    "client packet",
	TypeMasterPacket:    "master packet",
	TypePing:            "ping",
	TypePong:            "pong",
	TypeLeave:           "leave",
	TypeSnapshotRequest: "snapshot request",
	TypeSnapshotChunk:   "snapshot chunk",
	TypeDesyncReport:    "desync report",
	TypeChat:            "chat",
	TypeRoomStatus:      "room status",
	TypePause:           "pause",
	TypeStartGame:       "start game",
	TypeCreateRoom:      "create room",
	TypeRoomCreated:     "room created",
	TypeEndGame:         "end game",
}

// String returns the message type's name as errors and logs print it,
// such as "master packet", or "type(42)" for an unknown type.
func (t Type) String() string {
	if t.known() {
		return typeNames[t]
	}
	return "type(" + strconv.Itoa(int(t)) + ")"
}

// known reports whether t is a message type of this protocol version.
func (t Type) known() bool {
	return int(t) < len(typeNames) && typeNames[t] != ""
}

// Peek checks a frame's size and version and returns its message type and
// payload (a sub-slice of frame). It does not check that the type is known
// or that the payload is valid: Decode does.
func Peek(frame []byte) (Type, []byte, error) {
	switch {
	case len(frame) > MaxFrame:
		return 0, nil, fmt.Errorf("frame of %d bytes, limit %d: %w", len(frame), MaxFrame, ErrTooLarge)
	case len(frame) < headerSize:
		return 0, nil, fmt.Errorf("frame of %d bytes, header needs %d: %w", len(frame), headerSize, ErrTruncated)
	case frame[0] != Version:
		return 0, nil, fmt.Errorf("frame version %d, want %d: %w", frame[0], Version, ErrVersion)
	}
	return Type(frame[1]), frame[headerSize:], nil
}

// AppendStreamFrame appends frame to b with its length as an unsigned
// varint before it, for stream transports. frame should be a whole frame
// as Append makes it (1..MaxFrame bytes); a StreamReader rejects others.
func AppendStreamFrame(b, frame []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(frame)))
	return append(b, frame...)
}

// maxPrefix is the size of the longest length prefix a StreamReader
// accepts: MaxFrame fits in two varint bytes.
const maxPrefix = 2

// StreamReader reads the frames that AppendStreamFrame wrote from a byte
// stream. It never holds more than one frame in memory and never allocates
// per frame.
type StreamReader struct {
	r   io.ByteReader
	rr  io.Reader
	buf [MaxFrame]byte
	err error // sticky: after a bad prefix the stream has lost its framing
}

// NewStreamReader returns a StreamReader reading from r. It buffers r
// unless r already implements io.ByteReader, so it may read ahead of the
// frame it returns: give it the stream for good.
func NewStreamReader(r io.Reader) *StreamReader {
	s := &StreamReader{}
	if br, ok := r.(interface {
		io.Reader
		io.ByteReader
	}); ok {
		s.r, s.rr = br, br
	} else {
		b := bufio.NewReaderSize(r, 2*MaxFrame)
		s.r, s.rr = b, b
	}
	return s
}

// Next returns the next frame. The slice is valid until the following call
// to Next. At the end of the stream between frames it returns io.EOF; a
// stream that ends inside a frame gives io.ErrUnexpectedEOF. A length
// prefix of 0, above MaxFrame or not minimally encoded is an error, and so
// is every later call, since the stream has lost its framing.
func (s *StreamReader) Next() ([]byte, error) {
	if s.err != nil {
		return nil, s.err
	}
	n, err := s.readLength()
	if err != nil {
		s.err = err
		return nil, err
	}
	if _, err := io.ReadFull(s.rr, s.buf[:n]); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		s.err = fmt.Errorf("stream frame of %d bytes: %w", n, err)
		return nil, s.err
	}
	return s.buf[:n], nil
}

// readLength reads and checks a frame's length prefix.
func (s *StreamReader) readLength() (int, error) {
	var n uint64
	for i := 0; ; i++ {
		c, err := s.r.ReadByte()
		if err != nil {
			if err == io.EOF && i > 0 {
				err = io.ErrUnexpectedEOF
			}
			if err == io.EOF {
				return 0, io.EOF
			}
			return 0, fmt.Errorf("stream frame length: %w", err)
		}
		n |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			switch {
			case i > 0 && c == 0:
				return 0, fmt.Errorf("stream frame length: not minimally encoded: %w", ErrInvalid)
			case n == 0:
				return 0, fmt.Errorf("stream frame length 0: %w", ErrInvalid)
			case n > MaxFrame:
				return 0, fmt.Errorf("stream frame length %d, limit %d: %w", n, MaxFrame, ErrTooLarge)
			}
			return int(n), nil
		}
		if i+1 == maxPrefix {
			return 0, fmt.Errorf("stream frame length above %d: %w", MaxFrame, ErrTooLarge)
		}
	}
}
