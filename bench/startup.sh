#!/usr/bin/env bash
# Start-up of the packaged app, four ways, on the Postgres checkpoint store and the simulated model (in-process):
#   jar       target/quarkus-app (fast-jar), plain java -jar
#   jar+aot   the same with a JDK 25 AOT cache trained on one run (-XX:AOTCacheOutput)
#   flat+aot  target/image-app (every jar on the JVM's class path, the image's layout) with its AOT cache
#   image     the JVM image's unpacked root (target/image/bundle/rootfs) in a read-only chroot, its own entrypoint
# For each: ms from spawn to /q/health/ready answering 200, ms to the end of the first run (a thread, then the
# default assistant's "Please plan my week" over runs/wait), RSS after ready and after that run; the median of RUNS.
# Then a profile: Quarkus' own "started in", and how many classes each loads and from where (-Xlog:class+load).
#
#   ./mvnw -B -ntp package -DskipTests && deploy/build-image.sh && umoci unpack --image target/image/oci:conduit target/image/bundle
#   RUNS=5 PORT=18251 CONDUIT_DB_NAME=test bench/startup.sh
#   VARIANTS= bench/startup.sh             # the profile only (VARIANTS="flat+aot image": those two timed)
#
# Needs root for the image's chroot; kills only the processes it starts.
set -euo pipefail
cd "$(dirname "$0")/.."
java_home=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
runs=${RUNS:-5}
port=${PORT:-18251}
db=${CONDUIT_DB_NAME:-test}
out=target/bench-startup
mkdir -p "$out"
app_env=(CONDUIT_LLM_PROVIDER=simulated CONDUIT_AUTH_MODE=none CONDUIT_CHECKPOINTER_STORE=postgres CONDUIT_DB_NAME="$db"
         CONDUIT_DB_HOST="${CONDUIT_DB_HOST:-127.0.0.1}" QUARKUS_HTTP_PORT="$port" QUARKUS_HTTP_HOST=127.0.0.1)
now() { date +%s%N; }

# start VARIANT LOG: spawns the variant in the background as one process (env and chroot-run.sh exec into java),
# sets $pid to it
start() {
    local cmd
    case $1 in
        jar)      cmd=(env "${app_env[@]}" "$java_home/bin/java" -jar target/quarkus-app/quarkus-run.jar) ;;
        jar+aot)  cmd=(env "${app_env[@]}" "$java_home/bin/java" -XX:AOTCache="$out/fast.aot" -jar target/quarkus-app/quarkus-run.jar) ;;
        flat+aot) cmd=(env "${app_env[@]}" "$java_home/bin/java" -XX:AOTCache="$out/flat.aot" -jar target/image-app/conduit.jar) ;;
        image)    local args ienv
                  mapfile -t args < <(python3 -c 'import json,sys; print("\n".join(json.load(open(sys.argv[1]))["process"]["args"]))' target/image/bundle/config.json)
                  mapfile -t ienv < <(python3 -c 'import json,sys; print("\n".join(json.load(open(sys.argv[1]))["process"]["env"]))' target/image/bundle/config.json)
                  cmd=(env -i "${ienv[@]}" "${app_env[@]}" QUARKUS_HTTP_HOST=0.0.0.0
                       deploy/ci/chroot-run.sh --read-only target/image/bundle/rootfs /deployments 185:0 "${args[@]}") ;;
        *) echo "unknown variant $1" >&2; exit 2 ;;
    esac
    "${cmd[@]}" > "$2" 2>&1 &
    pid=$!
}
rss_mb() { awk '/VmRSS/ {printf "%d", $2 / 1024}' "/proc/$1/status"; }
first_run() {
    local t
    t=$(curl -sf -X POST "http://127.0.0.1:$port/threads" -H 'content-type: application/json' -d '{}' | sed -n 's/.*"thread_id":"\([^"]*\)".*/\1/p')
    curl -sf -o /dev/null "http://127.0.0.1:$port/threads/$t/runs/wait" -H 'content-type: application/json' \
        -d '{"assistant_id":"agent","input":{"messages":[{"role":"user","content":"Please plan my week"}]}}'
}
stop() { kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; }

