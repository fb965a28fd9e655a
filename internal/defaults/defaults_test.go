package defaults

import (
	"testing"
	"time"
)

func TestPositive(t *testing.T) {
	for _, tc := range []struct{ in, want time.Duration }{{0, time.Second}, {-1, time.Second}, {time.Millisecond, time.Millisecond}} {
		v := tc.in
		if Positive(&v, time.Second); v != tc.want {
			t.Errorf("Positive(%v, 1s) = %v, want %v", tc.in, v, tc.want)
		}
	}
	rate := 0.5
	if Positive(&rate, 2); rate != 0.5 {
		t.Errorf("Positive(0.5, 2) = %v", rate)
	}
}
