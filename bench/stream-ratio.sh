#!/usr/bin/env bash
# Issue 18's streaming targets in one command: a fresh Conduit server (bench/stream-server.sh) and then a fresh bare
# relay (bench/bare-relay.sh), each through the same three WebSocket phases of the load client (1,000 streams, 5,000,
# 1,000 again; each warmed until the server's JIT is settled), then the ratios of Conduit to the relay:
# server CPU per relayed token (target <= 1.3x) and tokens/s at 5,000 streams (target >= 0.9x).
# Takes 12-20 minutes; run nothing else meanwhile. Stops only the servers it started, by pid.
#   OUT=target/stream-ratio (the load client's full tables and the summary go there)
set -euo pipefail
cd "$(dirname "$0")/.."
JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
export JAVA_HOME
OUT=${OUT:-target/stream-ratio}
mkdir -p "$OUT"

phases() { # $1 server pid, $2 name, then extra load options
  local pid=$1 name=$2; shift 2
  bench/stream-load.sh -Dbench.transport=ws -Dbench.clients=1000 -Dbench.warmup=20 -Dbench.settle=400 -Dbench.seconds=40 -Dbench.serverPid="$pid" "$@" > "$OUT/$name-1.txt" 2>&1
  bench/stream-load.sh -Dbench.transport=ws -Dbench.clients=5000 -Dbench.warmup=30 -Dbench.settle=300 -Dbench.seconds=60 -Dbench.serverPid="$pid" "$@" > "$OUT/$name-2.txt" 2>&1
  bench/stream-load.sh -Dbench.transport=ws -Dbench.clients=1000 -Dbench.warmup=20 -Dbench.settle=300 -Dbench.seconds=40 -Dbench.serverPid="$pid" "$@" > "$OUT/$name-3.txt" 2>&1
}

stop() { # the server this script started, and wait for it to go
  kill "$1" 2>/dev/null || true
  while kill -0 "$1" 2>/dev/null; do sleep 0.5; done
}

ready() { # $1 port: any HTTP answer will do
  for _ in $(seq 1 240); do
    curl -s -o /dev/null "http://127.0.0.1:$1/" && return 0
    sleep 0.25
  done
  echo "nothing answers on port $1" >&2
  return 1
}

# column 4 of a phase's row is tokens/s, column 12 the server's CPU ms per 1,000 tokens (StreamLoad's table)
figure() { awk -F'|' -v c="$2" '/^\| [0-9]/ { gsub(/[ ,]/, "", $(c + 1)); print $(c + 1) }' "$1"; }

pid=$(HEAP=-Xmx4g bench/stream-server.sh)
trap 'stop "$pid"' EXIT
ready 18190
phases "$pid" conduit
stop "$pid"

pid=$(bench/bare-relay.sh)
ready 18191
phases "$pid" relay -Dbench.url=http://127.0.0.1:18191
stop "$pid"
trap - EXIT

{
  echo "commit $(git rev-parse --short HEAD), $(date -u +%FT%H:%MZ), $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores"
  printf '%-16s %12s %12s %12s %14s\n' phase "conduit CPU" "relay CPU" "CPU ratio" "tokens/s ratio"
  for i in 1 2 3; do
    label=$([ "$i" = 2 ] && echo "5,000 streams" || echo "1,000 streams")
    c=$(figure "$OUT/conduit-$i.txt" 12) r=$(figure "$OUT/relay-$i.txt" 12)
    ct=$(figure "$OUT/conduit-$i.txt" 4) rt=$(figure "$OUT/relay-$i.txt" 4)
    awk -v l="$label" -v c="$c" -v r="$r" -v ct="$ct" -v rt="$rt" \
      'BEGIN { printf "%-16s %12.1f %12.1f %11.2fx %13.2fx\n", l, c, r, c / r, ct / rt }'
  done
  echo "targets: CPU ratio <= 1.3x at 1,000 and 5,000 streams; tokens/s ratio >= 0.9x at 5,000 streams"
} | tee "$OUT/summary.txt"
