#!/usr/bin/env bash
# PostgreSQL restarted mid-run, for real (issue 22's fault suite; docs/reliability.md, "PostgreSQL restarted mid-run").
# PostgresOutageTest cuts a TCP proxy in front of one replica; this script restarts the server itself, under two
# replicas, twice: a fast shutdown (pg_ctl stop -m fast: backends told and closed) and a crash (-m immediate: no
# checkpoint, crash recovery at start, Conduit's UNLOGGED tables conduit_event_frames and conduit_event_watches emptied
# and their ids restarted).
#
# It makes a throwaway PostgreSQL 15 cluster of its own (initdb into a temp dir as the postgres OS user, trust auth,
# 127.0.0.1:PG_PORT), never the machine's shared server, and starts two replicas of the packaged app on it
# (target/quarkus-app: build it first with ./mvnw package -DskipTests). For each mode: a run is created on replica A
# and followed by a classic SSE join on A (the owner's client) and on B (the follower); Postgres is stopped mid-answer,
# kept down DOWN_SECONDS, started again; then it checks and prints what the issue asks:
#   - both clients' streams ended (with end or error), none hung (every wait is bounded by WAIT seconds);
#   - the run's final status, and its error text when it failed: one clear line, no stack trace;
#   - readiness (/q/health/ready) of both replicas: down during the outage, and seconds until ready again after start;
#   - the thread takes a new run afterwards (runs/wait on B) and it succeeds;
#   - nothing half-written: the state reads on both replicas, its messages are whole (every AI message the script's
#     full answer, ids unique), no run left pending/running, the thread idle, no step checkpointed twice;
#   - tokens: the simulator stamps each token with its emit time (unique), so the follower's stamps are compared with
#     the owner's client's: lost (the owner's client had it, the follower not) and repeated (twice in one stream).
# Prints a table (also in $OUT/summary.txt) and exits 1 if any check failed, 2 if it could not run.
#
# Usage: bench/pg-restart.sh
# Environment: PG_PORT (5439), PORT_A, PORT_B (18651, 18652), MODES ("fast immediate"), DOWN_SECONDS (4: longer
#   than the 3 s lease), INTER_TOKEN (20ms: the answer's 300 tokens take ~6 s per model call), WAIT (90),
#   TOKENS_BEFORE (20: tokens the follower has seen before Postgres is stopped), LEASE (3s: conduit.runs.lease),
#   OUT (target/pg-restart),
#   SERVER_OPTS (more -D settings of both replicas).
set -uo pipefail # not -e: a failed check is counted and reported, not a reason to stop half-way
cd "$(dirname "$0")/.."
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
PG_PORT=${PG_PORT:-5439}
PORT_A=${PORT_A:-18651}
PORT_B=${PORT_B:-18652}
MODES=${MODES:-fast immediate}
DOWN_SECONDS=${DOWN_SECONDS:-4}
INTER_TOKEN=${INTER_TOKEN:-20ms}
WAIT=${WAIT:-90}
TOKENS_BEFORE=${TOKENS_BEFORE:-20}
LEASE=${LEASE:-3s}
OUT=${OUT:-target/pg-restart}
SCRIPT=src/test/resources/bench/stream-script.json # one 300-word answer for every model call
A=http://127.0.0.1:$PORT_A
B=http://127.0.0.1:$PORT_B
STREAM_MODES=$(printf '%s' '["messages-tuple","values"]' | jq -sRr @uri)

if [ ! -f target/quarkus-app/quarkus-run.jar ]; then
  echo "target/quarkus-app is missing: run ./mvnw package -DskipTests first" >&2; exit 2
fi
[ -x "$PG_BIN/initdb" ] || { echo "no PostgreSQL 15 at $PG_BIN" >&2; exit 2; }
if "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT"; then
  echo "something already listens on 127.0.0.1:$PG_PORT: this script makes its own cluster there" >&2; exit 2
fi
for port in "$PORT_A" "$PORT_B"; do
  if curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$port/"; then echo "port $port is in use" >&2; exit 2; fi
done
rm -rf "$OUT"; mkdir -p "$OUT"
WORDS=$(jq -r .default "$SCRIPT" | wc -w) # tokens in a whole answer

