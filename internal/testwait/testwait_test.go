package testwait_test

import (
	"testing"
	"time"

	"rockstep/internal/testwait"
)

func TestUntil(t *testing.T) {
	tests := []struct {
		name      string
		trueAfter int // cond holds from this call on; 0: never
		want      bool
		wantCalls int // 0: any number above 1
	}{
		{"holds at once", 1, true, 1},
		{"holds at the fifth look", 5, true, 5},
		{"never holds", 0, false, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			got := testwait.Until(100*time.Millisecond, func() bool {
				calls++
				return tc.trueAfter > 0 && calls >= tc.trueAfter
			})
			if got != tc.want {
				t.Errorf("Until = %v, want %v", got, tc.want)
			}
			switch {
			case tc.wantCalls > 0 && calls != tc.wantCalls:
				t.Errorf("cond called %d times, want %d", calls, tc.wantCalls)
			case tc.wantCalls == 0 && calls < 2:
				t.Errorf("cond called %d times before giving up, want a look after the first", calls)
			}
		})
	}
}
