// Command dist builds Rockstep's release artifacts: `make dist` runs it from
// the repository root.
//
// Every target is built with CGO_ENABLED=0 (Ebiten reaches the system's
// graphics libraries through purego), -trimpath, stripped, and with the
// version stamped into main.version:
//
//	rockstep-V-linux-amd64.tar.gz    binary, .desktop file, icon, README.txt, systemd unit
//	rockstep-V-linux-arm64.tar.gz
//	rockstep-V-windows-amd64.exe     GUI subsystem, icon, version info and manifest
//	rockstep-V-macos-arm64.zip       Rockstep.app
//	rockstep-V-macos-amd64.zip
//	SHA256SUMS
//
// V is -version, else `git describe --tags --always --dirty`, with 0.0.0-
// prefixed when there is no tag, and 0.0.0-dev without git. The Windows
// resources (.syso) come from go-winres at a pinned version, and lie in
// cmd/rockstep only while the Windows build runs (.gitignore names them).
package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"image/png"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"text/template"
	"time"

	"rockstep/assets/iconart"
)

// goWinres makes the Windows resource object; pinned, run with `go run`.
const goWinres = "github.com/tc-hib/go-winres@v0.3.3"

// target is one operating system and architecture to release for.
type target struct{ goos, goarch string }

var targets = []target{
	{"linux", "amd64"}, {"linux", "arm64"},
	{"windows", "amd64"},
	{"darwin", "arm64"}, {"darwin", "amd64"},
}

func main() {
	log.SetFlags(0)
	log.SetPrefix("dist: ")
	out := flag.String("out", "dist", "output `DIR` (emptied first)")
	version := flag.String("version", "", "release `VERSION` (default: from git describe)")
	only := flag.String("targets", "", "comma-separated `GOOS/GOARCH` list (default: all five)")
	flag.Parse()
	if _, err := os.Stat("cmd/rockstep"); err != nil {
		log.Fatal("run me from the repository root (make dist)")
	}
	v := *version
	if v == "" {
		v = describe()
	}
	ts := targets
	if *only != "" {
		ts = nil
		for _, s := range strings.Split(*only, ",") {
			goos, goarch, _ := strings.Cut(strings.TrimSpace(s), "/")
			ts = append(ts, target{goos, goarch})
		}
	}
	if err := run(*out, v, ts); err != nil {
		log.Fatal(err)
	}
}

// describe is the version from git: the nearest tag and how far HEAD is
// from it, or 0.0.0-gHASH before the first tag, or 0.0.0-dev without git.
func describe() string {
	if out, err := exec.Command("git", "describe", "--tags", "--dirty").Output(); err == nil {
		return strings.TrimSpace(string(out))
	}
	out, err := exec.Command("git", "describe", "--always", "--dirty").Output()
	if s := strings.TrimSpace(string(out)); err == nil && s != "" {
		return "0.0.0-g" + s
	}
	return "0.0.0-dev"
}

// numericVersion is the leading MAJOR.MINOR.PATCH of v ("v1.4-3-gabc" →
// 1.4.0), what Info.plist and Windows version resources accept.
func numericVersion(v string) string {
	m := regexp.MustCompile(`^v?([0-9]+)(?:\.([0-9]+))?(?:\.([0-9]+))?`).FindStringSubmatch(v)
	if m == nil {
		return "0.0.0"
	}
	for i := 2; i <= 3; i++ {
		if m[i] == "" {
			m[i] = "0"
		}
	}
	return m[1] + "." + m[2] + "." + m[3]
}

func run(out, version string, ts []target) error {
	start := time.Now()
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "rockstep-dist-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	log.Printf("version %s", version)
	for _, t := range ts {
		t0 := time.Now()
		name, err := release(t, out, work, version)
		if err != nil {
			return fmt.Errorf("%s/%s: %w", t.goos, t.goarch, err)
		}
		fi, err := os.Stat(filepath.Join(out, name))
		if err != nil {
			return err
		}
		log.Printf("%-40s %6.1f MB  %s", name, float64(fi.Size())/1e6, time.Since(t0).Round(100*time.Millisecond))
	}
	if err := writeSums(out); err != nil {
		return err
	}
	log.Printf("done in %s: %s", time.Since(start).Round(time.Second), out)
	return nil
}