# --- cleanup: every process this script started, by pid, and the throwaway cluster -------------------------------
PIDS=()
PGDIR=
stop_pid() { # pid: TERM, up to 20 s for the drain, then KILL
  local pid=$1 i
  kill "$pid" 2>/dev/null || return 0
  for i in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
}
cleanup() {
  local pid
  for pid in "${PIDS[@]}"; do stop_pid "$pid"; done
  if [ -n "$PGDIR" ]; then
    [ -f "$PGDIR/data/postmaster.pid" ] && pg_ctl stop -m immediate >/dev/null 2>&1
    cp "$PGDIR/server.log" "$OUT/postgres.log" 2>/dev/null
    rm -rf "$PGDIR"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

now() { echo "$EPOCHREALTIME"; }
since() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; } # seconds from $1 to $2
# as the postgres OS user, from a directory it may read
pg_ctl() { (cd "$PGDIR" && runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$PGDIR/data" "$@"); }
psql_q() { psql -h 127.0.0.1 -p "$PG_PORT" -U postgres -d conduit -XAtqc "$1"; }
# a JSON request, bounded; prints the body, and the status on the last line
call() { # method url [body]
  curl -s --max-time "${CALL_TIMEOUT:-10}" -X "$1" -H 'content-type: application/json' ${3:+--data "$3"} \
    -w '\n%{http_code}' "$2"
}
body_of() { sed '$d'; }
code_of() { tail -n1; }

# --- a PostgreSQL cluster of its own ------------------------------------------------------------------------------
PGDIR=$(mktemp -d /tmp/pg-restart.XXXXXX)
chown postgres: "$PGDIR"
(cd "$PGDIR" && runuser -u postgres -- "$PG_BIN/initdb" -D "$PGDIR/data" -U postgres --auth=trust -E UTF8) >"$OUT/initdb.log" 2>&1 \
  || { cat "$OUT/initdb.log"; exit 2; }
cat >>"$PGDIR/data/postgresql.conf" <<EOF
port = $PG_PORT
listen_addresses = '127.0.0.1'
unix_socket_directories = '$PGDIR'
EOF
pg_ctl -l "$PGDIR/server.log" -w -t 60 start >/dev/null || { cat "$PGDIR/server.log"; exit 2; }
psql -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres -Xqc "CREATE DATABASE conduit" || exit 2
echo "PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PG_PORT, data in $PGDIR"

# --- two replicas of the packaged app on it -----------------------------------------------------------------------
start_replica() { # port name
  # shellcheck disable=SC2086
  "$JAVA_HOME/bin/java" -Xmx512m ${SERVER_OPTS:-} \
    -Dquarkus.http.port="$1" -Dquarkus.http.host=127.0.0.1 \
    -Dconduit.checkpointer.store=postgres -Dconduit.db.host=127.0.0.1 -Dconduit.db.port="$PG_PORT" \
    -Dconduit.db.name=conduit -Dconduit.db.username=postgres \
    -Dconduit.auth.mode=none -Dconduit.llm.provider=simulated -Dconduit.simulator.script="$SCRIPT" \
    -Dconduit.simulator.time-to-first-token=100ms -Dconduit.simulator.inter-token-delay="$INTER_TOKEN" \
    -Dconduit.simulator.stamp-tokens=true \
    -Dconduit.runs.lease="$LEASE" -Dconduit.runs.poll-interval=500ms \
    -jar target/quarkus-app/quarkus-run.jar >"$OUT/$2.log" 2>&1 </dev/null &
  PIDS+=($!)
}
start_replica "$PORT_A" a
start_replica "$PORT_B" b
for url in "$A" "$B"; do
  for _ in $(seq 1 120); do
    curl -sf --max-time 2 -o /dev/null "$url/q/health/ready" && break
    sleep 1
  done
  curl -sf --max-time 2 -o /dev/null "$url/q/health/ready" || { echo "replica $url not ready; see $OUT/*.log" >&2; exit 2; }
done
# one run on each replica first: a cold JVM's first run links its code on the event loop, which on a loaded machine
# can stall the loop (and the lease's heartbeat on it) for seconds, long enough for a 3 s lease to lapse
for url in "$A" "$B"; do
  curl -s -o /dev/null --max-time "$WAIT" -X POST -H 'content-type: application/json' "$url/runs/wait" \
    --data '{"assistant_id":"agent","input":{"messages":[{"role":"user","content":"warm up"}]}}' &
  PIDS+=($!)
done
wait "${PIDS[@]:2}"
echo "replicas: a pid ${PIDS[0]} on $A, b pid ${PIDS[1]} on $B; lease $LEASE, $INTER_TOKEN between tokens, $WORDS tokens an answer"

# --- reading the clients' streams ---------------------------------------------------------------------------------
# An SSE file as one line per event: name TAB id TAB data (JSON data has no raw tabs).
sse_events() {
  awk 'function emit() { if (name != "" || data != "") print name "\t" id "\t" data; name = ""; id = ""; data = "" }
       /^\r?$/   { emit(); next }
       /^event:/ { sub(/^event: ?/, ""); name = $0; next }
       /^id:/    { sub(/^id: ?/, ""); id = $0; next }
       /^data:/  { sub(/^data: ?/, ""); data = (data == "" ? $0 : data "\\n" $0); next }
       END       { emit() }' "$1"
}
# The stamps (one per token) of the AI message chunks a stream carried, in order.
stamps() {
  sse_events "$1" | awk -F'\t' '$1 == "messages" { print $3 }' \
    | jq -r '.[0] | select(.type == "AIMessageChunk") | .content | if type == "string" then . else map(.text? // "") | join("") end' \
    | tr -s ' \n' '\n' | grep -E '^[0-9]+$'
}
# Frames whose id is not above the one before on the same stream: a frame repeated or out of order.
repeated_ids() { sse_events "$1" | awk -F'\t' '$2 != "" { if (seen && $2 + 0 <= last + 0) r++; last = $2; seen = 1 } END { print r + 0 }'; }
last_event() { sse_events "$1" | awk -F'\t' 'END { print $1 }'; }
error_data() { sse_events "$1" | awk -F'\t' '$1 == "error" { print $3 }' | tail -n1; }

# How a client's stream ended: end / error (the run's end as the client was told), closed (no end), hung (timed out).
client_outcome() { # file curl-exit-code
  if [ "$2" = 28 ]; then echo hung; return; fi
  case "$(last_event "$1")" in
    end) echo end ;;
    error) echo error ;;
    *) echo "closed($2)" ;;
  esac
}

