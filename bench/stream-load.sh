#!/usr/bin/env bash
# The streaming load client (io.conduit.bench.stream.StreamLoad), a separate JVM from the server.
# Usage: bench/stream-load.sh [-Dbench.transport=ws|sse|thread-sse|idle] [-Dbench.clients=100,1000,5000]
#        [-Dbench.seconds=20] [-Dbench.warmup=10] [-Dbench.settle=600] [-Dbench.slow=0.1] [-Dbench.serverPid=PID] [-Dbench.url=...]
#        [-Dbench.deleteThreads=false] (keep each finished conversation's thread: by default it is deleted)
#        (bench.settle: warm on, up to that many seconds, until the server's JIT compiler threads are near idle; needs bench.serverPid)
# Builds the test classes and the class path on first use (./mvnw test-compile dependency:build-classpath; online,
# so that a fresh machine fetches the dependency plugin).
set -euo pipefail
cd "$(dirname "$0")/.."
JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
export JAVA_HOME
if [ ! -f target/bench-classpath.txt ] || [ ! -d target/test-classes/io/conduit/bench/stream ]; then
  ./mvnw -B -ntp -q test-compile dependency:build-classpath -Dmdep.outputFile=target/bench-classpath.txt
fi
ulimit -n "$(ulimit -Hn)"
exec "$JAVA_HOME/bin/java" ${CLIENT_HEAP:--Xmx1g} -XX:+UseParallelGC "$@" \
  -cp "target/test-classes:target/classes:$(cat target/bench-classpath.txt)" io.conduit.bench.stream.StreamLoad