// release builds and packages one target and returns the artifact's name.
func release(t target, out, work, version string) (string, error) {
	dir := filepath.Join(work, t.goos+"-"+t.goarch)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	exe := filepath.Join(dir, "rockstep")
	ldflags := "-s -w -X main.version=" + version
	if t.goos == "windows" {
		exe += ".exe"
		ldflags += " -H=windowsgui" // no console window on double-click
		remove, err := windowsResources(t, dir, version)
		if err != nil {
			return "", err
		}
		defer remove()
	}
	if err := build(t, exe, ldflags); err != nil {
		return "", err
	}
	base := fmt.Sprintf("rockstep-%s-%s-%s", version, t.goos, t.goarch)
	switch t.goos {
	case "linux":
		return base + ".tar.gz", linuxTarball(filepath.Join(out, base+".tar.gz"), base, exe)
	case "windows":
		return base + ".exe", copyFile(filepath.Join(out, base+".exe"), exe)
	case "darwin":
		base = fmt.Sprintf("rockstep-%s-macos-%s", version, t.goarch)
		return base + ".zip", macApp(filepath.Join(out, base+".zip"), exe, version)
	}
	return "", fmt.Errorf("no packaging for %s", t.goos)
}

// build is `go build` for one target, as packaging/Dockerfile does it.
func build(t target, exe, ldflags string) error {
	args := []string{"build", "-trimpath", "-ldflags", ldflags, "-o", exe, "./cmd/rockstep"}
	cmd := exec.Command("go", args...)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+t.goos, "GOARCH="+t.goarch)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go %s: %w", strings.Join(args, " "), err)
	}
	return nil
}

// windowsResources makes the .syso with the icon, the version information
// and a GUI manifest, and puts it in cmd/rockstep, where go build links it
// into Windows builds only (by its _windows_amd64 suffix); the returned
// function removes it again. (A build overlay cannot add a .syso.)
func windowsResources(t target, dir, version string) (func(), error) {
	num := numericVersion(version) + ".0"
	cmd := exec.Command("go", "run", goWinres, "simply",
		"--arch", t.goarch,
		"--out", filepath.Join(dir, "rsrc"),
		"--icon", "assets/icon.png",
		"--manifest", "gui",
		"--product-name", "Rockstep",
		"--file-description", "Rockstep, a LAN Asteroids for 1-8 players",
		"--product-version", num,
		"--file-version", num,
		"--original-filename", "rockstep.exe",
		"--copyright", "The Rockstep authors")
	// go run must build the tool for this machine, not for the target.
	cmd.Env = append(os.Environ(), "GOOS=", "GOARCH=", "CGO_ENABLED=0")
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s (needs the Go module proxy once): %w", goWinres, err)
	}
	syso := "rsrc_windows_" + t.goarch + ".syso"
	b, err := os.ReadFile(filepath.Join(dir, syso))
	if err != nil {
		return nil, err
	}
	dst := filepath.Join("cmd", "rockstep", syso)
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		return nil, err
	}
	return func() { os.Remove(dst) }, nil
}

// entry is one file of an archive.
type entry struct {
	name string
	mode os.FileMode
	data []byte
}

