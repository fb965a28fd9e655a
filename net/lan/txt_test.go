package lan

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/miekg/dns"

	"rockstep/net/wire"
)

// overWire packs raw TXT strings (arbitrary bytes) into an mDNS answer and
// unpacks them, returning what decodeTXT receives from miekg/dns.
func overWire(tb testing.TB, raw ...string) []string {
	tb.Helper()
	escaped := make([]string, len(raw))
	for i, s := range raw {
		escaped[i] = escapeTXT(s)
	}
	msg := dns.Msg{MsgHdr: dns.MsgHdr{Response: true}, Answer: []dns.RR{&dns.TXT{
		Hdr: dns.RR_Header{Name: "x." + serviceName, Rrtype: dns.TypeTXT, Class: dns.ClassINET, Ttl: 120},
		Txt: escaped,
	}}}
	packet, err := msg.Pack()
	if err != nil {
		tb.Fatalf("pack TXT %q: %v", raw, err)
	}
	var got dns.Msg
	if err := got.Unpack(packet); err != nil {
		tb.Fatalf("unpack TXT %q: %v", raw, err)
	}
	return got.Answer[0].(*dns.TXT).Txt
}

func TestTXTRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name string
		info Info
	}{
		{"plain", Info{ID: "0123456789abcdef", Name: "Friday rocks", Host: "Guest-1F2E", Players: 3, Max: 8, State: wire.StateSetup.String()}},
		{"host key", Info{ID: "k", Name: "n", Players: 1, Max: 2, State: wire.StateSetup.String(), Fingerprint: "00112233445566778899aabbccddeeff"}},
		{"running full", Info{ID: "a", Name: "x", Host: "y", Players: 8, Max: 8, State: wire.StateRunning.String()}},
		{"finished empty", Info{ID: "A-b_9", Name: "n", Players: 0, Max: 1, State: wire.StateFinished.String()}},
		{"unicode", Info{ID: "id", Name: "Zoë's café ☄", Host: "Jürgen", Players: 1, Max: 4, State: wire.StateSetup.String()}},
		{"escapes", Info{ID: "id", Name: `back\slash "q" =eq`, Host: `\123`, Players: 1, Max: 2, State: wire.StateSetup.String()}},
		{"longest name", Info{ID: "id", Name: strings.Repeat("é", MaxName/2), Host: strings.Repeat("h", MaxName), Players: 64, Max: 64, State: wire.StateSetup.String()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.info.clean() != tc.info {
				t.Fatalf("test info is not clean: %+v", tc.info)
			}
			g, sanitised, err := decodeTXT(overWire(t, rawTXT(t, encodeTXT(tc.info))...))
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if sanitised {
				t.Errorf("sanitised = true, want false")
			}
			got := Info{ID: g.ID, Name: g.Name, Host: g.Host, Players: g.Players, Max: g.Max, State: g.State, Fingerprint: g.Fingerprint}
			if got != tc.info {
				t.Errorf("decoded %+v, want %+v", got, tc.info)
			}
			if g.Version != wire.Version || !g.Compatible {
				t.Errorf("version %d compatible %v, want %d true", g.Version, g.Compatible, wire.Version)
			}
		})
	}
}

