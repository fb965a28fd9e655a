package bots_test

import (
	"testing"

	"rockstep/net/bots"
	"rockstep/net/lockstep"
)

func TestParseFault(t *testing.T) {
	tests := []struct {
		spec    string
		bot     int
		want    lockstep.Fault
		wantErr bool
	}{
		{"flip@600", 0, lockstep.Fault{FlipAt: 600}, false},
		{"bot=2,flip@600", 2, lockstep.Fault{FlipAt: 600}, false},
		{"bot=1,hash@300", 1, lockstep.Fault{HashFrom: 300}, false},
		{"bot=3,flip@10,hash@20", 3, lockstep.Fault{FlipAt: 10, HashFrom: 20}, false},
		{"bot=x,flip@1", 0, lockstep.Fault{}, true},
		{"bot=-1,flip@1", 0, lockstep.Fault{}, true},
		{"bot=1", 0, lockstep.Fault{}, true},
		{"flip@0", 0, lockstep.Fault{}, true},
		{"flip", 0, lockstep.Fault{}, true},
		{"melt@5", 0, lockstep.Fault{}, true},
		{"", 0, lockstep.Fault{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			bot, f, err := bots.ParseFault(tt.spec)
			if (err != nil) != tt.wantErr {
				t.Fatalf("ParseFault(%q) error %v, want error %v", tt.spec, err, tt.wantErr)
			}
			if err == nil && (bot != tt.bot || f != tt.want) {
				t.Errorf("ParseFault(%q) = bot %d %+v, want bot %d %+v", tt.spec, bot, f, tt.bot, tt.want)
			}
		})
	}
}
