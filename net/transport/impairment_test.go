package transport

import (
	"strings"
	"testing"
	"time"
)

func TestParseImpairment(t *testing.T) {
	tests := []struct {
		name string
		spec string
		want Impairment
	}{
		{"empty", "", Impairment{}},
		{"blank", "  ", Impairment{}},
		{"none", "none", Impairment{}},
		{"none upper case", "NONE", Impairment{}},
		{"the -netsim example", "latency=80ms,jitter=30ms,loss=5%,dup=2%,reorder=2%,bw=256kbps",
			Impairment{Latency: 80 * time.Millisecond, Jitter: 30 * time.Millisecond, Loss: 0.05, Dup: 0.02, Reorder: 0.02, Bandwidth: 32000}},
		{"fraction form", "loss=0.05", Impairment{Loss: 0.05}},
		{"whole loss", "loss=100%", Impairment{Loss: 1}},
		{"fraction one", "dup=1", Impairment{Dup: 1}},
		{"spaces and key case", " Latency = 1.5s , LOSS = 5 % ", Impairment{Latency: 1500 * time.Millisecond, Loss: 0.05}},
		{"zero values", "latency=0s,loss=0%,bw=0", Impairment{}},
		{"bandwidth alias", "bandwidth=1mbps", Impairment{Bandwidth: 125000}},
		{"bits per second", "bw=800bps", Impairment{Bandwidth: 100}},
		{"kbps upper case", "bw=8Kbps", Impairment{Bandwidth: 1000}},
		{"gbps", "bw=1Gbps", Impairment{Bandwidth: 125_000_000}},
		{"bytes per second", "bw=10B/s", Impairment{Bandwidth: 10}},
		{"kilobytes", "bw=10KB/s", Impairment{Bandwidth: 10000}},
		{"kilobytes lower k", "bw=10kB/s", Impairment{Bandwidth: 10000}},
		{"megabytes fractional", "bw=1.5MB/s", Impairment{Bandwidth: 1_500_000}},
		{"zero with unit", "bw=0kbps", Impairment{}},
		{"latest limit", "latency=1m,jitter=1m", Impairment{Latency: time.Minute, Jitter: time.Minute}},
		{"jitter above latency", "latency=10ms,jitter=50ms", Impairment{Latency: 10 * time.Millisecond, Jitter: 50 * time.Millisecond}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseImpairment(tt.spec)
			if err != nil {
				t.Fatalf("ParseImpairment(%q): %v", tt.spec, err)
			}
			if got != tt.want {
				t.Errorf("ParseImpairment(%q) = %+v, want %+v", tt.spec, got, tt.want)
			}
		})
	}
}

func TestParseImpairmentErrors(t *testing.T) {
	tests := []struct {
		name string
		spec string
		want string // in the error message
	}{
		{"unknown key", "latnecy=80ms", `unknown key "latnecy"`},
		{"no equals", "latency", `item "latency": want key=value`},
		{"empty item", "latency=80ms,", "empty item"},
		{"repeated key", "loss=1%,loss=2%", "loss given twice"},
		{"repeated via alias", "bw=1mbps,bandwidth=2mbps", "bw given twice"},
		{"negative latency", "latency=-5ms", "latency=-5ms: negative"},
		{"latency without unit", "latency=80", `latency=80: time: missing unit`},
		{"latency too large", "latency=2m", "latency=2m: above the limit"},
		{"jitter garbage", "jitter=soon", "jitter=soon"},
		{"negative loss", "loss=-1%", "loss=-1%: negative"},
		{"loss above one", "loss=5", "loss=5: fraction above 1"},
		{"loss above 100%", "loss=150%", "loss=150%: above 100%"},
		{"loss not a number", "loss=lots", "loss=lots: want a percentage"},
		{"loss NaN", "dup=NaN", "dup=NaN: not a finite number"},
		{"reorder infinite", "reorder=inf%", "reorder=inf%: not a finite number"},
		{"bandwidth without unit", "bw=1000", "bw=1000: want a unit"},
		{"bandwidth unknown unit", "bw=10kb/s", "bw=10kb/s: want a unit"},
		{"bandwidth no number", "bw=kbps", "bw=kbps: want a number"},
		{"bandwidth negative", "bw=-1kbps", "bw=-1kbps: negative"},
		{"bandwidth too small", "bw=1bps", "bw=1bps: below 1 B/s"},
		{"bandwidth too large", "bw=100GB/s", "bw=100GB/s: above the limit"},
		{"empty value", "loss=", "loss=: want a percentage"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseImpairment(tt.spec)
			if err == nil {
				t.Fatalf("ParseImpairment(%q) = %+v, want an error containing %q", tt.spec, got, tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ParseImpairment(%q) error = %q, want it to contain %q", tt.spec, err, tt.want)
			}
		})
	}
}

