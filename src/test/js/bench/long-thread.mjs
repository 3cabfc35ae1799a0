// One long thread through the service: TURNS turns in a row on one thread, each a `runs/wait` (plain fetch, no
// SDK), timed from sending the request to the end of the answer. Prints the per-turn p50, p99 and maximum, and the
// slowest turns with the wall-clock time they started (UTC), to set beside the server's log, its GC log and the
// database's activity. Each turn's run is read back afterwards: its own created_at/updated_at say how much of a slow
// turn the run itself took, and how much was before it started or after it ended.
//
//   node src/test/js/bench/long-thread.mjs     env: URL (http://127.0.0.1:18180), ASSISTANT (agent), TURNS (200),
//                                              PROMPTS ("Please plan my week|hello": used in turn, split on |)
const URL_ = process.env.URL ?? "http://127.0.0.1:18180";
const ASSISTANT = process.env.ASSISTANT ?? "agent";
const TURNS = Number.parseInt(process.env.TURNS ?? "200", 10);
const PROMPTS = (process.env.PROMPTS ?? "Please plan my week|hello").split("|");
const json = { "content-type": "application/json" };

const thread = await (await fetch(`${URL_}/threads`, { method: "POST", headers: json, body: "{}" })).json();
const turns = [];
for (let t = 0; t < TURNS; t++) {
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
for (const x of [...turns].sort((a, b) => b.ms - a.ms).slice(0, 5)) {
  const run = runs[x.t];
  const inRun = run ? Date.parse(run.updated_at) - Date.parse(run.created_at) : NaN;
  console.log(`  turn ${x.t}: ${f(x.ms)} ms, started ${x.at.toISOString()}; its run from created to updated: ${inRun} ms `
    + `(${run?.status}, ${run?.run_id})`);
}
console.log(JSON.stringify({ turns: TURNS, p50: pct(50), p99: pct(99), max: sorted[sorted.length - 1], early: mean(10, 30),
  late: mean(TURNS - 20, TURNS) }));