# An error message is clear when it is one line of text: no stack trace, no exception class names.
clear_error() {
  [ -n "$1" ] && [ "$(printf '%s' "$1" | wc -l)" -eq 0 ] \
    && ! printf '%s' "$1" | grep -qE 'Exception|Error:|	at |\.java:[0-9]|io\.vertx\.|io\.conduit\.|java\.'
}

wait_pid() { # pid seconds: 0 when it ended in time, and its exit code in $WAITED_RC
  local deadline=$((SECONDS + $2))
  while kill -0 "$1" 2>/dev/null && [ $SECONDS -lt $deadline ]; do sleep 0.2; done
  if kill -0 "$1" 2>/dev/null; then WAITED_RC=28; return 1; fi
  wait "$1"; WAITED_RC=$?
}

# Readiness of both replicas, sampled every 200 ms: "time codeA codeB".
poll_readiness() {
  trap - EXIT INT TERM # the cleanup is the script's, not this loop's
  while :; do
    local a b
    a=$(curl -s -o /dev/null --max-time 2 -w '%{http_code}' "$A/q/health/ready")
    b=$(curl -s -o /dev/null --max-time 2 -w '%{http_code}' "$B/q/health/ready")
    echo "$EPOCHREALTIME $a $b"
    sleep 0.2
  done
}
# Seconds from $2 (Postgres accepting again) to the first ready sample of column $3 (2: a, 3: b); "never" if none.
ready_after() { awk -v up="$2" -v c="$3" '$1 > up && $c == 200 { printf "%.1f", $1 - up; found = 1; exit } END { if (!found) print "never" }' "$1"; }
# Whether column $4 was not ready at some sample between $2 and $3 (the outage).
down_during() { awk -v from="$2" -v to="$3" -v c="$4" '$1 > from && $1 < to && $c != 200 { d = 1 } END { print d ? "yes" : "no" }' "$1"; }
# Whether column $3 went unready again after its first ready sample past $2.
flapped() { awk -v up="$2" -v c="$3" '$1 > up && $c == 200 { r = 1 } r && $c != 200 { f = 1 } END { print f ? "yes" : "no" }' "$1"; }

