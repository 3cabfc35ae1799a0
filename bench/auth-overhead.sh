#!/usr/bin/env bash
# What API-key authentication costs (issue 19's target: runs/s and first token within 5 % of auth off): two servers
# side by side, the packaged app with conduit.auth.mode=none on PORT and =api-key on PORT+1 (its clients send a
# user's key, made through the admin API), both warmed alike, then measured in alternation, ROUNDS times each, so
# that the machine's drift falls on both: LangGraph's bench client at 64 clients for PHASE_SECONDS (runs/s), and
# first-token.mjs (200 sequential runs, p50 and p99 from run request to first token). Prints each round and the
# medians. In-memory store, the simulated model in-process, as bench/serving.sh.
#
#   ./mvnw -B -ntp package -DskipTests && ROUNDS=5 bench/auth-overhead.sh
#   env: ROUNDS (5)   PHASE_SECONDS (15)   PORT (18180, and PORT+1)   CLIENT_DIR (/tmp/lgbench: the bench client)
# Stops only the two servers it started, by their pids.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-5} PHASE_SECONDS=${PHASE_SECONDS:-15} PORT=${PORT:-18180}
JAVA=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
CLIENT=${CLIENT_DIR:-/tmp/lgbench}
if [[ ! -d "$CLIENT/node_modules" ]]; then
    rm -rf "$CLIENT" && cp -r ../shared/bench/langgraphjs-server "$CLIENT" && (cd "$CLIENT" && npm install --no-audit --no-fund >/dev/null)
fi
admin_key="bench-admin-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done' EXIT
start() { # MODE PORT
    "$JAVA" -Dquarkus.http.port="$2" -Dconduit.llm.provider=simulated -Dconduit.checkpointer.store=memory \
        -Dconduit.simulator.script=src/test/resources/bench/serving-script.json \
        -Dconduit.simulator.time-to-first-token=0s -Dconduit.simulator.inter-token-delay=0s \
        -Dconduit.auth.mode="$1" -Dconduit.auth.admin-key="$admin_key" \
        -jar target/quarkus-app/quarkus-run.jar > "/tmp/auth-overhead-$1.log" 2>&1 < /dev/null &
    pids+=($!)
}
start none "$PORT"
start api-key "$((PORT + 1))"
for p in "$PORT" "$((PORT + 1))"; do
    for _ in $(seq 1 240); do curl -sf -o /dev/null "http://127.0.0.1:$p/q/health/ready" && break; sleep 0.25; done
done
user_key=$(curl -sf -X POST "http://127.0.0.1:$((PORT + 1))/admin/api-keys" -H "x-api-key: $admin_key" \
    -H 'content-type: application/json' -d '{"owner":"bench","name":"bench"}' | sed -E 's/.*"key":"([^"]+)".*/\1/')
key() { [[ $1 == api-key ]] && echo "$user_key" || echo ""; }
url() { [[ $1 == api-key ]] && echo "http://127.0.0.1:$((PORT + 1))" || echo "http://127.0.0.1:$PORT"; }
throughput() { # MODE SECONDS -> runs/s
    (cd "$CLIENT" && URL="$(url "$1")" LANGGRAPH_API_KEY="$(key "$1")" ASSISTANT=agent TOKENS=20 CLIENTS=64 SECONDS="$2" \
        PHASES=throughput WARMUP=0 node bench.mjs) | sed -n 's/.*= \([0-9.]*\) runs\/s.*/\1/p'
}
first_token() { # MODE -> "p50 p99"
    URL="$(url "$1")" LANGGRAPH_API_KEY="$(key "$1")" node src/test/js/bench/first-token.mjs \
        | sed -n 's/.*raw (run request to first messages event): p50 \([0-9.]*\) ms, p99 \([0-9.]*\) ms.*/\1 \2/p'
}
echo "machine: $(nproc) vCPU, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%H:%M:%S) UTC; warming both (2 x 15 s each)"
for m in none api-key none api-key; do throughput "$m" 15 > /dev/null; done
declare -A rps p50 p99
for r in $(seq 1 "$ROUNDS"); do
    for m in none api-key; do
        t=$(throughput "$m" "$PHASE_SECONDS"); read -r a b < <(first_token "$m")
        rps[$m]+="$t "; p50[$m]+="$a "; p99[$m]+="$b "
        echo "round $r $m: $t runs/s, first token p50 $a ms p99 $b ms (load $(cut -d' ' -f1 /proc/loadavg))"
    done
done
median() { tr ' ' '\n' | sed '/^$/d' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for m in none api-key; do
    echo "median $m: $(echo "${rps[$m]}" | median) runs/s, first token p50 $(echo "${p50[$m]}" | median) ms, p99 $(echo "${p99[$m]}" | median) ms"
done
