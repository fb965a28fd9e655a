package wire

import "crypto/sha256"

// WorldSum is the digest that vouches for a world's bytes (its snapshot,
// game.World.MarshalBinary): SHA-256 truncated to 128 bits. game.Sum64,
// the world hash the players report every turn, detects a divergence
// fast but can be inverted a block at a time, so a world edited to hash
// like the honest one passes it; finding bytes with the same WorldSum as
// another world's is as hard as breaking SHA-256's collision resistance
// at 128 bits (2^64 work). Every world one machine hands another through
// the room (a repair, a spectator's or returning player's snapshot, the
// final world) is accepted only by this digest (docs/ARCHITECTURE.md §1,
// "Desync repair"). It lives here, not in game, because crypto/sha256
// reaches packages the engine may not (game/purity_test.go).
func WorldSum(snapshot []byte) Sum {
	full := sha256.Sum256(snapshot)
	var s Sum
	copy(s[:], full[:SumSize])
	return s
}