FAILED=0
ROWS=()
fail() { # mode what
  echo "  FAIL: $2"
  FAILS+=("$2")
}

one_mode() { # fast | immediate
  local mode=$1 dir="$OUT/$1"
  mkdir -p "$dir"
  FAILS=()
  echo "== $mode restart"
  local log_a log_b # where this mode's lines of the replicas' logs start
  log_a=$(($(wc -l <"$OUT/a.log") + 1))
  log_b=$(($(wc -l <"$OUT/b.log") + 1))
  local tid rid r
  tid=$(call POST "$A/threads" '{}' | body_of | jq -r .thread_id)
  r=$(call POST "$A/threads/$tid/runs" "$(jq -nc --argjson m '["messages-tuple","values"]' \
        '{assistant_id: "agent", stream_mode: $m, input: {messages: [{role: "user", content: "Tell me about the river"}]}}')")
  rid=$(printf '%s\n' "$r" | body_of | jq -r .run_id)
  if [ -z "$rid" ] || [ "$rid" = null ]; then fail "$mode" "the run was not created: $r"; return; fi
  echo "  thread $tid, run $rid (created on a)"

  # the owner's client on A and the follower on B: classic SSE joins, bounded
  curl -sN --max-time $((WAIT + 60)) -H 'accept: text/event-stream' "$A/threads/$tid/runs/$rid/stream?stream_mode=$STREAM_MODES" >"$dir/a.sse" &
  local client_a=$!
  curl -sN --max-time $((WAIT + 60)) -H 'accept: text/event-stream' "$B/threads/$tid/runs/$rid/stream?stream_mode=$STREAM_MODES" >"$dir/b.sse" &
  local client_b=$!
  PIDS+=("$client_a" "$client_b")

  # the run's record as the database has it, every 200 ms (who holds it, when it was last renewed): for the reader
  (trap - EXIT INT TERM
   while :; do
     psql -h 127.0.0.1 -p "$PG_PORT" -U postgres -d conduit -XAtqc \
       "SELECT clock_timestamp()::time, status, worker_id, updated_at::time FROM conduit_runs WHERE run_id = '$rid'" 2>/dev/null
     sleep 0.2
   done) >"$dir/run-record.log" &
  PIDS+=($!)

  # mid-answer: the follower has seen tokens
  local deadline=$((SECONDS + WAIT))
  while [ "$(stamps "$dir/b.sse" | wc -l)" -lt "$TOKENS_BEFORE" ] && [ $SECONDS -lt $deadline ]; do sleep 0.2; done
  local before_a before_b
  before_a=$(stamps "$dir/a.sse" | wc -l)
  before_b=$(stamps "$dir/b.sse" | wc -l)
  [ "$before_b" -ge "$TOKENS_BEFORE" ] || fail "$mode" "the follower saw only $before_b tokens before the restart"

  poll_readiness >"$dir/ready.log" &
  local poller=$!
  PIDS+=("$poller")
  sleep 0.5 # a ready sample before the outage

  local t_stop t_down t_start t_up
  t_stop=$(now)
  pg_ctl -m "$mode" -w -t 60 stop >/dev/null || fail "$mode" "pg_ctl stop -m $mode failed"
  t_down=$(now)
  # while it is down, a request that needs the database: told to come back (503 store_unavailable), not hung
  local during
  during=$(CALL_TIMEOUT=15 call GET "$B/threads/$tid")
  local during_code during_error
  during_code=$(printf '%s\n' "$during" | code_of)
  during_error=$(printf '%s\n' "$during" | body_of | jq -r '.code // .error // empty' 2>/dev/null)
  sleep "$DOWN_SECONDS"
  t_start=$(now)
  pg_ctl -l "$PGDIR/server.log" -w -t 60 start >/dev/null || fail "$mode" "pg_ctl start failed"
  t_up=$(now)
  echo "  postgres stopped in $(since "$t_stop" "$t_down") s, down $(since "$t_down" "$t_start") s, started in $(since "$t_start" "$t_up") s;" \
       "meanwhile GET /threads/{t} on b: $during_code $during_error (tokens before: a $before_a, b $before_b)"

  # the clients' streams end: with the run, or with an error; a stream still open after WAIT hung
  local rc_a rc_b
  wait_pid "$client_a" "$WAIT"; rc_a=$WAITED_RC
  wait_pid "$client_b" "$WAIT"; rc_b=$WAITED_RC
  kill "$client_a" "$client_b" 2>/dev/null
  local out_a out_b
  out_a=$(client_outcome "$dir/a.sse" "$rc_a")
  out_b=$(client_outcome "$dir/b.sse" "$rc_b")
  [[ $out_a == hung ]] && fail "$mode" "the owner's client hung"
  [[ $out_b == hung ]] && fail "$mode" "the follower's client hung"
  [[ $out_a == closed* ]] && fail "$mode" "the owner's client's stream closed without end or error"
  [[ $out_b == closed* ]] && fail "$mode" "the follower's client's stream closed without end or error"

  # the run's end is recorded: not left pending or running
  local status=""
  deadline=$((SECONDS + WAIT))
  while [ $SECONDS -lt $deadline ]; do
    status=$(call GET "$A/threads/$tid/runs/$rid" | body_of | jq -r '.status // empty' 2>/dev/null)
    case "$status" in success | error | interrupted | timeout) break ;; esac
    sleep 0.5
  done
  case "$status" in success | error | interrupted | timeout) ;; *) fail "$mode" "the run is still '$status' after ${WAIT}s" ;; esac
  local err="" err_a err_b
  err_a=$(error_data "$dir/a.sse")
  err_b=$(error_data "$dir/b.sse")
  if [ "$status" != success ]; then
    err=$(printf '%s' "${err_a:-$err_b}" | jq -r '"\(.error): \(.message)"' 2>/dev/null)
    clear_error "$(printf '%s' "${err_a:-$err_b}" | jq -r .message 2>/dev/null)" || fail "$mode" "the run's error is not one clear line: ${err_a:-$err_b}"
  fi
  [ -n "$err_b" ] && [ "$err_b" != "$err_a" ] && fail "$mode" "the follower was told another error than the owner's client: $err_b"

  # readiness: down during the outage, ready again after
  deadline=$((SECONDS + WAIT))
  while [ $SECONDS -lt $deadline ]; do
    [ "$(tail -n1 "$dir/ready.log" | awk '{print $2 $3}')" = 200200 ] && break
    sleep 0.5
  done
  sleep 1 # a few samples more, to see a replica that flaps
  stop_pid "$poller"
  local ready_a ready_b down_a down_b
  ready_a=$(ready_after "$dir/ready.log" "$t_up" 2)
  ready_b=$(ready_after "$dir/ready.log" "$t_up" 3)
  down_a=$(down_during "$dir/ready.log" "$t_stop" "$t_up" 2)
  down_b=$(down_during "$dir/ready.log" "$t_stop" "$t_up" 3)
  [ "$ready_a" = never ] && fail "$mode" "replica a not ready within ${WAIT}s of the restart"
  [ "$ready_b" = never ] && fail "$mode" "replica b not ready within ${WAIT}s of the restart"
  [ "$down_a" = yes ] || fail "$mode" "replica a said it was ready while Postgres was down"
  [ "$down_b" = yes ] || fail "$mode" "replica b said it was ready while Postgres was down"
  [ "$(flapped "$dir/ready.log" "$t_up" 2)$(flapped "$dir/ready.log" "$t_up" 3)" = nono ] || fail "$mode" "readiness went down again after it recovered"

  # tokens: the follower against the owner's client; repeats within each stream
  stamps "$dir/a.sse" >"$dir/a.stamps"
  stamps "$dir/b.sse" >"$dir/b.stamps"
  local tok_a tok_b lost extra rep_a rep_b
  tok_a=$(wc -l <"$dir/a.stamps")
  tok_b=$(wc -l <"$dir/b.stamps")
  lost=$(comm -23 <(sort -u "$dir/a.stamps") <(sort -u "$dir/b.stamps") | wc -l)
  extra=$(comm -13 <(sort -u "$dir/a.stamps") <(sort -u "$dir/b.stamps") | wc -l)
  rep_a=$(( tok_a - $(sort -u "$dir/a.stamps" | wc -l) + $(repeated_ids "$dir/a.sse") ))
  rep_b=$(( tok_b - $(sort -u "$dir/b.stamps" | wc -l) + $(repeated_ids "$dir/b.sse") ))
  [ "$rep_a" -eq 0 ] || fail "$mode" "the owner's client got $rep_a repeated tokens/frames"
  [ "$rep_b" -eq 0 ] || fail "$mode" "the follower got $rep_b repeated tokens/frames"
  [ "$lost" -eq 0 ] || fail "$mode" "the follower lost $lost of the owner's client's $tok_a tokens"
  [ "$extra" -eq 0 ] || fail "$mode" "the follower got $extra tokens the owner's client did not"

  # the thread takes a new run, on b, and it succeeds
  local next next_code next_status
  next=$(CALL_TIMEOUT=$WAIT call POST "$B/threads/$tid/runs/wait" \
    '{"assistant_id":"agent","input":{"messages":[{"role":"user","content":"And after the restart?"}]}}')
  next_code=$(printf '%s\n' "$next" | code_of)
  next_status=$(call GET "$B/threads/$tid/runs?limit=1" | body_of | jq -r '.[0].status // empty' 2>/dev/null)
  if [ "$next_code" != 200 ] || printf '%s' "$next" | grep -q __error__ || [ "$next_status" != success ]; then
    fail "$mode" "the new run did not succeed: $next_code $next_status $(printf '%s\n' "$next" | body_of | head -c 300)"
  fi

  # nothing half-written: the state reads on both replicas and is the same; its messages are whole
  local state_ok=yes s_a s_b
  s_a=$(call GET "$A/threads/$tid/state")
  s_b=$(call GET "$B/threads/$tid/state")
  if [ "$(printf '%s\n' "$s_a" | code_of)" != 200 ] || [ "$(printf '%s\n' "$s_b" | code_of)" != 200 ]; then
    state_ok=no; fail "$mode" "GET /threads/{t}/state failed: $(printf '%s\n' "$s_a" | code_of) on a, $(printf '%s\n' "$s_b" | code_of) on b"
  else
    printf '%s\n' "$s_a" | body_of >"$dir/state.json"
    [ "$(printf '%s\n' "$s_a" | body_of | jq -S .values)" = "$(printf '%s\n' "$s_b" | body_of | jq -S .values)" ] \
      || { state_ok=no; fail "$mode" "the two replicas read different states"; }
    local dup_ids partial humans ais
    dup_ids=$(jq '[.values.messages[].id] | length - (unique | length)' "$dir/state.json")
    # an AI message with text is whole when it is the script's full answer: WORDS stamps
    partial=$(jq --argjson n "$WORDS" '[.values.messages[] | select(.type == "ai")
                | (.content | if type == "string" then . else map(.text? // "") | join("") end)
                | select(. != "") | select((split(" ") | map(select(. != "")) | length) != $n)] | length' "$dir/state.json")
    humans=$(jq '[.values.messages[] | select(.type == "human")] | length' "$dir/state.json")
    ais=$(jq '[.values.messages[] | select(.type == "ai")] | length' "$dir/state.json")
    [ "$dup_ids" -eq 0 ] || { state_ok=no; fail "$mode" "$dup_ids messages with the same id in the state"; }
    [ "$partial" -eq 0 ] || { state_ok=no; fail "$mode" "$partial AI messages in the state are not whole"; }
    [ "$humans" -eq 2 ] || { state_ok=no; fail "$mode" "the state has $humans human messages, not 2"; }
    echo "  state: $humans human and $ais AI messages"
    # a run that succeeded: its answer in the state is what the owner's client was streamed
    if [ "$status" = success ]; then
      jq -r '[.values.messages[] | select(.type == "ai")][0].content | if type == "string" then . else map(.text? // "") | join("") end' \
        "$dir/state.json" | tr -s ' ' '\n' | grep -E '^[0-9]+$' >"$dir/state.stamps"
      cmp -s "$dir/state.stamps" <(tail -n "$(wc -l <"$dir/state.stamps")" "$dir/a.stamps") \
        || { state_ok=no; fail "$mode" "the first answer in the state is not what the owner's client was streamed"; }
    fi
  fi
  # no run left pending or running, the thread idle
  local unsettled thread_status
  unsettled=$(call GET "$A/threads/$tid/runs?limit=100" | body_of | jq '[.[] | select(.status == "pending" or .status == "running")] | length')
  thread_status=$(call GET "$A/threads/$tid" | body_of | jq -r .status)
  [ "$unsettled" = 0 ] || { state_ok=no; fail "$mode" "$unsettled runs of the thread are still pending or running"; }
  [ "$thread_status" = idle ] || { state_ok=no; fail "$mode" "the thread is '$thread_status', not idle"; }
  # no step checkpointed twice: one checkpoint per (run, step), one child per parent, the head exists
  local dup_ckpt
  dup_ckpt=$(psql_q "
    WITH c AS (SELECT c.* FROM conduit_checkpoints c JOIN conduit_threads t USING (thread_key) WHERE t.thread_id = '$tid')
    SELECT (SELECT count(*) FROM (SELECT 1 FROM c WHERE run_id IS NOT NULL GROUP BY run_id, step HAVING count(*) > 1) d)
         + (SELECT count(*) FROM (SELECT 1 FROM c WHERE parent_id IS NOT NULL GROUP BY parent_id HAVING count(*) > 1) d)
         + (SELECT count(*) FROM conduit_threads t WHERE t.thread_id = '$tid'
              AND NOT EXISTS (SELECT 1 FROM conduit_checkpoints k WHERE k.thread_key = t.thread_key AND k.checkpoint_id = t.head_id))")
  [ "$dup_ckpt" = 0 ] || { state_ok=no; fail "$mode" "checkpoints: $dup_ckpt steps written twice or a head missing"; }

  # the replicas' log lines of this mode, and how many stack-trace lines they hold (a clear log has none)
  tail -n +"$log_a" "$OUT/a.log" >"$dir/a.log"
  tail -n +"$log_b" "$OUT/b.log" >"$dir/b.log"
  local traces executed_on
  traces=$(cat "$dir/a.log" "$dir/b.log" | grep -cE '^\s+at [a-z]')
  echo "  log lines: a $(wc -l <"$dir/a.log"), b $(wc -l <"$dir/b.log"), stack-trace lines $traces (in $dir/*.log)"
  executed_on=$(grep -l "$rid" "$dir/a.log" "$dir/b.log" 2>/dev/null | xargs -r -n1 basename | sed 's/\.log//' | paste -sd+)
  local verdict=PASS
  [ ${#FAILS[@]} -eq 0 ] || { verdict=FAIL; FAILED=1; }
  ROWS+=("$(printf '%s|%s|%s|%s|%s|%s/%s|%s/%s|%s|%s|%s|%s|%s|%s/%s|%s|%s' \
    "$mode" "$out_a" "$out_b" "$status" "${err:--}" "$down_a" "$down_b" "$ready_a" "$ready_b" \
    "$( [ "$next_status" = success ] && echo success || echo "${next_status:-failed}")" "$state_ok" \
    "$tok_a" "$tok_b" "$lost" "$rep_a" "$rep_b" "${executed_on:--}" "$verdict")")
  echo "  $verdict (${#FAILS[@]} failed checks)"
}

for mode in $MODES; do
  one_mode "$mode"
done

{
  echo
  echo "PostgreSQL restarted mid-run: 2 replicas, down ${DOWN_SECONDS}s, lease $LEASE, $INTER_TOKEN/token, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "| mode | owner's client | follower | run | run's error | not ready during (a/b) | ready after start, s (a/b) | new run | state whole | tokens owner | tokens follower | lost | repeated (a/b) | in logs of | verdict |"
  echo "|---|---|---|---|---|---|---|---|---|---:|---:|---:|---|---|---|"
  for row in "${ROWS[@]}"; do echo "| ${row//|/ | } |"; done
} | tee "$OUT/summary.txt"
exit $FAILED