// rawTXT undoes escapeTXT, so that overWire can take encodeTXT's output.
func rawTXT(tb testing.TB, escaped []string) []string {
	tb.Helper()
	raw := make([]string, len(escaped))
	for i, s := range escaped {
		raw[i] = strings.ReplaceAll(s, `\\`, `\`)
	}
	return raw
}

func TestDecodeTXTHostile(t *testing.T) {
	v := "v=" + strconv.Itoa(wire.Version)
	valid := []string{v, "id=abc", "name=Room", "host=Ann", "players=2", "max=8", "state=setup"}
	// with returns valid changed: "key=value" replaces or adds a field,
	// "key" alone drops it.
	with := func(changes ...string) []string {
		out := slices.Clone(valid)
		for _, c := range changes {
			key, _, set := strings.Cut(c, "=")
			out = slices.DeleteFunc(out, func(s string) bool { return strings.HasPrefix(s, key+"=") })
			if set {
				out = append(out, c)
			}
		}
		return out
	}

	for _, tc := range []struct {
		name      string
		txt       []string
		wantErr   error // nil: accepted
		wantName  string
		wantHost  string
		sanitised bool
		wantState string
		compat    bool
	}{
		{name: "valid", txt: valid, wantName: "Room", wantHost: "Ann", wantState: "setup", compat: true},
		{name: "keys any case, unknown keys and flags ignored", txt: []string{"V=" + strconv.Itoa(wire.Version), "ID=abc", "Name=Room", "PLAYERS=2", "max=8", "state=setup", "color=red", "flag"},
			wantName: "Room", wantState: "setup", compat: true},
		{name: "no host", txt: with("host"), wantName: "Room", wantState: "setup", compat: true},
		{name: "no version", txt: with("v"), wantErr: errMissing},
		{name: "host key fingerprint", txt: with("fp=00112233445566778899aabbccddeeff"), wantName: "Room", wantHost: "Ann", wantState: "setup", compat: true},
		{name: "empty fingerprint", txt: with("fp="), wantName: "Room", wantHost: "Ann", wantState: "setup", compat: true},
		{name: "fingerprint too short", txt: with("fp=0011"), wantErr: errBadValue},
		{name: "fingerprint in capitals", txt: with("fp=00112233445566778899AABBCCDDEEFF"), wantErr: errBadValue},
		{name: "duplicate fingerprint", txt: append(with("fp="), "fp=00112233445566778899aabbccddeeff"), wantErr: errDuplicate},
		{name: "no id", txt: with("id"), wantErr: errMissing},
		{name: "no name", txt: with("name"), wantErr: errMissing},
		{name: "no players", txt: with("players"), wantErr: errMissing},
		{name: "no max", txt: with("max"), wantErr: errMissing},
		{name: "no state", txt: with("state"), wantErr: errMissing},
		{name: "empty record", txt: []string{""}, wantErr: errMissing},
		{name: "duplicate name", txt: append(with(), "name=Other"), wantErr: errDuplicate},
		{name: "duplicate id in other case", txt: append(with(), "ID=abd"), wantErr: errDuplicate},
		{name: "too many strings", txt: append(with(), strings.Split(strings.Repeat("x=1,", maxTXT), ",")...), wantErr: errTooMany},
		{name: "version garbage", txt: with("v=one"), wantErr: errBadValue},
		{name: "version negative", txt: with("v=-1"), wantErr: errBadValue},
		{name: "version absurd", txt: with("v=99999999999999999999"), wantErr: errBadValue},
		{name: "players negative", txt: with("players=-1"), wantErr: errBadValue},
		{name: "players plus sign", txt: with("players=+2"), wantErr: errBadValue},
		{name: "players space", txt: with("players= 2"), wantErr: errBadValue},
		{name: "players leading zero", txt: with("players=02"), wantErr: errBadValue},
		{name: "players hex", txt: with("players=0x2"), wantErr: errBadValue},
		{name: "players absurd", txt: with("players=4294967297", "max=8"), wantErr: errBadValue},
		{name: "players over max", txt: with("players=9", "max=8"), wantErr: errBadValue},
		{name: "max zero", txt: with("players=0", "max=0"), wantErr: errBadValue},
		{name: "max absurd", txt: with("max=65"), wantErr: errBadValue},
		{name: "id empty", txt: with("id="), wantErr: errBadValue},
		{name: "id with dot", txt: with("id=a.b"), wantErr: errBadValue},
		{name: "id too long", txt: with("id=" + strings.Repeat("a", maxIDLen+1)), wantErr: errBadValue},
		{name: "id non-ASCII", txt: with("id=ïd"), wantErr: errBadValue},
		{name: "state unknown", txt: with("state=lobby"), wantErr: errBadValue},
		{name: "state garbage", txt: with("state=\x00\xff"), wantErr: errBadValue},
		{name: "other version, new state", txt: with("v=99", "state=lobby"), wantName: "Room", wantHost: "Ann", wantState: "lobby"},
		{name: "other version, garbage state", txt: with("v=99", "state=Lobby!"), wantErr: errBadValue},
		{name: "old version", txt: with("v=0"), wantName: "Room", wantHost: "Ann", wantState: "setup"},
		{name: "name too long", txt: with("name=" + strings.Repeat("r", 200)), wantName: strings.Repeat("r", MaxName), wantHost: "Ann", sanitised: true, wantState: "setup", compat: true},
		{name: "name cut on a character", txt: with("name=" + strings.Repeat("r", MaxName-1) + "é"), wantName: strings.Repeat("r", MaxName-1), wantHost: "Ann", sanitised: true, wantState: "setup", compat: true},
		{name: "name not UTF-8", txt: with("name=a\xffb\xc3"), wantName: "ab", wantHost: "Ann", sanitised: true, wantState: "setup", compat: true},
		{name: "name terminal escape", txt: with("name=\x1b[2J\x1b[31mred\a"), wantName: "[2J[31mred", wantHost: "Ann", sanitised: true, wantState: "setup", compat: true},
		{name: "name bidi override and zero width", txt: with("name=\u202Eabc\u200Bd"), wantName: "abcd", wantHost: "Ann", sanitised: true, wantState: "setup", compat: true},
		{name: "name newline and tabs", txt: with("name= a\nb\tc "), wantName: "a b c", wantHost: "Ann", sanitised: true, wantState: "setup", compat: true},
		{name: "name NUL", txt: with("name=a\x00b"), wantName: "ab", wantHost: "Ann", sanitised: true, wantState: "setup", compat: true},
		{name: "name escape text stays text", txt: with(`name=\255\"`), wantName: `\255\"`, wantHost: "Ann", wantState: "setup", compat: true},
		{name: "host hostile", txt: with("host=\xfe" + strings.Repeat("h", 100)), wantName: "Room", wantHost: strings.Repeat("h", MaxName), sanitised: true, wantState: "setup", compat: true},
		{name: "empty name", txt: with("name="), wantName: "", wantHost: "Ann", wantState: "setup", compat: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, sanitised, err := decodeTXT(overWire(t, tc.txt...))
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("decode %q: error %v, want %v", tc.txt, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("decode %q: %v", tc.txt, err)
			}
			if g.Name != tc.wantName || g.Host != tc.wantHost || g.State != tc.wantState {
				t.Errorf("name %q host %q state %q, want %q %q %q", g.Name, g.Host, g.State, tc.wantName, tc.wantHost, tc.wantState)
			}
			if sanitised != tc.sanitised {
				t.Errorf("sanitised = %v, want %v", sanitised, tc.sanitised)
			}
			if g.Compatible != tc.compat {
				t.Errorf("compatible = %v, want %v", g.Compatible, tc.compat)
			}
			if !utf8.ValidString(g.Name) || len(g.Name) > MaxName || !utf8.ValidString(g.Host) || len(g.Host) > MaxName {
				t.Errorf("unsafe names kept: %q %q", g.Name, g.Host)
			}
		})
	}
}