func TestImpairmentString(t *testing.T) {
	tests := []struct {
		name string
		imp  Impairment
		want string
	}{
		{"zero", Impairment{}, "none"},
		{"the -netsim example",
			Impairment{Latency: 80 * time.Millisecond, Jitter: 30 * time.Millisecond, Loss: 0.05, Dup: 0.02, Reorder: 0.02, Bandwidth: 32000},
			"latency=80ms,jitter=30ms,loss=5%,dup=2%,reorder=2%,bw=256kbps"},
		{"megabits", Impairment{Bandwidth: 125000}, "bw=1mbps"},
		{"odd bytes", Impairment{Bandwidth: 1001}, "bw=1001B/s"},
		{"loss one", Impairment{Loss: 1}, "loss=100%"},
		{"long duration", Impairment{Latency: 90 * time.Second}, "latency=1m30s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.imp.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestImpairmentStringRoundTrip(t *testing.T) {
	imps := []Impairment{
		{},
		{Latency: 80 * time.Millisecond, Jitter: 30 * time.Millisecond, Loss: 0.05, Dup: 0.02, Reorder: 0.02, Bandwidth: 32000},
		{Loss: 0.1 + 0.2}, // a float whose percentage does not read back exactly
		{Dup: 1e-9, Reorder: 0.3333333333333333},
		{Latency: time.Nanosecond, Jitter: MaxDelay, Bandwidth: 1},
		{Bandwidth: MaxBandwidth},
		{Bandwidth: 125},
	}
	for _, imp := range imps {
		t.Run(imp.String(), func(t *testing.T) {
			back, err := ParseImpairment(imp.String())
			if err != nil {
				t.Fatalf("ParseImpairment(%q): %v", imp.String(), err)
			}
			if back != imp {
				t.Errorf("ParseImpairment(%q) = %+v, want %+v", imp.String(), back, imp)
			}
		})
	}
}

func TestImpairmentIsZero(t *testing.T) {
	tests := []struct {
		name string
		imp  Impairment
		want bool
	}{
		{"zero", Impairment{}, true},
		{"latency", Impairment{Latency: 1}, false},
		{"loss", Impairment{Loss: 0.01}, false},
		{"bandwidth", Impairment{Bandwidth: 1}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.imp.IsZero(); got != tt.want {
				t.Errorf("%+v.IsZero() = %v, want %v", tt.imp, got, tt.want)
			}
		})
	}
}

// FuzzParseImpairment: any input may be rejected, none may panic, and
// whatever parses must print as a spec that parses to the same value.
func FuzzParseImpairment(f *testing.F) {
	for _, seed := range []string{
		"", "none", "latency=80ms,jitter=30ms,loss=5%,dup=2%,reorder=2%,bw=256kbps",
		"loss=0.05", "bw=1.5MB/s", "bw=0", "latency=-1s", "loss=1e-300%", "bw=0x1p3kbps",
		"dup=-0", "reorder=100%", ",", "=", "bw=B/s",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		imp, err := ParseImpairment(spec)
		if err != nil {
			return
		}
		text := imp.String()
		back, err := ParseImpairment(text)
		if err != nil {
			t.Fatalf("ParseImpairment(%q) = %+v, whose String %q does not parse: %v", spec, imp, text, err)
		}
		if back != imp {
			t.Fatalf("ParseImpairment(%q) = %+v, but its String %q parses to %+v", spec, imp, text, back)
		}
		if again := back.String(); again != text {
			t.Fatalf("String is not stable: %q then %q", text, again)
		}
	})
}
