#!/bin/sh
# idlecpu.sh BINARY [SECONDS]: the CPU and memory one Rockstep window costs
# when it sits in the main menu, in a lobby (a guest of a -server on
# loopback), on the results of a game it hosted and ended, and in a
# practice game, under Xvfb at 1280x720 (no vsync).
# Run it in a network namespace of its own, so that the menu's LAN list
# and the server stay inside it:
#
#	unshare -rn scripts/idlecpu.sh ./rockstep 20
#
# For each state it prints the CPU the window's process used over SECONDS
# (after 8 s to settle; 100% is one core) and its resident memory then.
set -eu
bin=$(realpath "$1")
secs=${2:-20}
hz=$(getconf CLK_TCK)
ip link set lo up 2>/dev/null || true
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }

measure() {
	state=$1
	shift
	dir="$work/$state"
	mkdir -p "$dir"
	ROCKSTEP_CONFIG_DIR="$dir" XDG_CONFIG_HOME="$dir" \
		xvfb-run -a -s "-screen 0 1280x720x24" \
		sh -c 'echo $$ > "$0"; exec "$@"' "$dir/pid" "$bin" "$@" >"$dir/log" 2>&1 &
	xr=$!
	sleep 8
	pid=$(cat "$dir/pid")
	t0=$(cpu "$pid")
	sleep "$secs"
	t1=$(cpu "$pid")
	rss=$(awk '/^VmRSS/ {print int($2 / 1024)}' "/proc/$pid/status")
	kill "$pid"
	wait "$xr" || true
	echo "$state cpu_pct=$(((t1 - t0) * 100 / hz / secs)) rss_mb=$rss"
}

measure menu -name Bench
"$bin" -server -listen 127.0.0.1:17801 -lan=false >"$work/server.log" 2>&1 &
server=$!
sleep 1
measure lobby -name Bench -join 127.0.0.1:17801
kill "$server"
wait "$server" || true
measure results -name Bench -host -portmap=false -autopilot "ready; start 1; end-game"
measure playing -name Bench -practice
