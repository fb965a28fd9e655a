package wire

import (
	"bytes"
	"flag"
	"path/filepath"
	"reflect"
	"testing"

	"rockstep/internal/fuzzseed"
)

var updateCorpus = flag.Bool("update-corpus", false, "rewrite the fuzz seed corpus in testdata/fuzz from samples()")

// FuzzDecode: no input makes Decode panic, and whatever decodes re-encodes
// to the same bytes (the encoding is canonical) and decodes again to an
// equal value.
func FuzzDecode(f *testing.F) {
	f.Fuzz(func(t *testing.T, frame []byte) {
		m, err := Decode(frame)
		if err != nil {
			if m != nil {
				t.Fatalf("Decode returned %#v with error %v", m, err)
			}
			return
		}
		if reflect.ValueOf(m).Kind() == reflect.Pointer {
			t.Fatalf("Decode returned a pointer %T", m)
		}
		again, err := Append(nil, m)
		if err != nil {
			t.Fatalf("Append(Decode(% x)): %v", frame, err)
		}
		if !bytes.Equal(again, frame) {
			t.Fatalf("re-encoding differs:\n got % x\nwant % x", again, frame)
		}
		m2, err := Decode(again)
		if err != nil {
			t.Fatalf("Decode(Append(m)): %v", err)
		}
		if !reflect.DeepEqual(m, m2) {
			t.Fatalf("second decode:\n got %#v\nwant %#v", m2, m)
		}
	})
}

// FuzzClientPacket: the reusing decoder never panics, agrees with a fresh
// decode whatever it decoded before, and what it decodes re-encodes to the
// same payload.
func FuzzClientPacket(f *testing.F) { fuzzPacket(f, equalClient) }

// FuzzMasterPacket is FuzzClientPacket for master packets.
func FuzzMasterPacket(f *testing.F) { fuzzPacket(f, equalMaster) }

// fuzzPacket is the fuzz function of FuzzClientPacket and FuzzMasterPacket;
// equal compares a reused decode with a fresh one.
func fuzzPacket[T any, P packet[T]](f *testing.F, equal func(a, b T) bool) {
	var reused T
	f.Fuzz(func(t *testing.T, payload []byte) {
		var fresh T
		errFresh := P(&fresh).DecodePayload(payload)
		errReused := P(&reused).DecodePayload(payload)
		if (errFresh == nil) != (errReused == nil) {
			t.Fatalf("fresh decode: %v, reused decode: %v", errFresh, errReused)
		}
		if errFresh != nil {
			return
		}
		if !equal(fresh, reused) {
			t.Fatalf("reused decode:\n got %+v\nwant %+v", reused, fresh)
		}
		frame, err := P(&fresh).AppendFrame(nil)
		if err != nil {
			t.Fatalf("AppendFrame(decoded): %v", err)
		}
		if !bytes.Equal(frame[headerSize:], payload) {
			t.Fatalf("re-encoding differs:\n got % x\nwant % x", frame[headerSize:], payload)
		}
	})
}

// seedCorpus returns the seed inputs of each fuzz target, by file name:
// frames and payloads of every sample and a few malformed ones.
func seedCorpus(tb testing.TB) map[string]map[string][]byte {
	c := map[string]map[string][]byte{
		"FuzzDecode":       {},
		"FuzzClientPacket": {},
		"FuzzMasterPacket": {},
	}
	for _, s := range samples() {
		frame := mustAppend(tb, s.m)
		c["FuzzDecode"][s.name] = frame
		switch s.m.Type() {
		case TypeClientPacket:
			c["FuzzClientPacket"][s.name] = frame[headerSize:]
		case TypeMasterPacket:
			c["FuzzMasterPacket"][s.name] = frame[headerSize:]
		}
	}
	c["FuzzDecode"]["wrong-version"] = []byte{Version + 1, byte(TypePing), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	c["FuzzDecode"]["unknown-type"] = []byte{Version, byte(TypeEndGame) + 1, 0}
	return c
}

// TestSeedCorpus keeps testdata/fuzz in step with the encoding: run with
// -update-corpus after changing it, never edit the files by hand.
func TestSeedCorpus(t *testing.T) {
	for target, seeds := range seedCorpus(t) {
		files := make(map[string][]byte, len(seeds))
		for name, data := range seeds {
			files[name] = fuzzseed.File(data)
		}
		fuzzseed.Check(t, filepath.Join("testdata", "fuzz", target), files, *updateCorpus)
	}
}
