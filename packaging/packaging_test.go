package packaging

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"text/template"
)

// instruction is one Dockerfile instruction, continuation lines joined.
type instruction struct {
	cmd  string // upper case: FROM, RUN, …
	args string
}

func parseDockerfile(tb testing.TB, path string) []instruction {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	var out []instruction
	var cur strings.Builder
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if cur.Len() == 0 && (line == "" || strings.HasPrefix(line, "#")) {
			continue
		}
		if strings.HasSuffix(line, "\\") {
			cur.WriteString(strings.TrimSuffix(line, "\\") + " ")
			continue
		}
		cur.WriteString(line)
		cmd, args, _ := strings.Cut(cur.String(), " ")
		out = append(out, instruction{strings.ToUpper(cmd), strings.TrimSpace(args)})
		cur.Reset()
	}
	return out
}

// dockerBuildCommand is the `go build` the Dockerfile's build stage runs.
func dockerBuildCommand(tb testing.TB, ins []instruction) string {
	tb.Helper()
	for _, in := range ins {
		if in.cmd == "RUN" && strings.Contains(in.args, "go build") {
			cmd, _, _ := strings.Cut(in.args, "&&")
			return strings.TrimSpace(cmd)
		}
	}
	tb.Fatal("Dockerfile: no RUN with go build")
	return ""
}

func TestDockerfileHasTheRequiredDirectives(t *testing.T) {
	ins := parseDockerfile(t, "Dockerfile")
	var froms []string
	last := map[string]string{}
	var copies []string
	for _, in := range ins {
		switch in.cmd {
		case "FROM":
			froms = append(froms, in.args)
		case "COPY":
			copies = append(copies, in.args)
		}
		last[in.cmd] = in.args
	}
	if len(froms) < 2 || !regexp.MustCompile(`(?i)^golang:1\.26\S* AS build$`).MatchString(froms[0]) {
		t.Errorf("FROM %q: want a multi-stage build starting FROM golang:1.26… AS build", froms)
	}
	if final := froms[len(froms)-1]; !strings.HasPrefix(final, "gcr.io/distroless/") && final != "scratch" {
		t.Errorf("final FROM %q: want a minimal image (distroless or scratch)", final)
	}
	if !containsPrefix(copies, "--from=build ") {
		t.Errorf("COPY %q: want the binary copied --from=build", copies)
	}
	if u := last["USER"]; u == "" || strings.HasPrefix(u, "root") || strings.HasPrefix(u, "0") {
		t.Errorf("USER %q: want a non-root user", u)
	}
	if e := last["EXPOSE"]; !strings.Contains(" "+e+" ", " 7777/udp ") {
		t.Errorf("EXPOSE %q: want 7777/udp", e)
	}
	if s := last["STOPSIGNAL"]; s != "SIGTERM" {
		t.Errorf("STOPSIGNAL %q, want SIGTERM", s)
	}
	var entry []string
	if err := json.Unmarshal([]byte(last["ENTRYPOINT"]), &entry); err != nil || len(entry) < 2 ||
		filepath.Base(entry[0]) != "rockstep" || entry[1] != "-server" {
		t.Errorf("ENTRYPOINT %s: want exec form [\".../rockstep\", \"-server\"] (err %v)", last["ENTRYPOINT"], err)
	}
	build := dockerBuildCommand(t, ins)
	for _, want := range []string{"CGO_ENABLED=0", "-trimpath", `-ldflags "-s -w -X main.version=${VERSION}"`, "./cmd/rockstep"} {
		if !strings.Contains(build, want) {
			t.Errorf("build command %q lacks %q", build, want)
		}
	}
}

// TestDockerfileBuildsLikeDist keeps the container's binary the one `make
// dist` releases: the same flags in both places.
func TestDockerfileBuildsLikeDist(t *testing.T) {
	src, err := os.ReadFile("../scripts/dist/main.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"CGO_ENABLED=0"`, `"-trimpath"`, `"-s -w -X main.version="`, `"./cmd/rockstep"`} {
		if !bytes.Contains(src, []byte(want)) {
			t.Errorf("scripts/dist/main.go no longer builds with %s, as packaging/Dockerfile does", want)
		}
	}
}

// unit is a parsed systemd unit: section → key → values, in order.
type unit map[string]map[string][]string

func parseUnit(tb testing.TB, path string) unit {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	u := unit{}
	section := ""
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, ";"):
		case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]"):
			section = line[1 : len(line)-1]
			u[section] = map[string][]string{}
		default:
			k, v, ok := strings.Cut(line, "=")
			if !ok || section == "" {
				tb.Fatalf("%s:%d: not key=value in a section: %q", path, i+1, line)
			}
			u[section][k] = append(u[section][k], v)
		}
	}
	return u
}

