#!/usr/bin/env bash
# Starts the packaged app for the streaming benchmark (docs/benchmarks.md, "Streaming"), detached, and prints its pid.
# The model is the simulator pacing at INTER_TOKEN (20 ms: ~50 tokens/s per stream) with a 300-word scripted answer
# (SCRIPT=src/test/resources/bench/stream-script-short.json: 30 words, for many short runs).
#   MODEL=simulated (default when the in-process provider exists) or MODEL=http (the /simulator/v1 endpoint over HTTP)
#   STAMP=true (each token is its emit time in epoch µs: conduit.simulator.stamp-tokens)
#   MAX_RUNS=20000 (conduit.runs.max-concurrent: the default 256 would cap the streams, not the relay)
#   PORT=18190  INTER_TOKEN=20ms  HEAP=-Xmx2g  JFR=1 (records a flight recording to target/stream-PORT.jfr)
#   STORE=memory (default) or STORE=postgres DB=bench_stream (conduit.db.name: two servers on one DB are two replicas;
#     FRESH_DB=1 drops and creates it first, so start the first replica with it and the second without)
#   EXTRA="-D..." more system properties, e.g. EXTRA=-Dconduit.runs.poll-interval=1h for a replica that claims only the
#     runs submitted to it (a benchmark's "other" replica: the runs then execute where they are created)
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=${PORT:-18190}
MODEL=${MODEL:-simulated}
INTER_TOKEN=${INTER_TOKEN:-20ms}
JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
ulimit -n "$(ulimit -Hn)"
opts=(-Dquarkus.http.port="$PORT" -Dconduit.simulator.script=${SCRIPT:-src/test/resources/bench/stream-script.json}
      -Dconduit.simulator.time-to-first-token=0s -Dconduit.simulator.inter-token-delay="$INTER_TOKEN"
      -Dconduit.simulator.stamp-tokens=${STAMP:-true} -Dconduit.runs.max-concurrent=${MAX_RUNS:-20000} -Dconduit.limits.max-active-runs=${MAX_RUNS:-20000})
if [ "${STORE:-memory}" = postgres ]; then
  DB=${DB:-bench_stream}
  if [ "${FRESH_DB:-0}" = 1 ]; then
    psql -h 127.0.0.1 -U postgres -d postgres -qc "drop database if exists $DB" -c "create database $DB"
  fi
  opts+=(-Dconduit.checkpointer.store=postgres -Dconduit.db.name="$DB")
else
  opts+=(-Dconduit.checkpointer.store=memory)
fi
if [ "$MODEL" = http ]; then
  opts+=(-Dconduit.simulator.enabled=true -Dconduit.llm.base-url=http://localhost:"$PORT"/simulator/v1)
else
  opts+=(-Dconduit.llm.provider=simulated ${SIM_OPTS:-})
fi
opts+=(-Dconduit.auth.mode=none ${EXTRA:-}) # prod refuses to start until a mode is chosen (docs/auth.md)
[ "${JFR:-0}" = 1 ] && opts+=(-XX:StartFlightRecording=filename=target/stream-"$PORT".jfr,settings=profile,dumponexit=true)
setsid nohup "$JAVA_HOME/bin/java" ${HEAP:--Xmx2g} "${opts[@]}" -jar target/quarkus-app/quarkus-run.jar \
  > target/stream-server-"$PORT".log 2>&1 < /dev/null &
echo $!