# the two host-JVM caches, trained on one run each (written when the JVM exits)
train() { # TRAIN_FLAG JAR
    env "${app_env[@]}" "$java_home/bin/java" "$1" -jar "$2" > "$out/train.log" 2>&1 &
    pid=$!
    until curl -sf -o /dev/null "http://127.0.0.1:$port/q/health/ready"; do sleep 0.05; done
    first_run
    stop
}
[[ -s $out/fast.aot ]] || train -XX:AOTCacheOutput="$out/fast.aot" target/quarkus-app/quarkus-run.jar
[[ -s $out/flat.aot ]] || train -XX:AOTCacheOutput="$out/flat.aot" target/image-app/conduit.jar

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "machine: $(nproc) vCPU, $(awk '/MemTotal/ {printf "%d GiB", $2/1048576}' /proc/meminfo), load $(cut -d' ' -f1-3 /proc/loadavg); $("$java_home/bin/java" -version 2>&1 | sed -n 2p)"
printf '%-9s %9s %12s %9s %13s %14s\n' variant ready_ms first_run_ms rss_mb rss_run_mb quarkus_started
for v in ${VARIANTS-jar jar+aot flat+aot image}; do
    : > "$out/$v.tsv"
    for i in $(seq 1 "$runs"); do
        log="$out/$v-$i.log"
        t0=$(now)
        start "$v" "$log"
        until curl -sf -o /dev/null "http://127.0.0.1:$port/q/health/ready"; do
            kill -0 "$pid" 2>/dev/null || { tail -20 "$log" >&2; exit 1; }
            sleep 0.01
        done
        t1=$(now); rss=$(rss_mb "$pid")
        first_run
        t2=$(now); rss2=$(rss_mb "$pid")
        stop
        started=$(sed -n 's/.* started in \([0-9.]*\)s.*/\1/p' "$log")
        echo -e "$(( (t1 - t0) / 1000000 ))\t$(( (t2 - t0) / 1000000 ))\t$rss\t$rss2\t$started" >> "$out/$v.tsv"
    done
    printf '%-9s %9s %12s %9s %13s %14s\n' "$v" "$(cut -f1 "$out/$v.tsv" | median)" "$(cut -f2 "$out/$v.tsv" | median)" \
        "$(cut -f3 "$out/$v.tsv" | median)" "$(cut -f4 "$out/$v.tsv" | median)" "$(cut -f5 "$out/$v.tsv" | median)s"
done

# milestones VARIANT T0 LOG: ms after spawn of the JVM's creation (-Xlog:startuptime) and of the log's landmarks
milestones() {
    local base_s=$(( $2 / 1000000000 )) create
    create=$(sed -n 's/.*Create VM, \([0-9.]*\) secs/\1/p' "$out/$1.startuptime" | awk '{printf "%d", $1 * 1000}')
    printf '  %-9s JVM created %4s ms' "$1" "$create"
    for mark in "FlywayExecutor" "SchemaMigration" "CheckpointerProducer" "LanguageModelProducer" "WorkerBeans" "started in"; do
        local ts
        # the time of day, first or second field as the log format has it (HH:MM:SS,mmm)
        ts=$(grep -m1 "$mark" "$3" | awk '{for (i = 1; i <= 2; i++) if ($i ~ /^[0-9][0-9]:[0-9][0-9]:[0-9][0-9],[0-9]+$/) { print $i; exit }}' | tr , . || true)
        [[ -n $ts ]] || continue
        local ms=$(( ($(date -d "$(date -d @"$base_s" +%F) $ts" +%s%N 2>/dev/null || echo "$2") - $2) / 1000000 ))
        printf ', %s %d' "${mark%% *}" "$ms"
    done
    echo " (ms after spawn)"
}

# profile: classes loaded before ready, by where they came from
echo "classes loaded up to ready (-Xlog:class+load), by source:"
for v in jar jar+aot flat+aot; do
    case $v in jar) f=() ; j=target/quarkus-app/quarkus-run.jar ;; jar+aot) f=(-XX:AOTCache="$out/fast.aot"); j=target/quarkus-app/quarkus-run.jar ;;
               flat+aot) f=(-XX:AOTCache="$out/flat.aot"); j=target/image-app/conduit.jar ;; esac
    t0=$(now)
    env "${app_env[@]}" "$java_home/bin/java" "${f[@]}" -Xlog:class+load=info:file="$out/$v.classload" \
        -Xlog:startuptime=info:file="$out/$v.startuptime" -jar "$j" > "$out/$v-profile.log" 2>&1 &
    pid=$!
    until curl -sf -o /dev/null "http://127.0.0.1:$port/q/health/ready"; do sleep 0.02; done
    stop
    milestones "$v" "$t0" "$out/$v-profile.log"
    total=$(grep -c 'source:' "$out/$v.classload" || true)
    shared=$(grep -c 'source: shared objects file' "$out/$v.classload" || true)
    jrt=$(grep -c 'source: jrt:/' "$out/$v.classload" || true)
    printf '  %-9s %6d classes: %6d from the AOT cache, %5d from the runtime image, %6d from jars or generated\n' \
        "$v" "$total" "$shared" "$jrt" $((total - shared - jrt))
done
