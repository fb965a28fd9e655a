#!/bin/sh
# test-tools.sh: make sure the tools `make test` needs are here (make
# check-tools). Where one is missing and this runs as root with apt-get, it
# installs the Debian packages, saying so in one line; otherwise it names
# the command to run and fails. Go itself is assumed: it is named, never
# installed. GO names the go command (default go).
#
# Before it installs anything it makes sure a policy-rc.d forbids starting
# services (POLICY_RC_D, default /usr/sbin/policy-rc.d: one that exits 101
# is created where there is none, and left there): miniupnpd-nftables
# must never start its daemon on the machine's real interfaces; the tests
# run it only inside their own network namespaces (internal/natlab).
#
# Tested by scripts/tools_test.go with a PATH that hides the tools and a fake
# apt-get that records its arguments.
set -u
GO=${GO:-go}
POLICY_RC_D=${POLICY_RC_D:-/usr/sbin/policy-rc.d}

# tool package why: one line per tool, in the order they are reported.
needs='gcc gcc for -race
make make to run the tests
git git for the file list of gofmt and the version of dist
xvfb-run xvfb for the window tests (a virtual X server)
xauth xauth for xvfb-run
xdotool xdotool to type into the game window (keys typed quickly while frames are slow)
qemu-aarch64-static qemu-user-static for the arm64 determinism test
ip iproute2 for the private network namespaces of the LAN and end-to-end tests
pulseaudio pulseaudio for the sound test (a null sink, recorded with its parec)
nft nftables for the NAT of the port mapping lab (internal/natlab)
miniupnpd miniupnpd-nftables for the router of the lab (UPnP IGD, NAT-PMP, PCP)
upnpc miniupnpc to list the mappings of the lab router
natpmpc natpmpc to ask the lab router by NAT-PMP
node nodejs for the engine golden hashes under WebAssembly (the wasm runner of Go)
chromium chromium for the game in a browser tab (headless, software WebGL)'

# missing prints "package|what it is and why" for each missing tool, one a line.
missing() {
	echo "$needs" | while read -r tool pkg why; do
		command -v "$tool" >/dev/null 2>&1 || echo "$pkg|$tool (Debian: $pkg) $why"
	done
	# Mesa's software renderer, for the windows under Xvfb. A library, not a
	# command: asked of dpkg where there is one.
	if command -v dpkg-query >/dev/null 2>&1; then
		st=$(dpkg-query -W -f '${db:Status-Status}' libgl1-mesa-dri 2>/dev/null)
		[ "$st" = installed ] || echo "libgl1-mesa-dri|Mesa's DRI drivers (Debian: libgl1-mesa-dri) for OpenGL under Xvfb"
	fi
}

if ! command -v "$GO" >/dev/null 2>&1; then
	echo "make test: $GO not found: install Go 1.26 from https://go.dev/dl/ and put it on PATH" >&2
	exit 1
fi

need=$(missing)
[ -z "$need" ] && exit 0
pkgs=$(echo "$need" | cut -d'|' -f1 | tr '\n' ' ' | sed 's/ $//')

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "make test: installing $pkgs (apt-get install -y $pkgs)"
	if [ ! -e "$POLICY_RC_D" ]; then
		printf '#!/bin/sh\n# make test: no package installed for the tests starts a service.\nexit 101\n' >"$POLICY_RC_D" &&
			chmod 755 "$POLICY_RC_D" || {
			echo "make test: cannot create $POLICY_RC_D to keep services from starting" >&2
			exit 1
		}
	fi
	log=$(mktemp)
	if ! { DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $pkgs; } >"$log" 2>&1; then
		cat "$log" >&2
		rm -f "$log"
		echo "make test: apt-get install -y $pkgs failed (above)" >&2
		exit 1
	fi
	rm -f "$log"
	need=$(missing)
	[ -z "$need" ] && exit 0
	echo "make test: still missing after apt-get:" >&2
	echo "$need" | cut -d'|' -f2 | sed 's/^/  /' >&2
	exit 1
fi

echo "make test: missing:" >&2
echo "$need" | cut -d'|' -f2 | sed 's/^/  /' >&2
if command -v apt-get >/dev/null 2>&1; then
	echo "run: sudo apt-get install -y $pkgs" >&2
else
	echo "install them with your system's package manager (Debian: apt-get install -y $pkgs)" >&2
fi
exit 1
