package bots

import (
	"testing"
	"time"

	"rockstep/internal/testwait"
)

func TestHistQuantile(t *testing.T) {
	buckets := []float64{0, 0.001, 0.01, 0.1, 1} // seconds: 4 buckets
	tests := []struct {
		name           string
		before, counts []uint64
		q              float64
		want           time.Duration
	}{
		{"nothing since", []uint64{5, 5, 5, 5}, []uint64{5, 5, 5, 5}, 0.99, 0},
		{"all fast", []uint64{0, 0, 0, 0}, []uint64{1000, 0, 0, 0}, 0.99, time.Millisecond},
		{"a tail past the 99th", []uint64{0, 0, 0, 0}, []uint64{990, 9, 1, 0}, 0.99, 10 * time.Millisecond},
		{"only what came since counts", []uint64{0, 0, 0, 500}, []uint64{100, 0, 0, 500}, 0.99, time.Millisecond},
		{"a slow one in a hundred", []uint64{0, 0, 0, 0}, []uint64{98, 0, 0, 2}, 0.99, time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := histQuantile(buckets, tt.counts, tt.before, tt.q); got != tt.want {
				t.Errorf("histQuantile = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestSchedWatchMeasuresThisProcess: goroutines that queue for the
// processors behind busy ones show in the 99th percentile (it reads the
// runtime's histogram by its name, which must exist).
func TestSchedWatchMeasuresThisProcess(t *testing.T) {
	w := startSchedWatch()
	if w.before == nil {
		t.Fatalf("the runtime has no %s histogram", schedLatencies)
	}
	done := make(chan struct{})
	for range 200 {
		go func() {
			for i := range 200 {
				busy(uint64(i), 20_000)
				select {
				case <-done:
					return
				default:
				}
			}
		}()
	}
	testwait.Until(10*time.Second, func() bool { return w.p99() != 0 })
	close(done)
	if got := w.p99(); got <= 0 {
		t.Errorf("p99 = %v after 200 busy goroutines, want a wait", got)
	}
}

// busy computes for a while, n steps of an LCG from x.
func busy(x uint64, n int) uint64 {
	for i := range n {
		x = x*6364136223846793005 + uint64(i)
	}
	return x
}
