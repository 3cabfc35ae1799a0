// The thread protocol judged by the LangGraph SDK's own ThreadStream (@langchain/langgraph-sdk 1.15.0,
// client.threads.stream) over WebSocket or SSE. Usage: node thread-protocol-sdk.mjs <baseUrl> <websocket|sse> <scenario>
// scenarios: turn | interrupt | reconnect | two. Prints one JSON summary line; any failed check exits 1 with "FAILED ...".
import { Client } from "@langchain/langgraph-sdk";
import WebSocket from "ws";

const [base, transport, scenario] = process.argv.slice(2);
let checks = 0;
function check(ok, what) {
  checks++;
  if (!ok) {
    console.error("FAILED [" + scenario + "/" + transport + "] " + what);
    process.exit(1);
  }
}

const sockets = [];
// SSE: every event stream's response, so a test can cut them (as a dropped connection would)
const eventStreams = [];
async function cuttableFetch(url, init) {
  const res = await fetch(url, init);
  if (!String(url).includes("/stream/events") || res.body == null) return res;
  const reader = res.body.getReader();
  let controller;
  const body = new ReadableStream({
    start(c) { controller = c; },
    async pull(c) {
      try {
        const { done, value } = await reader.read();
        if (done) c.close(); else c.enqueue(value);
      } catch (e) { try { c.error(e); } catch {} }
    },
    cancel(reason) { return reader.cancel(reason); },
  });
  eventStreams.push({ cut() { try { controller.error(new TypeError("terminated")); } catch {} reader.cancel().catch(() => {}); } });
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}
const client = new Client({ apiUrl: base });
function open(threadId, opts = {}) {
  return client.threads.stream(threadId, {
    assistantId: "agent", transport,
    webSocketFactory: (url) => { const s = new WebSocket(url); sockets.push(s); return s; },
    fetch: cuttableFetch,
    reconnectDelayMs: () => 100, ...opts,
  });
}
/** Kills the thread's live connections mid-stream; returns how many connections there were. */
function killConnections() {
  if (transport === "websocket") { sockets[sockets.length - 1].terminate(); return sockets.length; }
  eventStreams.forEach((s) => s.cut());
  return eventStreams.length;
}
const connections = () => transport === "websocket" ? sockets.length : eventStreams.length;
const say = (text) => ({ messages: [{ role: "user", content: text }] });
const isRootTerminal = (e) => e.method === "lifecycle" && e.params.namespace.length === 0
  && ["completed", "interrupted", "failed"].includes(e.params.data.event);

/** Records every globally-unique event of a ThreadStream and resolves waits on conditions over them. */
function recorder(thread) {
  const events = [];
  const waiters = [];
  thread.onEvent((e) => {
    events.push(e);
    for (const w of [...waiters]) if (w.test(events, e)) { waiters.splice(waiters.indexOf(w), 1); w.resolve(); }
  });
  return {
    events,
    until(test) { return test(events, null) ? Promise.resolve() : new Promise((resolve) => waiters.push({ test, resolve })); },
    terminals() { return events.filter(isRootTerminal); },
  };
}

async function state(threadId) {
  const r = await fetch(base + "/threads/" + threadId + "/state");
  return r.json();
}
function lastAi(values) {
  const ai = (values.messages || []).filter((m) => m.type === "ai");
  return ai[ai.length - 1];
}
const textOf = (m) => typeof m.content === "string" ? m.content : (m.content || []).map((b) => b.text || "").join("");

/** The text the message with id `id` streamed, from its text deltas, and how many deltas. */
function streamedText(events, id) {
  let open = false; let text = ""; let deltas = 0;
  for (const e of [...events].sort((a, b) => a.seq - b.seq)) {
    if (e.method !== "messages") continue;
    const d = e.params.data;
    if (d.event === "message-start") open = d.id === id;
    else if (open && d.event === "content-block-delta" && d.delta.type === "text-delta") { text += d.delta.text; deltas++; }
    else if (d.event === "message-finish") open = false;
  }
  return { text, deltas };
}

