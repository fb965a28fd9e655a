package replay

import (
	"bufio"
	"encoding/binary"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"rockstep/game"
	"rockstep/internal/userdir"
	"rockstep/net/room"
	"rockstep/net/wire"
)

// Writer records a game as the room plays it. It implements room.Recorder;
// the room calls it on its own goroutine, and Flush and Close may be called
// from any goroutine. Records are buffered and reach the file on Flush (the
// host flushes every second, so a crash loses at most the last second).
type Writer struct {
	mu      sync.Mutex
	w       *bufio.Writer
	file    io.Closer
	size    int64
	max     int64
	full    bool
	err     error
	buf     []byte
	mp      wire.MasterPacket
	lastEnd bool
	turns   uint32
	pending []agreed // hashes reported, not yet written, by turn
}

// agreed is a turn's hash and the slots that reported it.
type agreed struct {
	turn uint32
	mask uint8
	hash uint32
}

// hashLag is how many turns a turn's hashes are held to gather every
// player's report into one record.
const hashLag = 16

// NewWriter starts a replay on w, bounded to maxSize bytes (0: the default).
func NewWriter(w io.Writer, maxSize int64) *Writer {
	if maxSize <= 0 {
		maxSize = DefaultMaxSize
	}
	rw := &Writer{w: bufio.NewWriterSize(w, 16<<10), max: maxSize}
	rw.mp.Turns = make([]wire.MasterTurn, 1)
	rw.raw(append([]byte(Magic), Version))
	return rw
}

// Create creates (or truncates) the replay file at path, making its folder.
func Create(path string, maxSize int64) (*Writer, error) {
	return create(path, maxSize, os.O_TRUNC)
}

// CreateNew creates the replay file at path, making its folder, unless a
// file is there already (an error matching fs.ErrExist): a game recorded
// into a name of its own never writes over another's.
func CreateNew(path string, maxSize int64) (*Writer, error) {
	return create(path, maxSize, os.O_EXCL)
}

func create(path string, maxSize int64, flag int) (*Writer, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|flag, 0o666)
	if err != nil {
		return nil, err
	}
	w := NewWriter(f, maxSize)
	w.file = f
	return w, nil
}

// Folder returns the replays folder in Rockstep's folder dir (see
// userdir.Dir): where hosted games and servers record unless told
// otherwise, and what the Replays screen lists.
func Folder(dir string) string { return filepath.Join(dir, "replays") }

// DefaultFolder returns the replays folder in Rockstep's folder of this
// user (userdir.Dir, which $ROCKSTEP_CONFIG_DIR moves).
func DefaultFolder() (string, error) {
	dir, err := userdir.Dir()
	if err != nil {
		return "", err
	}
	return Folder(dir), nil
}

// FileName returns the file name of the replay of game n (a count of the
// recording process's games, from 1) starting at t in room roomID, named
// roomName, such as "20250301-193000-Ada_s_game-r3-12.rsrp": UTC time
// first, so that names sort by start; the room's id and the count, so
// that games started in the same second on one server (in rooms of the
// same name, or in one room, a rematch) each have their own file.
func FileName(t time.Time, roomID uint32, n int, roomName string) string {
	return t.UTC().Format("20060102-150405") + "-" + safeName(roomName) + "-r" + strconv.FormatUint(uint64(roomID), 10) + "-" + strconv.Itoa(n) + ".rsrp"
}

func safeName(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s) && len(b) < 24; i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '_':
			b = append(b, c)
		case c == ' ':
			b = append(b, '_')
		}
	}
	if len(b) == 0 {
		return "game"
	}
	return string(b)
}

func (w *Writer) raw(b []byte) {
	if w.err != nil {
		return
	}
	n, err := w.w.Write(b)
	w.size += int64(n)
	w.err = err
}

// record writes one record; mu is held.
func (w *Writer) record(kind byte, payload []byte) {
	if w.err != nil || w.full {
		return
	}
	if len(payload) > MaxRecord {
		return
	}
	need := int64(1 + binary.MaxVarintLen32 + len(payload) + 4)
	if w.size+need > w.max-64 {
		w.full = true
		note := []byte("recording stopped: the replay reached its size limit")
		w.frame(kindNote, note)
		return
	}
	w.frame(kind, payload)
}

func (w *Writer) frame(kind byte, payload []byte) {
	h := make([]byte, 0, 1+binary.MaxVarintLen32)
	h = append(h, kind)
	h = binary.AppendUvarint(h, uint64(len(payload)))
	crc := crc32.NewIEEE()
	crc.Write([]byte{kind})
	crc.Write(payload)
	w.raw(h)
	w.raw(payload)
	w.raw(binary.LittleEndian.AppendUint32(nil, crc.Sum32()))
}

