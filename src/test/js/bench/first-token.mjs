// The time the server adds before the first token, through the Agent Server API, with plain fetch (no SDK).
// RUNS sequential runs, each on a fresh thread: POST /threads, then POST /threads/{id}/runs/stream
// (stream_mode messages-tuple) read to the end. Per run:
//   raw    = from sending the run request to the first `messages` event (client parsing included);
//   model  = the model call's own time to first token, read afterwards from the thread's state
//            (values.llm_calls[0].timeToFirstTokenMillis: from the model call's start to its first output,
//            i.e. the HTTP call to the simulator and the simulator itself), whole milliseconds rounded down;
//   added  = raw - model: what the server adds (accepting the run, starting it, the graph's steps before the
//            model call, events to SSE). Rounding `model` down makes `added` up to 1 ms too large, never too small.
//   client = this client's own round trip for the cheapest request there is (GET / as JSON, its body read),
//            measured just before each run: what `raw` holds of fetch, the socket and parsing whatever the server
//            does. `added - client` (per run) is the server's own share, on the same cores as this client.
// For a server without llm_calls (the JS peer), only `raw` is printed.
//
//   node src/test/js/bench/first-token.mjs        env: URL (http://127.0.0.1:18180), ASSISTANT (agent),
//                                                  RUNS (200), WARMUP (50), PROMPT ("hello")
const URL_ = process.env.URL ?? "http://127.0.0.1:18180";
const ASSISTANT = process.env.ASSISTANT ?? "agent";
const RUNS = Number.parseInt(process.env.RUNS ?? "200", 10);
const WARMUP = Number.parseInt(process.env.WARMUP ?? "50", 10);
const PROMPT = process.env.PROMPT ?? "hello";
// with the server's API keys on (bench/serving.sh AUTH_MODE=api-key), the key the LangGraph SDK would send
const KEY = process.env.LANGGRAPH_API_KEY;
const json = KEY ? { "content-type": "application/json", "x-api-key": KEY } : { "content-type": "application/json" };

async function oneRun() {
  const thread = await (await fetch(`${URL_}/threads`, { method: "POST", headers: json, body: "{}" })).json();
  const body = JSON.stringify({ assistant_id: ASSISTANT, input: { messages: [{ type: "human", content: PROMPT }] },
    stream_mode: ["messages-tuple"] });
  const c0 = performance.now();
  await (await fetch(`${URL_}/`, { headers: { ...json, accept: "application/json" } })).text();
  const client = performance.now() - c0;
  const t0 = performance.now();
  const res = await fetch(`${URL_}/threads/${thread.thread_id}/runs/stream`, { method: "POST", headers: json, body });
  if (!res.ok) throw new Error(`run: HTTP ${res.status} ${await res.text()}`);
  const decoder = new TextDecoder();
  let buf = "";
  let first;
  let tokens = 0;
  for await (const chunk of res.body) {
    buf += decoder.decode(chunk, { stream: true });
    let i;
    while ((i = buf.indexOf("\n\n")) >= 0) {
      const frame = buf.slice(0, i);
      buf = buf.slice(i + 2);
      const ev = /^event: (.*)$/m.exec(frame)?.[1];
      if (ev === "messages" || ev?.startsWith("messages/")) {
        first ??= performance.now();
        tokens += 1;
      } else if (ev === "error") throw new Error(`error event: ${frame}`);
    }
  }
  if (first === undefined) throw new Error("no messages event");
  const state = await (await fetch(`${URL_}/threads/${thread.thread_id}/state`)).json();
  const calls = state?.values?.llm_calls;
  const model = Array.isArray(calls) && calls.length > 0 ? calls[0].timeToFirstTokenMillis : undefined;
  return { raw: first - t0, model, tokens, client };
}

const pct = (a, p) => a[Math.min(a.length - 1, Math.floor((p / 100) * a.length))];
const line = (name, a) => {
  a.sort((x, y) => x - y);
  return `${name} p50 ${pct(a, 50).toFixed(2)} ms, p99 ${pct(a, 99).toFixed(2)} ms, min ${a[0].toFixed(2)}, max ${a[a.length - 1].toFixed(2)}`;
};

for (let i = 0; i < WARMUP; i++) await oneRun();
const raw = [];
const model = [];
const added = [];
const client = [];
const serverOnly = [];
let tokens;
for (let i = 0; i < RUNS; i++) {
  const r = await oneRun();
  raw.push(r.raw);
  client.push(r.client);
  tokens = r.tokens;
  if (r.model !== undefined) {
    model.push(r.model);
    added.push(r.raw - r.model);
    serverOnly.push(r.raw - r.model - r.client);
  }
}
console.log(`first token, ${RUNS} sequential runs on fresh threads, ${URL_} assistant=${ASSISTANT}, ${tokens} messages events per run, ${new Date().toISOString()}`);
console.log(`  ${line("raw (run request to first messages event):", raw)}`);
if (model.length === RUNS) {
  console.log(`  ${line("model's own time to first token (llm_calls, whole ms):", model)}`);
  console.log(`  ${line("added by the server (raw - model, per run):", added)}`);
}
console.log(`  ${line("this client's round trip for GET / (before each run):", client)}`);
if (model.length === RUNS) {
  console.log(`  ${line("the server's own share (raw - model - client round trip, per run):", serverOnly)}`);
}
