package main

import (
	"reflect"
	"testing"

	"rockstep/net/wire"
)

// TestParseFallback: -fallback takes [NAME=]ADDR, the port 7777 by default.
func TestParseFallback(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []string
		want []wire.FallbackServer
		err  bool
	}{
		{"none", nil, nil, false},
		{"named", []string{"Friday night=play.example.org:7000"}, []wire.FallbackServer{{Name: "Friday night", Addr: "play.example.org:7000"}}, false},
		{"address only, default port", []string{"90.0.0.9"}, []wire.FallbackServer{{Addr: "90.0.0.9:7777"}}, false},
		{"too many", []string{"a:1", "b:1", "c:1", "d:1", "e:1"}, nil, true},
		{"name too long", []string{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa=b:1"}, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseFallback(tc.in)
			if (err != nil) != tc.err || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("parseFallback(%q) = %+v, %v; want %+v, error %v", tc.in, got, err, tc.want, tc.err)
			}
		})
	}
}
