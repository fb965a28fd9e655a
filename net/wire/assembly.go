package wire

// Assembly puts a world snapshot back together from its SnapshotChunks,
// which may arrive in any order, repeated, or mixed with the chunks of
// another snapshot (a newer one replaces an unfinished older one). It holds
// at most MaxChunks×MaxChunk bytes.
type Assembly struct {
	turn  uint32
	hash  uint64
	total uint8
	got   int
	have  [MaxChunks]bool
	size  [MaxChunks]uint16
	buf   []byte
}

// Add adds a chunk. When it completes the snapshot, Add returns the whole
// snapshot's bytes (valid until the next Add or Reset) and its turn and
// hash; otherwise data is nil. A chunk that is not the last must be full;
// one that is not is ignored.
func (a *Assembly) Add(c SnapshotChunk) (data []byte, turn uint32, hash uint64) {
	if c.Total == 0 || c.Index >= c.Total {
		return nil, 0, 0
	}
	if a.total == 0 || a.turn != c.Turn || a.hash != c.Hash || a.total != c.Total {
		a.Reset()
		a.turn, a.hash, a.total = c.Turn, c.Hash, c.Total
	}
	if a.buf == nil {
		a.buf = make([]byte, MaxChunks*MaxChunk)
	}
	if a.have[c.Index] || (int(c.Index) < int(c.Total)-1 && len(c.Data) != MaxChunk) {
		return nil, 0, 0
	}
	copy(a.buf[int(c.Index)*MaxChunk:], c.Data)
	a.have[c.Index], a.size[c.Index] = true, uint16(len(c.Data))
	a.got++
	if a.got < int(a.total) {
		return nil, 0, 0
	}
	n := (int(a.total)-1)*MaxChunk + int(a.size[a.total-1])
	turn, hash = a.turn, a.hash
	a.Reset()
	return a.buf[:n], turn, hash
}

// Reset forgets the chunks held (keeping the buffer).
func (a *Assembly) Reset() {
	buf := a.buf
	*a = Assembly{buf: buf}
}

// Unreliable reports whether a frame is better sent as a bare datagram
// than on a reliable stream: lockstep turns carry their own
// acknowledgements and redundancy, and pings measure the path they take,
// so neither should wait behind a retransmission.
func Unreliable(frame []byte) bool {
	if len(frame) < 2 {
		return false
	}
	switch Type(frame[1]) {
	case TypeMasterPacket, TypeClientPacket, TypePing, TypePong:
		return true
	}
	return false
}
