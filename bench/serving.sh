#!/usr/bin/env bash
# The serving benchmark (docs/benchmarks.md, "Serving"): the packaged app on one store and one model, measured with
# LangGraph's own bench client (../shared/bench/langgraphjs-server/bench.mjs, SDK only) and first-token.mjs.
#
#   ./mvnw -B -ntp package -DskipTests && bench/serving.sh
#   env: STORE=memory|postgres (memory)   MODEL=inprocess|http (inprocess: conduit.llm.provider=simulated;
#        http: the OpenAI provider over LangChain4j to the simulator endpoint on the same port)
#        HEAP (JVM -Xmx, unset: JVM default)   RETENTION (conduit.runs.stream-retention, unset: default)
#        ROUNDS (throughput phases at 64 clients after the cold one, 3)   PHASE_SECONDS (20)   PORT (18180)
#        PEER=1 also runs the same client against LangGraph's JS Agent Server (it must be running on :2025)
#        DB (the Postgres database for STORE=postgres, dropped and made anew: bench_serving)
#        AUTH_MODE=none|api-key (none; api-key: the clients send a user's key made through the admin API)
#        REPLICAS=1|2 (1; 2 needs STORE=postgres: a second server on PORT+1 on the same database, and each
#        throughput phase runs two clients at once, half the clients each, one per replica; runs/s is their sum)
# The client is LangGraph's bench harness, kept beside the repository in ../shared/bench/langgraphjs-server.
# The server it starts is stopped by its pid when the script ends, whatever happens.
set -euo pipefail
cd "$(dirname "$0")/.."
STORE=${STORE:-memory} MODEL=${MODEL:-inprocess} PORT=${PORT:-18180} ROUNDS=${ROUNDS:-3} PHASE_SECONDS=${PHASE_SECONDS:-20}
JAVA=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
CLIENT=${CLIENT_DIR:-/tmp/lgbench}
if [[ ! -d "$CLIENT/node_modules" && ! -d ../shared/bench/langgraphjs-server ]]; then
    echo "error: the bench client is not here: ../shared/bench/langgraphjs-server (or CLIENT_DIR with its node_modules)" >&2
    exit 1
fi
if [[ ! -f target/quarkus-app/quarkus-run.jar ]]; then
    echo "error: no packaged app: run ./mvnw -B -ntp package -DskipTests first" >&2
    exit 1
fi
if [[ ! -d "$CLIENT/node_modules" ]]; then
    rm -rf "$CLIENT" && cp -r ../shared/bench/langgraphjs-server "$CLIENT" && (cd "$CLIENT" && npm install --no-audit --no-fund >/dev/null)
fi
args=(-Dquarkus.http.port="$PORT" -Dconduit.simulator.script=src/test/resources/bench/serving-script.json
      -Dconduit.simulator.time-to-first-token=0s -Dconduit.simulator.inter-token-delay=0s)
if [[ "$MODEL" == inprocess ]]; then
    args+=(-Dconduit.llm.provider=simulated)
else
    args+=(-Dconduit.simulator.enabled=true -Dconduit.llm.base-url="http://localhost:$PORT/simulator/v1")
fi
# prod mode chooses no store by itself (it refuses to start): memory is chosen explicitly too
[[ "$STORE" == memory ]] && args+=(-Dconduit.checkpointer.store=memory)
if [[ "$STORE" == postgres ]]; then
    db=${DB:-bench_serving}
    psql -h 127.0.0.1 -U postgres -d postgres -qc "drop database if exists $db" -c "create database $db"
    args+=(-Dconduit.checkpointer.store=postgres -Dconduit.db.name=$db)
fi
# authentication is chosen explicitly in prod (docs/auth.md). AUTH_MODE=api-key: a bootstrap admin key makes a user's
# key once the server is up, and the clients send it (the SDK reads LANGGRAPH_API_KEY, first-token.mjs too)
args+=(-Dconduit.auth.mode="${AUTH_MODE:-none}")
if [[ "${AUTH_MODE:-none}" == api-key ]]; then
    admin_key="bench-admin-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
    args+=(-Dconduit.auth.admin-key="$admin_key")
fi
[[ -n "${HEAP:-}" ]] && args+=(-Xmx"$HEAP")
[[ -n "${RETENTION:-}" ]] && args+=(-Dconduit.runs.stream-retention="$RETENTION")
REPLICAS=${REPLICAS:-1}
if [[ "$REPLICAS" == 2 && "$STORE" != postgres ]]; then
    echo "error: REPLICAS=2 needs STORE=postgres (two replicas share one database)" >&2
    exit 1