func TestSystemdUnitIsHardened(t *testing.T) {
	u := parseUnit(t, "rockstep-server.service")
	s := u["Service"]
	for _, tc := range []struct{ key, want string }{
		{"DynamicUser", "yes"},
		{"NoNewPrivileges", "yes"},
		{"ProtectSystem", "strict"},
		{"ProtectHome", "yes"},
		{"PrivateTmp", "yes"},
		{"PrivateDevices", "yes"},
		{"RestrictAddressFamilies", "AF_INET AF_INET6 AF_UNIX AF_NETLINK"},
		{"CapabilityBoundingSet", ""},
		{"SystemCallFilter", "@system-service"},
		{"SystemCallArchitectures", "native"},
		{"MemoryDenyWriteExecute", "yes"},
		{"RestrictNamespaces", "yes"},
		{"LockPersonality", "yes"},
		{"KillSignal", "SIGTERM"},
	} {
		if vs, ok := s[tc.key]; !ok || vs[0] != tc.want {
			t.Errorf("[Service] %s=%q, want %q", tc.key, vs, tc.want)
		}
	}
	if e := s["ExecStart"]; len(e) != 1 || !strings.Contains(e[0], "rockstep -server") {
		t.Errorf("ExecStart=%q: want one rockstep -server", e)
	}
	if w := u["Install"]["WantedBy"]; len(w) != 1 || w[0] != "multi-user.target" {
		t.Errorf("[Install] WantedBy=%q, want multi-user.target", w)
	}
}

// TestSystemdAnalyzeVerify runs systemd's own checks on the unit, with
// ExecStart pointed at an executable that exists here.
func TestSystemdAnalyzeVerify(t *testing.T) {
	sa, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skip("systemd-analyze not installed (apt-get install systemd): unit checked by parsing only")
	}
	b, err := os.ReadFile("rockstep-server.service")
	if err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "rockstep-server.service")
	if err := os.WriteFile(path, bytes.ReplaceAll(b, []byte("/usr/local/bin/rockstep"), []byte(self)), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(sa, "verify", path).CombinedOutput(); err != nil || len(bytes.TrimSpace(out)) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
	// Exposure 0 (locked down) to 10 (unprotected); --threshold is ×10.
	out, err := exec.Command(sa, "security", "--offline=true", "--threshold=25", path).CombinedOutput()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee) && bytes.Contains(out, []byte("Overall exposure level")):
		t.Errorf("systemd-analyze security: exposure above 2.5:\n%s", lastLines(out, 2))
	default:
		t.Logf("systemd-analyze security --offline unavailable (%v); skipped", err)
	}
}

func TestDesktopEntry(t *testing.T) {
	u := parseUnit(t, "linux/rockstep.desktop")
	e := u["Desktop Entry"]
	for _, tc := range []struct{ key, want string }{
		{"Type", "Application"}, {"Name", "Rockstep"}, {"Exec", "rockstep"},
		{"Icon", "rockstep"}, {"Terminal", "false"},
	} {
		if vs := e[tc.key]; len(vs) != 1 || vs[0] != tc.want {
			t.Errorf("%s=%q, want %q", tc.key, vs, tc.want)
		}
	}
	if c := e["Categories"]; len(c) != 1 || !strings.Contains(c[0], "Game;") {
		t.Errorf("Categories=%q: want Game", c)
	}
	if v, err := exec.LookPath("desktop-file-validate"); err == nil {
		if out, err := exec.Command(v, "linux/rockstep.desktop").CombinedOutput(); err != nil {
			t.Errorf("desktop-file-validate: %v\n%s", err, out)
		}
	}
}

func TestInfoPlistTemplate(t *testing.T) {
	tmpl, err := template.ParseFiles("macos/Info.plist")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := tmpl.Execute(&b, struct{ Version, ShortVersion string }{"v1.2.3-4-gabcdef0", "1.2.3"}); err != nil {
		t.Fatal(err)
	}
	got := plistStrings(t, b.Bytes())
	for k, want := range map[string]string{
		"CFBundleExecutable":         "rockstep",
		"CFBundleIconFile":           "rockstep",
		"CFBundlePackageType":        "APPL",
		"CFBundleShortVersionString": "1.2.3",
		"CFBundleVersion":            "v1.2.3-4-gabcdef0",
	} {
		if got[k] != want {
			t.Errorf("Info.plist %s = %q, want %q", k, got[k], want)
		}
	}
}

// plistStrings returns the <key>…</key><string>…</string> pairs of a plist,
// failing if it is not well-formed XML.
func plistStrings(tb testing.TB, b []byte) map[string]string {
	tb.Helper()
	d := xml.NewDecoder(bytes.NewReader(b))
	out := map[string]string{}
	var key, elem string
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return out
		}
		if err != nil {
			tb.Fatalf("Info.plist: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			elem = tok.Name.Local
		case xml.CharData:
			switch elem {
			case "key":
				key = string(tok)
			case "string":
				out[key] = string(tok)
			}
		case xml.EndElement:
			elem = ""
		}
	}
}

func containsPrefix(ss []string, p string) bool {
	for _, s := range ss {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

func lastLines(b []byte, n int) string {
	ls := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, "\n")
}
