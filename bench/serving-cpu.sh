#!/usr/bin/env bash
# The server's CPU per run, one client (docs/benchmarks.md, "Faults"): runs/s swings with a shared machine's speed,
# CPU per run much less. Starts the packaged app of the given checkout (default: this one) on the in-process
# simulated model, warms it with two 10 s phases of LangGraph's bench client, then measures two more: the server's
# utime+stime (from /proc/<pid>/stat) over each phase divided by its runs. Compare builds by alternating them.
#
#   ./mvnw -B -ntp package -DskipTests && bench/serving-cpu.sh [checkout]      env: PORT (18181)
# The bench client is set up as bench/serving.sh sets it up (in /tmp/lgbench); the server is stopped by its pid.
set -euo pipefail
cd "$(dirname "$0")/.."
here=$PWD
dir=${1:-$here} PORT=${PORT:-18181}
JAVA=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
CLIENT=${CLIENT_DIR:-/tmp/lgbench}
if [[ ! -d "$CLIENT/node_modules" ]]; then
    rm -rf "$CLIENT" && cp -r ../shared/bench/langgraphjs-server "$CLIENT" && (cd "$CLIENT" && npm install --no-audit --no-fund >/dev/null)
fi
[[ -f "$dir/target/quarkus-app/quarkus-run.jar" ]] || { echo "error: no packaged app in $dir" >&2; exit 1; }
log=$(mktemp)
(cd "$dir" && exec "$JAVA" -Dquarkus.http.port="$PORT" -Dconduit.llm.provider=simulated -Dconduit.auth.mode=none \
    -Dconduit.simulator.script="$here/src/test/resources/bench/serving-script.json" \
    -Dconduit.simulator.time-to-first-token=0s -Dconduit.simulator.inter-token-delay=0s \
    -jar target/quarkus-app/quarkus-run.jar >"$log" 2>&1) &
pid=$!
trap 'kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true' EXIT
for _ in $(seq 60); do curl -sf "localhost:$PORT/q/health/ready" >/dev/null && break; sleep 1; done
curl -sf "localhost:$PORT/q/health/ready" >/dev/null || { echo "error: the server did not get ready; its log: $log" >&2; exit 1; }
server=$(pgrep -P "$pid" java || echo "$pid")
cpu() { awk '{print $14 + $15}' "/proc/$server/stat"; }
ticks=$(getconf CLK_TCK)
phase() { (cd "$CLIENT" && URL="http://127.0.0.1:$PORT" ASSISTANT=agent TOKENS=20 CLIENTS=1 node bench.mjs 2>&1) \
    | sed -n 's/.*throughput clients=1: \([0-9]*\) runs in.*/\1/p'; }
phase >/dev/null; phase >/dev/null
for _ in 1 2; do
    c0=$(cpu); runs=$(phase); c1=$(cpu)
    awk -v r="$runs" -v t="$(( c1 - c0 ))" -v hz="$ticks" -v d="$dir" \
        'BEGIN { printf "%s: %d runs, server CPU %.0f ms, %.3f ms a run\n", d, r, t * 1000 / hz, t * 1000 / hz / r }'
done
