#!/usr/bin/env bash
# Rockstep load test (docs/ARCHITECTURE.md §6): BOTS bot players in rooms of 4 against
# one dedicated server on loopback for SECONDS; beside it, in the same run,
# a plain kcp-go echo carrying the same packet flow (tools/kcpecho, at the
# turn rate the rooms ran at), and the peer's server, byebyebruce/lockstepserver,
# if its module can be fetched or PEER_SRC names a checkout of it (driven by
# tools/peerload). Prints, for each: server CPU (share of one
# core) and peak RSS; for Rockstep also the bots' summary (game speed,
# lateness, stalls), the server's late turns and where its CPU went (a CPU
# profile through -pprof, by function group). Loopback only.
#
#   scripts/loadtest.sh [BOTS] [SECONDS]         default 1000 60
#   scripts/loadtest.sh sweep [SECONDS]          250, 500, 1000, 2000, 4000 bots
#   BUILD=noui scripts/loadtest.sh ...           measure the noui server build
#   PEER_SRC=DIR scripts/loadtest.sh ...         build the peer from a checkout
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = sweep ]; then
	for n in 250 500 1000 2000 4000; do
		echo "== $n bots"
		"$0" "$n" "${2:-60}"
	done
	exit 0
fi
BOTS=${1:-1000}
SECS=${2:-60}
TICKS=$((SECS * 60))
OUT=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true' EXIT
TAGS=""
[ "${BUILD:-}" = noui ] && TAGS="-tags noui"
# shellcheck disable=SC2086
go build $TAGS -o "$OUT/rockstep-server" ./cmd/rockstep
go build -tags noui -o "$OUT/rockstep" ./cmd/rockstep
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
	local TIMEFORMAT='%U %S'
	{ time "$@" >"$OUT/$name.clients.txt" 2>"$OUT/$name.clients.err" || true; } 2>"$OUT/$name.clients.time"
	c1=$(cpu_ticks "$pid")
	t1=$(date +%s.%N)
	local cpu ccpu
	cpu=$(awk -v c="$((c1 - c0))" -v hz="$HZ" -v t0="$t0" -v t1="$t1" 'BEGIN {printf "%.1f", 100 * c / hz / (t1 - t0)}')
	ccpu=$(awk -v t0="$t0" -v t1="$t1" '{printf "%.1f", 100 * ($1 + $2) / (t1 - t0)}' "$OUT/$name.clients.time")
	echo "$name: server_cpu_percent=$cpu server_peak_rss_mb=$(peak_rss_mb "$pid") clients_cpu_percent=$ccpu wall_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.0f", b - a}')"
	echo "$name clients: $(tail -1 "$OUT/$name.clients.txt")"
	if [ -s "$OUT/$name.clients.err" ]; then
		echo "$name clients' errors (first 5 lines of $OUT/$name.clients.err):"
		head -5 "$OUT/$name.clients.err"
	fi
}

"$OUT/rockstep-server" -server -listen 127.0.0.1:7790 -lan=false -record off -metrics 127.0.0.1:7791 -pprof 127.0.0.1:7793 -max-rooms $((BOTS / 4 + 16)) -max-conns $((BOTS + 64)) 2>"$OUT/server.log" &
SRV=$!
sleep 0.5
# A CPU profile of the middle of the run.
(sleep $((SECS / 4 + 2)) && curl -s -o "$OUT/server.pprof" "127.0.0.1:7793/debug/pprof/profile?seconds=$((SECS / 2))") &
measure rockstep "$SRV" "$OUT/rockstep" -bots "$BOTS" -join 127.0.0.1:7790 -per-room 4 -share -ticks "$TICKS" -seed 1
# The bots share the machine with the server: when their own process is
# starved (its goroutines wait long for a processor), lateness, stalls and
# speed measure the bots as much as the server.
SCHED=$(tr ' ' '\n' <"$OUT/rockstep.clients.txt" | sed -n 's/^sched_ms_p99=//p')
if [ -n "$SCHED" ] && [ "$SCHED" -gt 20 ]; then
	echo "rockstep clients: the bots' process was starved (its goroutines waited up to ${SCHED} ms for a processor, 99th percentile): lateness, stalls and speed above measure the bots as much as the server"
fi
METRICS=$(curl -s 127.0.0.1:7791/metrics)
echo "$METRICS" | grep -E '^rockstep_(turns_total|late_turns_total|bytes_out_total|bytes_in_total|transport_sessions) ' | tr '\n' ' '
echo
# Frames the rooms and the transport dropped, by reason (only those that happened).
{ echo "$METRICS" | grep -E '^rockstep_(transport_)?dropped_total' | grep -v ' 0$' || true; } | tr '\n' ' '
echo
# Datagrams the kernel threw away at the server's full socket (Linux): the
# server's loop fell behind, and the players met it as loss.
FULL=$(echo "$METRICS" | awk '/^rockstep_transport_dropped_total\{reason="socket_full"\}/ {print $2}')
READ=$(echo "$METRICS" | awk '/^rockstep_transport_packets_in_total / {print $2}')
if [ -n "$FULL" ] && [ "$FULL" != 0 ]; then
	echo "rockstep server: the kernel dropped $FULL datagrams at its full socket, against $READ read: its loop fell behind (on one machine with the bots: short of processor time)"