func TestInfoClean(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   Info
		want Info
	}{
		{"already clean", Info{Name: "a", Host: "b", Players: 1, Max: 2, State: wire.StateRunning.String()}, Info{Name: "a", Host: "b", Players: 1, Max: 2, State: wire.StateRunning.String()}},
		{"zero", Info{}, Info{Max: 1, State: wire.StateSetup.String()}},
		{"players over max", Info{Players: 9, Max: 8, State: wire.StateSetup.String()}, Info{Players: 8, Max: 8, State: wire.StateSetup.String()}},
		{"negative players", Info{Players: -3, Max: 4, State: wire.StateSetup.String()}, Info{Players: 0, Max: 4, State: wire.StateSetup.String()}},
		{"absurd max", Info{Players: 1000, Max: 1000, State: wire.StateSetup.String()}, Info{Players: maxCount, Max: maxCount, State: wire.StateSetup.String()}},
		{"unknown state", Info{Max: 2, State: "lobby"}, Info{Max: 2, State: wire.StateSetup.String()}},
		{"long names", Info{Name: strings.Repeat("n", 40), Host: "\x1bh", Max: 2, State: wire.StateSetup.String()}, Info{Name: strings.Repeat("n", MaxName), Host: "h", Max: 2, State: wire.StateSetup.String()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.in.clean(); got != tc.want {
				t.Errorf("clean(%+v) = %+v, want %+v", tc.in, got, tc.want)
			}
		})
	}
}

func TestNewGameID(t *testing.T) {
	a, b := NewGameID(), NewGameID()
	if !validID(a) || len(a) != 16 {
		t.Errorf("NewGameID() = %q, want 16 hex digits", a)
	}
	if a == b {
		t.Errorf("two NewGameID() calls both returned %q", a)
	}
}

func TestUnescapeTXT(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`plain`, "plain"},
		{`\255\000`, "\xff\x00"},
		{`\"\\`, `"\`},
		{`\256`, "256"}, // not a byte: the backslash escapes '2'
		{`\12`, "12"},
		{`end\`, `end\`},
	} {
		if got := unescapeTXT(tc.in); got != tc.want {
			t.Errorf("unescapeTXT(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
