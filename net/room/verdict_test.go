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
		want     verdict
	}{
		{"4 agree", 0b1111, [8]uint32{a, a, a, a}, 0b1111, verdict{majority: true, hash: a}},
		{"3 of 4 outvote 1", 0b1111, [8]uint32{a, a, b, a}, 0b1111, verdict{majority: true, hash: a, strayed: 0b0100}},
		{"3 of 4 reported agree, the 4th not yet", 0b1011, [8]uint32{a, a, 0, a}, 0b1111, verdict{majority: true, hash: a}},
		{"2 of 4 agree: no majority yet", 0b0111, [8]uint32{a, a, b}, 0b1111, verdict{}},
		{"2 against 2: split", 0b1111, [8]uint32{a, b, a, b}, 0b1111, verdict{split: true}},
		{"2 players differ: split", 0b0011, [8]uint32{a, b}, 0b0011, verdict{split: true}},
		{"2 players, one reported", 0b0001, [8]uint32{a}, 0b0011, verdict{}},
		{"3 groups of 5, none a majority", 0b11111, [8]uint32{a, a, b, b, c}, 0b11111, verdict{split: true}},
		{"3 of 5 against 2 others", 0b11111, [8]uint32{a, b, a, c, a}, 0b11111, verdict{majority: true, hash: a, strayed: 0b01010}},
		{"a report of a slot not live is not counted", 0b0111, [8]uint32{a, a, b}, 0b0011, verdict{majority: true, hash: a}},
		{"a strayed slot left out of live still lets 3 of 4 agree", 0b0111, [8]uint32{a, a, a, b}, 0b1111, verdict{majority: true, hash: a}},
		{"the majority is of the live players, not of the reports", 0b0011, [8]uint32{a, a}, 0b1111, verdict{}},
		{"1 player", 0b1, [8]uint32{a}, 0b1, verdict{majority: true, hash: a}},
		{"nothing reported", 0, [8]uint32{}, 0b11, verdict{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := judge(tt.reported, &tt.hashes, tt.live); got != tt.want {
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
				noteRepair(&times, r)
			}
			if got := repairsWithin(&times, tt.now); got != tt.want {
				t.Errorf("repairs within %v at %v = %d, want %d", repairWindow, tt.now, got, tt.want)
			}
		})
	}
}
