package wire

import (
	"errors"
	"fmt"
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
	TypeKick:            "kick",
	TypeStandby:         "standby",
	TypeSuccessors:      "successors",
	TypeRoomListRequest: "room list request",
	TypeRoomList:        "room list",
	TypeRepair:          "repair",
	TypeDigestRequest:   "digest request",
	TypeDigest:          "digest",
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