function checkRun(events, runStartSeq, finalValues, label) {
  const run = events.filter((e) => e.seq >= runStartSeq).sort((a, b) => a.seq - b.seq);
  const ids = new Set(run.map((e) => e.event_id));
  check(ids.size === run.length, label + ": event_ids are unique");
  const terminals = run.filter(isRootTerminal);
  check(terminals.length === 1, label + ": exactly one root terminal lifecycle event, got " + terminals.length);
  check(run[run.length - 1] === terminals[0], label + ": the root terminal event is the run's last");
  const ai = lastAi(finalValues);
  check(ai != null, label + ": the state has an AI message");
  const starts = run.filter((e) => e.method === "messages" && e.params.data.event === "message-start").map((e) => e.params.data.id);
  check(starts.includes(ai.id), label + ": message-start.id equals the AI message id in state (" + ai.id + " in " + starts + ")");
  const s = streamedText(run, ai.id);
  check(s.text === textOf(ai), label + ": the streamed text equals the state's, every token once: " + JSON.stringify(s.text) + " vs " + JSON.stringify(textOf(ai)));
  check(s.deltas > 3, label + ": the answer streamed in several deltas");
  return { run, ai, deltas: s.deltas };
}

const newThread = async () => (await (await fetch(base + "/threads", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).json()).thread_id;

const summary = { scenario, transport };
if (scenario === "turn") {
  const threadId = crypto.randomUUID(); // a thread that does not exist yet: run.start creates it
  const thread = open(threadId);
  const rec = recorder(thread);
  const messages = [];
  const consuming = (async () => { for await (const m of thread.messages) messages.push(m); })();
  const toolCalls = [];
  const consumingTools = (async () => { for await (const t of thread.toolCalls) toolCalls.push(t); })();
  const started = await thread.run.start({ input: say("Please plan my week") });
  check(typeof started.run_id === "string", "run.start answers {run_id}");
  await rec.until((ev) => ev.some(isRootTerminal));
  const st = await state(threadId);
  const { run } = checkRun(rec.events, 0, st.values, "turn");
  const toolDeltas = run.filter((e) => e.method === "messages" && e.params.data.event === "content-block-delta" && e.params.data.delta.type === "tool-call-delta");
  check(toolDeltas.length >= 2, "tool-call arguments arrive as deltas (" + toolDeltas.length + ")");
  const finished = run.filter((e) => e.method === "messages" && e.params.data.event === "content-block-finish" && e.params.data.content.type === "tool_call");
  check(finished.length >= 1, "a tool call finishes as a tool_call block");
  const callId = finished[0].params.data.content.id;
  const args = toolDeltas.filter((e) => true).map((e) => e.params.data.delta.args).join("");
  check(args.length > 0, "the argument deltas carry text");
  const toolStarted = run.filter((e) => e.method === "tools" && e.params.data.event === "tool-started");
  const toolFinished = run.filter((e) => e.method === "tools" && e.params.data.event === "tool-finished");
  check(toolStarted.some((e) => e.params.data.tool_call_id === callId), "tool-started names the call's id");
  check(toolFinished.some((e) => e.params.data.tool_call_id === callId), "tool-finished carries the call's result");
  const toolMsg = st.values.messages.find((m) => m.type === "tool" && m.tool_call_id === callId);
  check(toolMsg != null, "the tool result is in state");
  const seqs = run.map((e) => e.seq);
  check(seqs.every((s, i) => i === 0 || s > seqs[i - 1]), "seqs increase");
  await thread.close();
  await consuming.catch(() => {});
  await consumingTools.catch(() => {});
  check(messages.length >= 1, "thread.messages yielded the streamed messages");
  check(toolCalls.length >= 1, "thread.toolCalls yielded the tool calls");
  const getState = await fetch(base + "/threads/" + threadId + "/commands", { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ id: 9, method: "state.get", params: { namespace: [], keys: ["messages"] } }) }).then((r) => r.json());
  check(getState.type === "success" && Object.keys(getState.result.values).join() === "messages", "state.get over HTTP, filtered by keys");
  summary.events = run.length; summary.toolDeltas = toolDeltas.length;
} else if (scenario === "interrupt") {
  const threadId = await newThread();
  const thread = open(threadId);
  const rec = recorder(thread);
  await thread.run.start({ input: say("what do you know about my cat") });
  await rec.until((ev) => ev.some(isRootTerminal));
  const first = rec.terminals()[0];
  check(first.params.data.event === "interrupted", "the run stops interrupted, got " + first.params.data.event);
  const requested = rec.events.filter((e) => e.method === "input.requested");
  check(requested.length === 1 && requested[0].seq < first.seq, "input.requested comes before the root interrupted");
  check(thread.interrupted === true && thread.interrupts.length === 1, "the SDK reports the interrupt");
  const interruptId = thread.interrupts[0].interruptId;
  await thread.input.respond({ namespace: [], interrupt_id: interruptId, response: "It is called Felix" });
  await rec.until(() => rec.terminals().length === 2);
  const second = rec.terminals()[1];
  check(second.params.data.event === "completed", "the resumed run completes, got " + second.params.data.event);
  const answered = rec.events.filter((e) => e.method === "input.answered");
  check(answered.length === 1 && answered[0].params.data.interrupt_ids.includes(interruptId), "input.answered names the interrupt");
  const st = await state(threadId);
  check(st.interrupts.length === 0, "nothing is pending any more");
  const human = st.values.messages.filter((m) => m.type === "human").map(textOf);
  check(human.some((t) => t.includes("Felix")) || JSON.stringify(st.values).includes("Felix"), "the answer reached the state");
  await thread.close();
  summary.events = rec.events.length;
} else if (scenario === "reconnect") {
  const threadId = await newThread();
  const thread = open(threadId);
  const rec = recorder(thread);
  let killed = 0;
  (async () => { for await (const m of thread.messages) { /* opens the messages subscription */ } })().catch(() => {});
  thread.onEvent((e) => {
    if (!killed && e.method === "messages" && e.params.data.event === "content-block-delta" && e.params.data.delta.type === "text-delta") {
      const n = rec.events.filter((x) => x.method === "messages" && x.params.data.delta?.type === "text-delta").length;
      if (n >= 3) killed = killConnections(); // the connection dies mid-answer
    }
  });
  await thread.run.start({ input: say("hi there, tell me something") });
  await rec.until((ev) => ev.some(isRootTerminal));
  check(killed > 0, "the connection was killed mid-answer");
  check(connections() > killed, "the SDK opened a new connection by itself (" + connections() + " connections)");
  let st = await state(threadId);
  const one = checkRun(rec.events, 0, st.values, "run 1 across the reconnect");
  // a second run on the same thread after the reconnect, seen in full
  const from = Math.max(...rec.events.map((e) => e.seq)) + 1;
  await thread.run.start({ input: say("and one more thing") });
  await rec.until(() => rec.terminals().length === 2);
  st = await state(threadId);
  const two = checkRun(rec.events, from, st.values, "run 2 after the reconnect");
  check(two.run[0].method === "lifecycle" && two.run[0].params.data.event === "running", "run 2 is seen from its root running event");
  await thread.close();
  summary.sockets = connections(); summary.deltas = [one.deltas, two.deltas];
} else if (scenario === "two") {
  const threadId = await newThread();
  const a = open(threadId);
  const b = open(threadId);
  const all = { channels: ["values", "updates", "messages", "tools", "lifecycle", "input", "checkpoints", "tasks", "custom"] };
  const seen = [[], []];
  const subs = [await a.subscribe(all), await b.subscribe(all)];
  const reading = subs.map((s, i) => (async () => { for await (const e of s) { seen[i].push(e); if (isRootTerminal(e)) return; } })());
  const rec = recorder(a);
  await a.run.start({ input: say("Please plan my week") });
  await Promise.all(reading);
  const ids = seen.map((list) => list.map((e) => e.event_id));
  check(ids[0].length > 20, "the first connection saw the run (" + ids[0].length + " events)");
  check(JSON.stringify(ids[0]) === JSON.stringify(ids[1]), "two connections see identical event sequences");
  check(new Set(ids[0]).size === ids[0].length, "one copy of each event");
  await a.close(); await b.close();
  summary.events = ids[0].length;
} else {
  check(false, "unknown scenario " + scenario);
}
summary.checks = checks;
console.log(JSON.stringify(summary));
process.exit(0);
