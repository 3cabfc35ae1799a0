#!/usr/bin/env bash
# Starts the streaming benchmark's floor (io.conduit.bench.stream.BareRelay: plain Vert.x, the thread protocol's
# delta frames paced like the simulator, nothing behind them), detached, and prints its pid. Measure it with
#   bench/stream-load.sh -Dbench.url=http://127.0.0.1:18191 -Dbench.serverPid=PID
#   PORT=18191  INTER_TOKEN_MS=20  TOKENS=300  HEAP=-Xmx2g  BARE_OPTS=-Dbare.loops=4 (event loops; default 2 per core)
set -euo pipefail
cd "$(dirname "$0")/.."
JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
if [ ! -f target/bench-classpath.txt ] || [ ! -d target/test-classes/io/conduit/bench/stream ]; then
  ./mvnw -B -ntp -q test-compile dependency:build-classpath -Dmdep.outputFile=target/bench-classpath.txt
fi
ulimit -n "$(ulimit -Hn)"
setsid nohup "$JAVA_HOME/bin/java" ${HEAP:--Xmx2g} -Dbare.port="${PORT:-18191}" -Dbare.interTokenMillis="${INTER_TOKEN_MS:-20}" \
  -Dbare.tokens="${TOKENS:-300}" ${BARE_OPTS:-} \
  -cp "target/test-classes:target/classes:$(cat target/bench-classpath.txt)" io.conduit.bench.stream.BareRelay \
  > target/bare-relay-"${PORT:-18191}".log 2>&1 < /dev/null &
echo $!
