#!/usr/bin/env bash
# Rockstep load test (DESIGN.md §6, issue "Real network"): BOTS bot players
# in rooms of 4 against one dedicated server on loopback for SECONDS, then a
# plain kcp-go echo carrying the same packet flow, side by side. Prints the
# server's CPU and peak RSS, the bots' summary (p99 tick lateness, bytes per
# client) and the server's late turns for both. Loopback only.
#
#   scripts/loadtest.sh [BOTS] [SECONDS]     (default 1000 60)
set -euo pipefail
cd "$(dirname "$0")/.."
BOTS=${1:-1000}
SECS=${2:-60}
TICKS=$((SECS * 60))
OUT=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true' EXIT
go build -o "$OUT/rockstep" ./cmd/rockstep
go build -o "$OUT/kcpecho" ./tools/kcpecho
HZ=$(getconf CLK_TCK)

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
peak_rss_mb() { awk '/VmHWM/ {printf "%.0f", $2/1024}' "/proc/$1/status"; }

measure() { # name pid command...
	local name=$1 pid=$2
	shift 2
	local c0 t0 c1 t1
	c0=$(cpu_ticks "$pid")
	t0=$(date +%s.%N)
	"$@" >"$OUT/$name.clients.txt" 2>"$OUT/$name.clients.err" || true
	c1=$(cpu_ticks "$pid")
	t1=$(date +%s.%N)
	local cpu
	cpu=$(awk -v c="$((c1 - c0))" -v hz="$HZ" -v t0="$t0" -v t1="$t1" 'BEGIN {printf "%.1f", 100 * c / hz / (t1 - t0)}')
	echo "$name: server_cpu_percent=$cpu server_peak_rss_mb=$(peak_rss_mb "$pid") wall_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.0f", b - a}')"
	echo "$name clients: $(tail -1 "$OUT/$name.clients.txt")"
}

"$OUT/rockstep" -server -listen 127.0.0.1:7790 -lan=false -metrics 127.0.0.1:7791 -max-rooms 512 2>"$OUT/server.log" &
SRV=$!
sleep 0.5
measure rockstep "$SRV" "$OUT/rockstep" -bots "$BOTS" -join 127.0.0.1:7790 -per-room 4 -ticks "$TICKS" -seed 1
curl -s 127.0.0.1:7791/metrics | grep -E '^rockstep_(turns_total|late_turns_total|bytes_out_total|bytes_in_total|transport_sessions) ' | tr '\n' ' '
echo
kill -TERM "$SRV"
wait "$SRV" || true

"$OUT/kcpecho" -server -listen 127.0.0.1:7792 2>"$OUT/echo.log" &
ECHO=$!
sleep 0.5
measure kcpecho "$ECHO" "$OUT/kcpecho" -clients "$BOTS" -connect 127.0.0.1:7792 -duration "${SECS}s"
kill "$ECHO"
wait "$ECHO" 2>/dev/null || true
echo "logs in $OUT"
