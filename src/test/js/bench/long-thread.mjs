// One long thread through the service: TURNS turns in a row on one thread, each a `runs/wait` (plain fetch, no
// SDK), timed from sending the request to the end of the answer. Prints the per-turn p50, p99 and maximum, and the
// slowest turns with the wall-clock time they started (UTC), to set beside the server's log, its GC log and the
// database's activity. Each turn's run is read back afterwards: its own created_at/updated_at say how much of a slow
// turn the run itself took, and how much was before it started or after it ended.
//
// With SERVER_PID (a server on this machine), the server's CPU time per turn early and late too (from /proc): unlike
// wall time, it hardly moves with what else the machine runs.
//
//   node src/test/js/bench/long-thread.mjs     env: URL (http://127.0.0.1:18180), ASSISTANT (agent), TURNS (200),
//                                              PROMPTS ("Please plan my week|hello": used in turn, split on |),
//                                              SERVER_PID
const URL_ = process.env.URL ?? "http://127.0.0.1:18180";
const ASSISTANT = process.env.ASSISTANT ?? "agent";
const TURNS = Number.parseInt(process.env.TURNS ?? "200", 10);
const PROMPTS = (process.env.PROMPTS ?? "Please plan my week|hello").split("|");
const json = { "content-type": "application/json" };
const SERVER_PID = process.env.SERVER_PID;
const { readFileSync } = await import("node:fs");
// utime + stime of the server, in ms (clock ticks of 10 ms)
const cpu = () => {
  if (!SERVER_PID) return NaN;
  const fields = readFileSync(`/proc/${SERVER_PID}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
const cpuAt = {};

const thread = await (await fetch(`${URL_}/threads`, { method: "POST", headers: json, body: "{}" })).json();
const turns = [];
for (let t = 0; t < TURNS; t++) {
  if (t === 10 || t === 30 || t === TURNS - 20) cpuAt[t] = cpu();
  const body = JSON.stringify({ assistant_id: ASSISTANT, input: { messages: [{ role: "user", content: PROMPTS[t % PROMPTS.length] }] },
    config: { configurable: { user_id: "long-thread" } } });
  const at = new Date();
  const t0 = performance.now();
  const res = await fetch(`${URL_}/threads/${thread.thread_id}/runs/wait`, { method: "POST", headers: json, body });
  const text = await res.text();
  const ms = performance.now() - t0;
  if (!res.ok) throw new Error(`turn ${t}: HTTP ${res.status} ${text}`);
  const values = JSON.parse(text);
  if (values.__error__) throw new Error(`turn ${t}: ${JSON.stringify(values.__error__)}`);
  turns.push({ t, ms, at });
}

cpuAt[TURNS] = cpu();
// each run's own record, newest first
const runs = await (await fetch(`${URL_}/threads/${thread.thread_id}/runs?limit=${TURNS}`)).json();
runs.reverse();
const sorted = turns.map((x) => x.ms).sort((a, b) => a - b);
const pct = (p) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
const f = (x) => x.toFixed(1);
console.log(`long thread ${thread.thread_id}, ${TURNS} turns on ${URL_} (assistant ${ASSISTANT}): per turn p50 ${f(pct(50))} ms, `
  + `p99 ${f(pct(99))} ms, max ${f(sorted[sorted.length - 1])} ms`);
const mean = (from, to) => turns.slice(from, to).reduce((a, x) => a + x.ms, 0) / Math.max(1, turns.slice(from, to).length);
console.log(`  mean per turn at turns 10-30: ${f(mean(10, 30))} ms; at the last 20 turns: ${f(mean(TURNS - 20, TURNS))} ms`);
const early = (cpuAt[30] - cpuAt[10]) / 20;
const late = (cpuAt[TURNS] - cpuAt[TURNS - 20]) / 20;
if (SERVER_PID) console.log(`  server CPU per turn at turns 10-30: ${f(early)} ms; at the last 20 turns: ${f(late)} ms`);
for (const x of [...turns].sort((a, b) => b.ms - a.ms).slice(0, 5)) {
  const run = runs[x.t];
  const inRun = run ? Date.parse(run.updated_at) - Date.parse(run.created_at) : NaN;
  console.log(`  turn ${x.t}: ${f(x.ms)} ms, started ${x.at.toISOString()}; its run from created to updated: ${inRun} ms `
    + `(${run?.status}, ${run?.run_id})`);
}
console.log(JSON.stringify({ turns: TURNS, p50: pct(50), p99: pct(99), max: sorted[sorted.length - 1], early: mean(10, 30),
  late: mean(TURNS - 20, TURNS), cpuEarly: early, cpuLate: late }));
