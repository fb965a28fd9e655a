package game

// Hash returns a 64-bit digest of the world's state: of exactly the bytes of
// its snapshot, so two worlds with equal hashes have (up to collisions) equal
// snapshots. Events are not state and are not hashed.
//
// The digest is FNV-1a widened to 64-bit words (each word is xored in, then
// multiplied by the FNV prime) with a final avalanche; it is fast, has no
// tables, and gives the same result on every platform. It is a checksum
// for detecting divergence, not a defence against an adversary.
func (w *World) Hash() uint64 {
	var buf [MaxSnapshotSize]byte
	return Sum64(w.appendState(buf[:0]))
}

// Sum64 is the digest Hash applies to a snapshot's bytes.
func Sum64(b []byte) uint64 {
	const (
		offset = 0xcbf29ce484222325
		prime  = 0x100000001b3
	)
	h := uint64(offset) ^ uint64(len(b))
	for len(b) >= 8 {
		v := uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
			uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
		h = (h ^ v) * prime
		h ^= h >> 29
		b = b[8:]
	}
	for _, c := range b {
		h = (h ^ uint64(c)) * prime
	}
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return h
}
