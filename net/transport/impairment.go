package transport

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Limits on impairment values; larger ones are rejected by [ParseImpairment]
// and clamped by [NewLink], so virtual times can never overflow.
const (
	MaxDelay     = time.Minute // largest Latency or Jitter
	MaxBandwidth = 1 << 30     // bytes per second (about 8.6 Gbit/s); fits an int on 32-bit platforms
)

// Impairment describes one direction of a bad network. The zero value is a
// perfect network: no delay, no loss, unlimited bandwidth.
//
// Its text form, read by [ParseImpairment] and written by [Impairment.String],
// is a comma-separated list of key=value pairs:
//
//	latency=80ms,jitter=30ms,loss=5%,dup=2%,reorder=2%,bw=256kbps
//
// Durations use Go syntax (time.ParseDuration). Fractions are written as a
// percentage ("5%") or as a number from 0 to 1 ("0.05"). Bandwidth needs a
// unit, with decimal (SI) prefixes: bps, kbps, mbps, gbps are bits per second
// (case-insensitive), B/s, kB/s (or KB/s), MB/s, GB/s are bytes per second;
// 0 alone means unlimited. "" and "none" mean no impairment.
type Impairment struct {
	Latency   time.Duration // one-way base delay
	Jitter    time.Duration // each packet's delay is uniform in Latency±Jitter, never below 0
	Loss      float64       // fraction 0..1 of packets dropped
	Dup       float64       // fraction 0..1 of packets delivered twice; the copy gets its own delay
	Reorder   float64       // fraction 0..1 of packets held back by an extra delay, so later ones may overtake them
	Bandwidth int           // bytes per second; 0 = unlimited
}

// IsZero reports whether i is a perfect network.
func (i Impairment) IsZero() bool { return i == Impairment{} }

// String returns the text form of i, which [ParseImpairment] reads back to an
// equal value. Zero fields are left out; a perfect network is "none".
func (i Impairment) String() string {
	if i.IsZero() {
		return "none"
	}
	var parts []string
	if i.Latency != 0 {
		parts = append(parts, "latency="+i.Latency.String())
	}
	if i.Jitter != 0 {
		parts = append(parts, "jitter="+i.Jitter.String())
	}
	if i.Loss != 0 {
		parts = append(parts, "loss="+formatFraction(i.Loss))
	}
	if i.Dup != 0 {
		parts = append(parts, "dup="+formatFraction(i.Dup))
	}
	if i.Reorder != 0 {
		parts = append(parts, "reorder="+formatFraction(i.Reorder))
	}
	if i.Bandwidth != 0 {
		parts = append(parts, "bw="+formatBandwidth(i.Bandwidth))
	}
	return strings.Join(parts, ",")
}

// ParseImpairment reads the text form described at [Impairment]. It rejects
// unknown or repeated keys, items without '=', negative values, fractions
// above 1, delays above [MaxDelay] and bandwidths above [MaxBandwidth]; the
// error names the offending item.
func ParseImpairment(spec string) (Impairment, error) {
	var imp Impairment
	spec = strings.TrimSpace(spec)
	if spec == "" || strings.EqualFold(spec, "none") {
		return imp, nil
	}
	seen := map[string]bool{}
	for item := range strings.SplitSeq(spec, ",") {
		key, value, ok := strings.Cut(item, "=")
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		if !ok {
			if strings.TrimSpace(item) == "" {
				return Impairment{}, fmt.Errorf("parse impairment %q: empty item", spec)
			}
			return Impairment{}, fmt.Errorf("parse impairment %q: item %q: want key=value", spec, item)
		}
		key = strings.ToLower(key)
		if key == "bandwidth" {
			key = "bw"
		}
		if seen[key] {
			return Impairment{}, fmt.Errorf("parse impairment %q: %s given twice", spec, key)
		}
		seen[key] = true
		var err error
		switch key {
		case "latency":
			imp.Latency, err = parseDelay(value)
		case "jitter":
			imp.Jitter, err = parseDelay(value)
		case "loss":
			imp.Loss, err = parseFraction(value)
		case "dup":
			imp.Dup, err = parseFraction(value)
		case "reorder":
			imp.Reorder, err = parseFraction(value)
		case "bw":
			imp.Bandwidth, err = parseBandwidth(value)
		default:
			return Impairment{}, fmt.Errorf("parse impairment %q: unknown key %q (want latency, jitter, loss, dup, reorder or bw)", spec, key)
		}
		if err != nil {
			return Impairment{}, fmt.Errorf("parse impairment %q: %s=%s: %w", spec, key, value, err)
		}
	}
	return imp, nil
}