// linuxTarball writes base.tar.gz: a folder with the binary, a desktop
// entry, the icon, a README and the systemd unit.
func linuxTarball(path, base, exe string) error {
	bin, err := os.ReadFile(exe)
	if err != nil {
		return err
	}
	files := []entry{{"rockstep", 0o755, bin}}
	for _, f := range []struct{ name, src string }{
		{"rockstep.desktop", "packaging/linux/rockstep.desktop"},
		{"rockstep.png", "assets/icon.png"},
		{"README.txt", "packaging/linux/README.txt"},
		{"rockstep-server.service", "packaging/rockstep-server.service"},
	} {
		b, err := os.ReadFile(f.src)
		if err != nil {
			return err
		}
		files = append(files, entry{f.name, 0o644, b})
	}
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	now := time.Now().UTC().Truncate(time.Second)
	if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: base + "/", Mode: 0o755, ModTime: now}); err != nil {
		return err
	}
	for _, f := range files {
		h := &tar.Header{Typeflag: tar.TypeReg, Name: base + "/" + f.name, Mode: int64(f.mode), Size: int64(len(f.data)), ModTime: now}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if _, err := tw.Write(f.data); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	if err := gz.Close(); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// macApp writes a zip holding Rockstep.app: the executable, Info.plist and
// the icon as .icns.
func macApp(path, exe, version string) error {
	bin, err := os.ReadFile(exe)
	if err != nil {
		return err
	}
	tmpl, err := template.ParseFiles("packaging/macos/Info.plist")
	if err != nil {
		return err
	}
	var plist bytes.Buffer
	if err := tmpl.Execute(&plist, struct{ Version, ShortVersion string }{version, numericVersion(version)}); err != nil {
		return fmt.Errorf("Info.plist: %w", err)
	}
	icns, err := makeICNS()
	if err != nil {
		return err
	}
	files := []entry{
		{"Rockstep.app/Contents/Info.plist", 0o644, plist.Bytes()},
		{"Rockstep.app/Contents/MacOS/rockstep", 0o755, bin},
		{"Rockstep.app/Contents/Resources/rockstep.icns", 0o644, icns},
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	now := time.Now()
	for _, d := range []string{"Rockstep.app/", "Rockstep.app/Contents/", "Rockstep.app/Contents/MacOS/", "Rockstep.app/Contents/Resources/"} {
		h := &zip.FileHeader{Name: d, Modified: now}
		h.SetMode(os.ModeDir | 0o755)
		if _, err := zw.CreateHeader(h); err != nil {
			return err
		}
	}
	for _, f := range files {
		h := &zip.FileHeader{Name: f.name, Method: zip.Deflate, Modified: now}
		h.SetMode(f.mode) // keeps the executable bit for Finder's Archive Utility
		w, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		if _, err := w.Write(f.data); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// icnsTypes are the PNG-holding .icns entries, each with its pixel size.
var icnsTypes = []struct {
	ostype string
	size   int
}{
	{"icp4", 16}, {"icp5", 32}, {"ic11", 32}, {"ic12", 64}, {"ic07", 128},
	{"ic13", 256}, {"ic08", 256}, {"ic14", 512}, {"ic09", 512},
}

// makeICNS draws the icon at every size an .icns holds and packs them: the
// format is a big-endian "icns" header with the total length, then entries of
// a four-letter type, a length that includes its 8-byte header, and a PNG.
func makeICNS() ([]byte, error) {
	pngs := map[int][]byte{}
	var body bytes.Buffer
	for _, t := range icnsTypes {
		if pngs[t.size] == nil {
			var b bytes.Buffer
			if err := png.Encode(&b, iconart.Render(t.size)); err != nil {
				return nil, fmt.Errorf("icns %d px: %w", t.size, err)
			}
			pngs[t.size] = b.Bytes()
		}
		body.WriteString(t.ostype)
		body.Write(be32(8 + len(pngs[t.size])))
		body.Write(pngs[t.size])
	}
	var out bytes.Buffer
	out.WriteString("icns")
	out.Write(be32(8 + body.Len()))
	out.Write(body.Bytes())
	return out.Bytes(), nil
}

func be32(n int) []byte { return []byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)} }

func copyFile(dst, src string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o755)
}

// writeSums writes SHA256SUMS for every artifact in out, as sha256sum -c reads it.
func writeSums(out string) error {
	des, err := os.ReadDir(out)
	if err != nil {
		return err
	}
	var names []string
	for _, de := range des {
		if de.Type().IsRegular() && de.Name() != "SHA256SUMS" {
			names = append(names, de.Name())
		}
	}
	if len(names) == 0 {
		return errors.New("no artifacts")
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		f, err := os.Open(filepath.Join(out, n))
		if err != nil {
			return err
		}
		h := sha256.New()
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%x  %s\n", h.Sum(nil), n)
	}
	return os.WriteFile(filepath.Join(out, "SHA256SUMS"), []byte(b.String()), 0o644)
}
