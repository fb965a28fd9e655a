package room_test

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"testing"

	"rockstep/game"
)

// The attack the world digest stops: game.Sum64, the world hash, is a
// checksum whose every step inverts (xor a word, multiply by an odd
// constant, xorshift), so one 8-byte block of an edited snapshot can be
// solved for in a few operations so that the edited world hashes exactly
// like the honest one. These helpers build such a world, as a hostile
// player would.

const (
	sumOffset = 0xcbf29ce484222325 // game.Sum64's constants
	sumPrime  = 0x100000001b3
)

// sumStep is one word of game.Sum64.
func sumStep(h, v uint64) uint64 {
	h = (h ^ v) * sumPrime
	return h ^ h>>29
}

// unXorshift29 inverts h ^= h >> 29.
func unXorshift29(y uint64) uint64 { return y ^ y>>29 ^ y>>58 }

// inverse returns the multiplicative inverse of an odd a modulo 2^64
// (Newton's iteration: each step doubles the bits that are right).
func inverse(a uint64) uint64 {
	x := a
	for i := 0; i < 6; i++ {
		x *= 2 - a*x
	}
	return x
}

// forgeCollision returns edited with one 8-byte block (block, counted in
// words from the start) rewritten so that game.Sum64 of the result is
// game.Sum64(honest): the states of the two inputs after their last whole
// word are made equal, and what follows (the tail, the final mix) is the
// same bytes in both.
func forgeCollision(t testing.TB, honest, edited []byte, block int) []byte {
	t.Helper()
	if len(honest) != len(edited) || (block+1)*8 > len(edited)/8*8 {
		t.Fatal("forgeCollision: the two must be the same length, the block a whole word of it")
	}
	if !bytes.Equal(honest[len(honest)/8*8:], edited[len(edited)/8*8:]) {
		t.Fatal("forgeCollision: the tails (after the last whole word) must be the same")
	}
	out := append([]byte(nil), edited...)
	words := len(out) / 8
	word := func(b []byte, i int) uint64 { return binary.LittleEndian.Uint64(b[i*8:]) }
	// The honest state after every whole word.
	h := uint64(sumOffset) ^ uint64(len(honest))
	for i := 0; i < words; i++ {
		h = sumStep(h, word(honest, i))
	}
	target := h
	// Back through the edited words after the block: the state needed
	// after it.
	inv := inverse(sumPrime)
	if sumPrime*inv != 1 {
		t.Fatal("no inverse")
	}
	for i := words - 1; i > block; i-- {
		target = unXorshift29(target)*inv ^ word(out, i)
	}
	// Forward through the edited words before it: the state before it.
	s := uint64(sumOffset) ^ uint64(len(out))
	for i := 0; i < block; i++ {
		s = sumStep(s, word(out, i))
	}
	binary.LittleEndian.PutUint64(out[block*8:], unXorshift29(target)*inv^s)
	if game.Sum64(out) != game.Sum64(honest) {
		t.Fatalf("forgeCollision: %x, want %x", game.Sum64(out), game.Sum64(honest))
	}
	return out
}

// honestAndForged returns a world's snapshot and a forgery of it: the
// first ship's score set to 999,999 and one block of the last rock solved
// so that both hash alike (game.Sum64).
func honestAndForged(t testing.TB, seed uint64) (honest, forged []byte) {
	t.Helper()
	w, err := game.New(game.Setup{Seed: seed, Players: 0b1111, Mode: game.Coop, Lives: 3, StartWave: 3})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 30; i++ {
		w.Step([game.MaxPlayers]game.Input{})
	}
	if honest, err = w.MarshalBinary(); err != nil {
		t.Fatal(err)
	}
	w.Ships[0].Score = 999_999
	edited, err := w.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	last := 0 // the last byte the edit changed
	for i := range edited {
		if edited[i] != honest[i] {
			last = i
		}
	}
	block := len(edited)/8 - 1 // the last whole word: rock data, past the ships
	if block*8 <= last {
		t.Fatal("the world is too small to solve a block past the edit")
	}
	forged = forgeCollision(t, honest, edited, block)
	if bytes.Equal(forged, honest) || bits.OnesCount64(game.Sum64(forged)^game.Sum64(honest)) != 0 {
		t.Fatal("the forgery is the honest world, or hashes otherwise")
	}
	return honest, forged
}