fi
if curl -s -o /dev/null "http://127.0.0.1:$PORT/"; then
    echo "error: something already listens on port $PORT" >&2
    exit 1
fi
log=$(mktemp /tmp/conduit-serving.XXXX.log)
"$JAVA" "${args[@]}" -jar target/quarkus-app/quarkus-run.jar >"$log" 2>&1 < /dev/null &
server=$!
# only the server this script started, by its pid: never a pattern that could match someone else's process
second=
trap 'kill "$server" $second 2>/dev/null || true; wait "$server" $second 2>/dev/null || true' EXIT
if [[ "$REPLICAS" == 2 ]]; then
    PORT2=$((PORT + 1))
    log2=$(mktemp /tmp/conduit-serving.XXXX.log)
    args2=()
    for a in "${args[@]}"; do args2+=("${a//$PORT/$PORT2}"); done
    "$JAVA" "${args2[@]}" -jar target/quarkus-app/quarkus-run.jar >"$log2" 2>&1 < /dev/null &
    second=$!
    for _ in $(seq 1 120); do curl -sf -o /dev/null "http://127.0.0.1:$PORT2/" && break; sleep 0.5; done
    curl -sf -o /dev/null "http://127.0.0.1:$PORT2/" || { echo "error: the second replica did not start: $log2" >&2; exit 1; }
fi
for _ in $(seq 1 120); do curl -sf -o /dev/null "http://127.0.0.1:$PORT/" && break; sleep 0.5; done
if ! curl -sf -o /dev/null "http://127.0.0.1:$PORT/"; then
    echo "error: the server did not answer on port $PORT within 60 s; its log, $log, ends with:" >&2
    tail -20 "$log" >&2
    exit 1
fi
grep -E "LLM|Simulat|store" "$log" | head -3 || true
if [[ "${AUTH_MODE:-none}" == api-key ]]; then
    LANGGRAPH_API_KEY=$(curl -sf -X POST "http://127.0.0.1:$PORT/admin/api-keys" -H "x-api-key: $admin_key" \
        -H 'content-type: application/json' -d '{"owner":"bench","name":"bench"}' | sed -E 's/.*"key":"([^"]+)".*/\1/')
    export LANGGRAPH_API_KEY
fi
echo "== conduit replicas=$REPLICAS store=$STORE model=$MODEL auth=${AUTH_MODE:-none} heap=${HEAP:-default} at $(date -u +%H:%M:%S) load: $(cut -d' ' -f1-3 /proc/loadavg)"
clients=64
for _ in $(seq 1 "$ROUNDS"); do clients+=",64"; done
(cd "$CLIENT" && URL="http://127.0.0.1:$PORT" ASSISTANT=agent TOKENS=20 CLIENTS=1 node bench.mjs)
if [[ "$REPLICAS" == 2 ]]; then
    half=${clients//64/32}
    (cd "$CLIENT" && URL="http://127.0.0.1:$PORT" ASSISTANT=agent TOKENS=20 CLIENTS="$half" env SECONDS="$PHASE_SECONDS" PHASES=throughput WARMUP=0 node bench.mjs | sed 's/^/[replica 1] /') &
    one=$!
    (cd "$CLIENT" && URL="http://127.0.0.1:$PORT2" ASSISTANT=agent TOKENS=20 CLIENTS="$half" env SECONDS="$PHASE_SECONDS" PHASES=throughput WARMUP=0 node bench.mjs | sed 's/^/[replica 2] /')
    wait "$one"
else
    (cd "$CLIENT" && URL="http://127.0.0.1:$PORT" ASSISTANT=agent TOKENS=20 CLIENTS="$clients" env SECONDS="$PHASE_SECONDS" PHASES=throughput WARMUP=0 node bench.mjs)
fi
URL="http://127.0.0.1:$PORT" node src/test/js/bench/first-token.mjs
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
if [[ "${PEER:-0}" == 1 ]]; then
    echo "== peer (LangGraph JS Agent Server on :2025) at $(date -u +%H:%M:%S) load: $(cut -d' ' -f1-3 /proc/loadavg)"
    (cd "$CLIENT" && URL=http://127.0.0.1:2025 ASSISTANT=chat TOKENS=20 node bench.mjs)
    (cd "$CLIENT" && URL=http://127.0.0.1:2025 ASSISTANT=chat TOKENS=20 CLIENTS="$clients" env SECONDS="$PHASE_SECONDS" PHASES=throughput WARMUP=0 node bench.mjs)
fi