// Started records the start of a game, and the players' names.
func (w *Writer) Started(setup game.Setup, name string, players [game.MaxPlayers]string, k, delay int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	b := appendSetup(w.buf[:0], setup)
	b = appendString(b, name)
	b = binary.LittleEndian.AppendUint64(b, uint64(time.Now().Unix()))
	b = append(b, byte(k), byte(delay), wire.Version)
	w.buf = b
	w.record(kindStart, b)
	b = w.buf[:0]
	for i, n := range players {
		if setup.Players&(1<<i) != 0 {
			b = appendString(b, wire.Truncate(n, wire.MaxName))
		}
	}
	w.buf = b
	w.record(kindPlayers, b)
}

// Turn records a master turn and the room's record of it.
func (w *Writer) Turn(mt *wire.MasterTurn, log room.TurnLog) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.mp.Turns[0] = *mt
	frame, err := w.mp.AppendFrame(w.buf[:0])
	if err != nil {
		return
	}
	payload := frame[2:] // the frame header is the wire's, not ours
	b := binary.AppendUvarint(make([]byte, 0, len(payload)+16), uint64(len(payload)))
	b = append(b, payload...)
	b = append(b, log.Live)
	b = binary.AppendUvarint(b, uint64(log.Wait.Milliseconds()))
	w.buf = frame[:0]
	w.record(kindTurn, b)
	w.turns++
}

// Hash records a hash a player reported for a turn. Reports that agree
// are gathered into one record per turn.
func (w *Writer) Hash(turn uint32, slot int, low uint32) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for i := range w.pending {
		p := &w.pending[i]
		if p.turn != turn {
			continue
		}
		if p.hash == low {
			p.mask |= 1 << slot
		} else {
			w.single(turn, slot, low) // a disagreement: its own record
		}
		return
	}
	w.pending = append(w.pending, agreed{turn: turn, mask: 1 << slot, hash: low})
	w.writeHashes(turn)
}

func (w *Writer) single(turn uint32, slot int, low uint32) {
	b := binary.AppendUvarint(w.buf[:0], uint64(turn))
	b = append(b, byte(slot))
	b = binary.LittleEndian.AppendUint32(b, low)
	w.buf = b
	w.record(kindHash, b)
}

// writeHashes writes the gathered hashes of turns older than newest-hashLag
// (all of them when all is true); mu is held.
func (w *Writer) writeHashes(newest uint32) {
	n := 0
	for _, p := range w.pending {
		if newest < hashLag || p.turn > newest-hashLag {
			w.pending[n] = p
			n++
			continue
		}
		b := binary.AppendUvarint(w.buf[:0], uint64(p.turn))
		b = append(b, p.mask)
		b = binary.LittleEndian.AppendUint32(b, p.hash)
		w.buf = b
		w.record(kindHashes, b)
	}
	w.pending = w.pending[:n]
}

func (w *Writer) writeAllHashes() {
	for _, p := range w.pending {
		b := binary.AppendUvarint(w.buf[:0], uint64(p.turn))
		b = append(b, p.mask)
		b = binary.LittleEndian.AppendUint32(b, p.hash)
		w.buf = b
		w.record(kindHashes, b)
	}
	w.pending = w.pending[:0]
}

// Desync records the room's desync report.
func (w *Writer) Desync(d *room.DesyncInfo) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writeAllHashes()
	b := binary.AppendUvarint(w.buf[:0], uint64(d.Turn))
	b = append(b, byte(len(d.Entries)))
	for _, e := range d.Entries {
		b = append(b, e.Slot)
		b = binary.LittleEndian.AppendUint32(b, e.HashLow)
	}
	w.buf = b
	w.record(kindDesync, b)
}

// Snapshot records a player's world for a desync report.
func (w *Writer) Snapshot(slot int, turn uint32, data []byte) {
	w.mu.Lock()
	defer w.mu.Unlock()
	b := append(w.buf[:0], byte(slot))
	b = binary.AppendUvarint(b, uint64(turn))
	b = append(b, data...)
	w.buf = b
	w.record(kindSnapshot, b)
}

// Finished records the end of the game at lastTurn.
func (w *Writer) Finished(lastTurn uint32, reason int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.lastEnd {
		return
	}
	w.lastEnd = true
	w.writeAllHashes()
	b := binary.AppendUvarint(w.buf[:0], uint64(lastTurn))
	b = append(b, byte(reason))
	w.buf = b
	w.record(kindEnd, b)
}

// Note records a line of text.
func (w *Writer) Note(text string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.record(kindNote, []byte(text))
}

// Turns returns how many turns were recorded.
func (w *Writer) Turns() uint32 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.turns
}

// Flush writes the buffered records to the file.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err == nil {
		w.err = w.w.Flush()
	}
	return w.err
}

// Close flushes and closes the file (if Create made it).
func (w *Writer) Close() error {
	w.mu.Lock()
	w.writeAllHashes()
	w.mu.Unlock()
	err := w.Flush()
	if w.file != nil {
		if cerr := w.file.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

func appendSetup(b []byte, s game.Setup) []byte {
	b = binary.LittleEndian.AppendUint64(b, s.Seed)
	return append(b, s.Players, byte(s.Mode), s.Lives, s.StartWave, bit(s.FriendlyFire), bit(s.Saucers), bit(s.Hyperspace))
}

func bit(v bool) byte {
	if v {
		return 1
	}
	return 0
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}
