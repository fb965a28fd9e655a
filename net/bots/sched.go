package bots

import (
	"runtime/metrics"
	"time"
)

// schedLatencies is the Go runtime's histogram of how long goroutines
// waited to run once runnable, for the whole process.
const schedLatencies = "/sched/latencies:seconds"

// schedWatch measures the bots' process itself: how long its goroutines
// waited for a processor from the run's start to the games' end. Hundreds of bots share
// the machine with the server they measure; when their process is
// starved, a bot's turn leaves late and its master turn is handled late,
// and the lateness, stalls and game speed of the summary measure the bots
// as much as the server. Its 99th percentile says which.
type schedWatch struct {
	before []uint64
}

func startSchedWatch() schedWatch {
	h := readSched()
	if h == nil {
		return schedWatch{}
	}
	return schedWatch{before: append([]uint64(nil), h.Counts...)}
}

// p99 returns the 99th percentile of the waits since start (the upper
// bound of its bucket), or 0 if the runtime does not say.
func (w schedWatch) p99() time.Duration {
	h := readSched()
	if w.before == nil || h == nil || len(h.Counts) != len(w.before) {
		return 0
	}
	return histQuantile(h.Buckets, h.Counts, w.before, 0.99)
}

// readSched reads the runtime's scheduling latencies, or nil if it has none.
func readSched() *metrics.Float64Histogram {
	s := []metrics.Sample{{Name: schedLatencies}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindFloat64Histogram {
		return nil
	}
	return s[0].Value.Float64Histogram()
}

// histQuantile returns the upper bound of the bucket holding quantile q of
// the counts added since before (counts[i] falls in buckets[i]..buckets[i+1],
// in seconds), or 0 if none were.
func histQuantile(buckets []float64, counts, before []uint64, q float64) time.Duration {
	var total uint64
	for i := range counts {
		total += counts[i] - before[i]
	}
	if total == 0 {
		return 0
	}
	want := uint64(q * float64(total))
	var seen uint64
	for i := range counts {
		if seen += counts[i] - before[i]; seen > want {
			return time.Duration(buckets[i+1] * float64(time.Second))
		}
	}
	return time.Duration(buckets[len(buckets)-1] * float64(time.Second))
}