fi
wait %2 2>/dev/null || true
if [ -s "$OUT/server.pprof" ]; then
	echo "rockstep server CPU by group (from a $((SECS / 2)) s profile):"
	go tool pprof -top -nodecount=100000 "$OUT/rockstep-server" "$OUT/server.pprof" 2>/dev/null | awk '
		/^ *[0-9.]+m?s / {
			flat = $2; sub(/%/, "", flat); fn = $NF
			if (fn == "(inline)") fn = $(NF - 1) # an inlined function: its name comes before
			g = "other"
			if (fn ~ /syscall|internal\/poll|runtime\.(futex|usleep|epollwait|netpoll)/) g = "system calls"
			else if (fn ~ /runtime\.(schedule|findRunnable|park|ready|gopark|goready|mcall|checkTimers|stealWork|runqgrab|notewakeup|wakep|selectgo|chanrecv|chansend|lock|unlock|asyncPreempt)/) g = "scheduling and channels"
			else if (fn ~ /runtime\/maps|runtime\.map/) g = "map look-ups"
			else if (fn ~ /runtime\.(mallocgc|gc|scanobject|markroot|gcDrain|memclr|memmove|greyobject|bgsweep|sweep)/) g = "allocation and GC"
			else if (fn ~ /rockstep\/net\/room/) g = "room"
			else if (fn ~ /rockstep\/net\/wire/) g = "wire"
			else if (fn ~ /kcp/) g = "kcp"
			else if (fn ~ /crypto|chacha|poly1305|aes|gcm|curve/) g = "crypto"
			else if (fn ~ /rockstep\/net\/(transport|host)/) g = "transport and host"
			sum[g] += flat
		}
		END { for (g in sum) printf "  %5.1f%%  %s\n", sum[g], g }' | sort -rn
fi
# The rate the rooms ran at, for the echo: turns a second per room.
TURNS=$(echo "$METRICS" | awk '/^rockstep_turns_total / {print $2}')
ECHO_HZ=$(awk -v t="${TURNS:-0}" -v r="$(((BOTS + 3) / 4))" -v s="$SECS" 'BEGIN {h = (r > 0 && s > 0) ? t / r / s : 30; if (h < 1) h = 30; printf "%.0f", h}')
kill -TERM "$SRV"
wait "$SRV" || true

"$OUT/kcpecho" -server -listen 127.0.0.1:7792 2>"$OUT/echo.log" &
ECHO=$!
sleep 0.5
echo "kcpecho runs at $ECHO_HZ packets a second each way, as the rooms did"
measure kcpecho "$ECHO" "$OUT/kcpecho" -clients "$BOTS" -connect 127.0.0.1:7792 -duration "${SECS}s" -hz "$ECHO_HZ"
kill "$ECHO"
wait "$ECHO" 2>/dev/null || true

# The peer: byebyebruce/lockstepserver, from the module proxy at an exact
# version, or from a checkout of that commit named by PEER_SRC (the proxy
# does not serve this module today: `fetch` or `git clone` it, then
# PEER_SRC=DIR). Its go.sum has a stale sum for github.com/tjfoc/gmsm
# v1.3.0 (retagged upstream; used only by its kcp-go's SM4 cipher, which it
# does not use), so that line is dropped and the module left out of the
# checksum database. Driven by tools/peerload at 30 inputs a second, rooms
# of 4, as the bots drive Rockstep.
PEER=github.com/byebyebruce/lockstepserver
PEER_VERSION=v0.0.0-20220317053509-bb00d3922346
PEER_BIN=""
if GOBIN="$OUT" go install "$PEER/cmd/example_server@$PEER_VERSION" 2>"$OUT/peer-build.err"; then
	PEER_BIN="$OUT/example_server"
elif [ -n "${PEER_SRC:-}" ] && [ -f "$PEER_SRC/go.mod" ]; then
	cp -r "$PEER_SRC" "$OUT/peer-src"
	sed -i '/tjfoc\/gmsm/d' "$OUT/peer-src/go.sum"
	if (cd "$OUT/peer-src" && GONOSUMDB=github.com/tjfoc GOFLAGS=-mod=mod go build -o "$OUT/example_server" ./cmd/example_server) 2>>"$OUT/peer-build.err"; then
		PEER_BIN="$OUT/example_server"
	fi
fi
if [ -n "$PEER_BIN" ]; then
	go build -o "$OUT/peerload" ./tools/peerload
	"$PEER_BIN" -web 127.0.0.1:7795 -udp 127.0.0.1:7796 >"$OUT/peer.log" 2>&1 &
	PEERPID=$!
	sleep 1
	measure peer "$PEERPID" "$OUT/peerload" -web 127.0.0.1:7795 -udp 127.0.0.1:7796 -clients "$BOTS" -per-room 4 -duration "${SECS}s"
	kill "$PEERPID"
	wait "$PEERPID" 2>/dev/null || true
else
	echo "peer: $PEER@$PEER_VERSION cannot be fetched from the module proxy ($(head -1 "$OUT/peer-build.err")) and PEER_SRC names no checkout: skipped"
fi
echo "logs in $OUT"
