package room

import (
	"testing"
	"time"

	"rockstep/game"
)

func TestJudge(t *testing.T) {
	const a, b, c = 0xaaaa, 0xbbbb, 0xcccc
	tests := []struct {
		name     string
		reported uint8
		hashes   [game.MaxPlayers]uint32
		live     uint8
		voters   uint8 // 0: live
		want     verdict
	}{
		{"4 agree", 0b1111, [8]uint32{a, a, a, a}, 0b1111, 0, verdict{majority: true, hash: a}},
		{"3 of 4 outvote 1", 0b1111, [8]uint32{a, a, b, a}, 0b1111, 0, verdict{majority: true, hash: a, strayed: 0b0100}},
		{"3 of 4 reported agree, the 4th not yet", 0b1011, [8]uint32{a, a, 0, a}, 0b1111, 0, verdict{majority: true, hash: a}},
		{"2 of 4 agree: no majority yet", 0b0111, [8]uint32{a, a, b}, 0b1111, 0, verdict{}},
		{"2 against 2: split", 0b1111, [8]uint32{a, b, a, b}, 0b1111, 0, verdict{split: true}},
		{"2 players differ: split", 0b0011, [8]uint32{a, b}, 0b0011, 0, verdict{split: true}},
		{"2 players, one reported", 0b0001, [8]uint32{a}, 0b0011, 0, verdict{}},
		{"3 groups of 5, none a majority", 0b11111, [8]uint32{a, a, b, b, c}, 0b11111, 0, verdict{split: true}},
		{"3 of 5 against 2 others", 0b11111, [8]uint32{a, b, a, c, a}, 0b11111, 0, verdict{majority: true, hash: a, strayed: 0b01010}},
		{"a report of a slot not live is not counted", 0b0111, [8]uint32{a, a, b}, 0b0011, 0, verdict{majority: true, hash: a}},
		{"a strayed slot left out of live still lets 3 of 4 agree", 0b0111, [8]uint32{a, a, a, b}, 0b1111, 0, verdict{majority: true, hash: a}},
		{"the majority is of the live players, not of the reports", 0b0011, [8]uint32{a, a}, 0b1111, 0, verdict{}},
		{"1 player", 0b1, [8]uint32{a}, 0b1, 0, verdict{majority: true, hash: a}},
		{"nothing reported", 0, [8]uint32{}, 0b11, 0, verdict{}},
		// Slots caught lying are live but do not vote: their numbers
		// decide nothing, and they stray from the voters' majority.
		{"3 liars of 5 do not outvote 2 voters", 0b11111, [8]uint32{b, b, b, a, a}, 0b11111, 0b11000, verdict{majority: true, hash: a, strayed: 0b00111}},
		{"2 liars of 4 make no split", 0b1111, [8]uint32{b, b, a, a}, 0b1111, 0b1100, verdict{majority: true, hash: a, strayed: 0b0011}},
		{"no voter: nothing is decided", 0b11, [8]uint32{a, b}, 0b11, 0b100, verdict{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			voters := tt.voters
			if voters == 0 {
				voters = tt.live
			}
			if got := judge(tt.reported, &tt.hashes, voters, tt.live); got != tt.want {
				t.Errorf("judge(%b, %x, live %b) = %+v, want %+v", tt.reported, tt.hashes[:5], tt.live, got, tt.want)
			}
		})
	}
}

func TestRepairLimit(t *testing.T) {
	minute := time.Minute
	tests := []struct {
		name    string
		repairs []time.Duration // times of the repairs noted
		now     time.Duration
		want    int
	}{
		{"none", nil, 10 * minute, 0},
		{"one", []time.Duration{minute}, 2 * minute, 1},
		{"three within the window", []time.Duration{minute, 2 * minute, 3 * minute}, 4 * minute, maxRepairs},
		{"the first fell out of the window", []time.Duration{minute, 2 * minute, 3 * minute}, minute + repairWindow, 2},
		{"four noted: the oldest is forgotten", []time.Duration{minute, 2 * minute, 3 * minute, 4 * minute}, 4 * minute, maxRepairs},
		{"a repair at time 0 still counts", []time.Duration{0}, minute, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var times [maxRepairs]time.Duration
			for _, r := range tt.repairs {
				noteTime(times[:], r)
			}
			if got := timesWithin(times[:], tt.now); got != tt.want {
				t.Errorf("repairs within %v at %v = %d, want %d", repairWindow, tt.now, got, tt.want)
			}
		})
	}
}