var (
	errNegative = errors.New("negative")
	errNotReal  = errors.New("not a finite number")
)

func parseDelay(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	switch {
	case err != nil:
		return 0, err
	case d < 0:
		return 0, errNegative
	case d > MaxDelay:
		return 0, fmt.Errorf("above the limit of %v", MaxDelay)
	}
	return d, nil
}

func parseFraction(s string) (float64, error) {
	num, percent := strings.CutSuffix(s, "%")
	f, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if err != nil {
		return 0, errors.New("want a percentage (5%) or a fraction (0.05)")
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, errNotReal
	}
	if percent {
		f /= 100
	}
	switch {
	case f < 0:
		return 0, errNegative
	case f > 1 && !percent:
		return 0, errors.New("fraction above 1 (write a percentage as 5%)")
	case f > 1:
		return 0, errors.New("above 100%")
	}
	return f + 0, nil // + 0 turns -0 into 0
}

// formatFraction writes f as a percentage when that reads back exactly,
// otherwise as a plain fraction, which always does.
func formatFraction(f float64) string {
	pct := strconv.FormatFloat(f*100, 'g', -1, 64) + "%"
	if back, err := parseFraction(pct); err == nil && back == f {
		return pct
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// bandwidthUnits maps each unit to bytes per second, longest suffix first so
// "kbps" is not taken for "bps".
var bandwidthUnits = []struct {
	unit   string
	bits   bool // bit units match case-insensitively
	perSec float64
}{
	{"kB/s", false, 1e3}, {"KB/s", false, 1e3}, {"MB/s", false, 1e6}, {"GB/s", false, 1e9},
	{"kbps", true, 1e3 / 8}, {"mbps", true, 1e6 / 8}, {"gbps", true, 1e9 / 8},
	{"B/s", false, 1}, {"bps", true, 1.0 / 8},
}

func parseBandwidth(s string) (int, error) {
	if s == "0" {
		return 0, nil
	}
	num, perSec := "", 0.0
	for _, u := range bandwidthUnits {
		suffix := s
		if len(s) >= len(u.unit) {
			suffix = s[len(s)-len(u.unit):]
		}
		if suffix == u.unit || u.bits && strings.EqualFold(suffix, u.unit) {
			num, perSec = s[:len(s)-len(u.unit)], u.perSec
			break
		}
	}
	if perSec == 0 {
		return 0, errors.New("want a unit: bps, kbps, mbps, gbps (bits) or B/s, KB/s, MB/s, GB/s (bytes)")
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	switch {
	case err != nil:
		return 0, errors.New("want a number before the unit")
	case math.IsNaN(f) || math.IsInf(f, 0):
		return 0, errNotReal
	case f < 0:
		return 0, errNegative
	}
	bytes := math.Round(f * perSec)
	switch {
	case f > 0 && bytes < 1:
		return 0, errors.New("below 1 B/s (use 0 for unlimited)")
	case bytes > MaxBandwidth:
		return 0, fmt.Errorf("above the limit of %d B/s", MaxBandwidth)
	}
	return int(bytes), nil
}

// formatBandwidth prefers the bit units people quote for links.
func formatBandwidth(bytesPerSec int) string {
	bits := int64(bytesPerSec) * 8
	switch {
	case bits%1e6 == 0:
		return strconv.FormatInt(bits/1e6, 10) + "mbps"
	case bits%1e3 == 0:
		return strconv.FormatInt(bits/1e3, 10) + "kbps"
	}
	return strconv.Itoa(bytesPerSec) + "B/s"
}

// clamped returns i with every field forced into its valid range, so a Link
// built from a hand-written Impairment can neither panic nor overflow.
func (i Impairment) clamped() Impairment {
	clampDelay := func(d time.Duration) time.Duration { return min(max(d, 0), MaxDelay) }
	clampFraction := func(f float64) float64 {
		if !(f > 0) { // also catches NaN
			return 0
		}
		return min(f, 1)
	}
	return Impairment{
		Latency:   clampDelay(i.Latency),
		Jitter:    clampDelay(i.Jitter),
		Loss:      clampFraction(i.Loss),
		Dup:       clampFraction(i.Dup),
		Reorder:   clampFraction(i.Reorder),
		Bandwidth: min(max(i.Bandwidth, 0), MaxBandwidth),
	}
}
