#!/usr/bin/env bash
# The soak of issue 22: two replicas of the packaged app on one fresh PostgreSQL database, mixed load on the
# simulated model for MINUTES (default 30), a sample of both servers and the database every minute, then the table
# (also in target/soak.txt) and the clients' counts of lost and repeated tokens. The client is
# io.conduit.bench.soak.Soak (a main under src/test, not a test).
# Usage: bench/soak.sh [MINUTES] [-Dsoak.conversations=100] [-Dsoak.otherShare=0.8] [-Dsoak.secondTurnShare=0.3]
#        [-Dsoak.deleteShare=0.5] [-Dsoak.sampleSeconds=60]
# Environment: PORT_A, PORT_B (18461, 18462), MAX_CONCURRENT (runs per replica, 100), TOKEN_DELAY (20ms),
#              SERVER_HEAP (-Xmx1536m), SERVER_OPTS (more -D settings of both replicas), CONDUIT_DB_HOST/PORT/USERNAME,
#              KEEP_DB=1 keeps the database afterwards, VACUUM_MINUTES (5: stands in for autovacuum when it is off).
# Builds on first use (./mvnw process-test-classes dependency:build-classpath; online, so that a fresh machine
# fetches the dependency plugin), as bench/stream-load.sh does.
set -euo pipefail
cd "$(dirname "$0")/.."
JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
export JAVA_HOME
MINUTES=30
if [ $# -gt 0 ] && [[ $1 != -* ]]; then MINUTES=$1; shift; fi
PORT_A=${PORT_A:-18461}
PORT_B=${PORT_B:-18462}
DB_HOST=${CONDUIT_DB_HOST:-127.0.0.1}
DB_PORT=${CONDUIT_DB_PORT:-5432}
DB_USER=${CONDUIT_DB_USERNAME:-postgres}
DB=test_soak_$(date -u +%Y%m%d%H%M%S)

if [ ! -f target/bench-classpath.txt ] || [ ! -f target/quarkus-app/quarkus-run.jar ] \
    || [ ! -f target/test-classes/io/conduit/bench/soak/Soak.class ]; then
  ./mvnw -B -ntp -q process-test-classes dependency:build-classpath -Dmdep.outputFile=target/bench-classpath.txt
fi

psql -h "$DB_HOST" -p "$DB_PORT" -U "$DB_USER" -qc "CREATE DATABASE $DB"
PIDS=()
stop_servers() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  PIDS=()
  if [ "${KEEP_DB:-0}" != 1 ] && [ -n "$DB" ]; then
    psql -h "$DB_HOST" -p "$DB_PORT" -U "$DB_USER" -qc "DROP DATABASE IF EXISTS $DB" || true
    DB=
  fi
}
trap stop_servers EXIT

start_server() { # port name
  # shellcheck disable=SC2086
  "$JAVA_HOME/bin/java" ${SERVER_HEAP:--Xmx1536m} ${SERVER_OPTS:-} \
    -Dquarkus.http.port="$1" -Dquarkus.http.host=127.0.0.1 \
    -Dconduit.checkpointer.store=postgres -Dconduit.db.name="$DB" \
    -Dconduit.db.host="$DB_HOST" -Dconduit.db.port="$DB_PORT" -Dconduit.db.username="$DB_USER" \
    -Dconduit.auth.mode=none -Dconduit.llm.provider=simulated \
    -Dconduit.simulator.time-to-first-token=100ms -Dconduit.simulator.inter-token-delay="${TOKEN_DELAY:-20ms}" \
    -Dconduit.runs.max-concurrent="${MAX_CONCURRENT:-100}" \
    -jar target/quarkus-app/quarkus-run.jar >"target/soak-$2.log" 2>&1 &
  PIDS+=($!)
}
start_server "$PORT_A" a
start_server "$PORT_B" b
for port in "$PORT_A" "$PORT_B"; do
  for _ in $(seq 1 120); do
    curl -sf "http://127.0.0.1:$port/q/health/ready" >/dev/null && break
    sleep 1
  done
  curl -sf "http://127.0.0.1:$port/q/health/ready" >/dev/null || { echo "replica on $port not ready; see target/soak-*.log"; exit 1; }
done
echo "replicas: a pid ${PIDS[0]} on $PORT_A, b pid ${PIDS[1]} on $PORT_B, database $DB; $MINUTES minutes; load: $(uptime)"

# This machine's PostgreSQL runs with autovacuum off; a production one does not. Without it the run and frame tables
# keep every dead row and the soak would measure that, not Conduit: so stand in for it with a VACUUM (ANALYZE) of the
# soak's database every VACUUM_MINUTES (5; 0: never), and say so.
if [ "$(psql -h "$DB_HOST" -p "$DB_PORT" -U "$DB_USER" -Atc 'show autovacuum')" = off ] && [ "${VACUUM_MINUTES:-5}" != 0 ]; then
  echo "autovacuum is off on this server: VACUUM (ANALYZE) of $DB every ${VACUUM_MINUTES:-5} minutes stands in for it"
  ( n=0; while sleep 10; do # short sleeps: stopping the loop leaves no long sleep behind
      n=$((n + 10)); [ $n -lt $(( ${VACUUM_MINUTES:-5} * 60 )) ] && continue; n=0
      psql -h "$DB_HOST" -p "$DB_PORT" -U "$DB_USER" -d "$DB" -qc "VACUUM (ANALYZE)" && echo "vacuumed at $(date -u +%H:%M:%S)"
    done ) &
  PIDS+=($!)
fi
ulimit -n "$(ulimit -Hn)"
status=0
"$JAVA_HOME/bin/java" ${CLIENT_HEAP:--Xmx512m} "$@" -Dsoak.minutes="$MINUTES" \
  -Dsoak.urls="http://127.0.0.1:$PORT_A,http://127.0.0.1:$PORT_B" -Dsoak.pids="${PIDS[0]},${PIDS[1]}" \
  -Dsoak.jdbc="jdbc:postgresql://$DB_HOST:$DB_PORT/$DB" -Dsoak.dbUser="$DB_USER" \
  -cp "target/test-classes:target/classes:$(cat target/bench-classpath.txt)" io.conduit.bench.soak.Soak || status=$?
echo "load at the end: $(uptime)"
stop_servers
echo "servers stopped; the table is in target/soak.txt"
exit $status
