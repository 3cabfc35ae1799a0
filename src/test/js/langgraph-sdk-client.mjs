// Drives Conduit with the official LangGraph SDK (@langchain/langgraph-sdk), as an application would: assistants,
// threads, runs streamed with messages-tuple/values/updates on the built-in simulator, an interrupt resumed with a
// command, state and history, a fork from an older checkpoint, a state update as a node, a stream joined again after a
// deliberate disconnect (Last-Event-ID), and the astream_events v2 protocol of the same run.
// The server must run with conduit.agent.clarify-on-failure=true and conduit.agent.retry-budget=1.
// Every check that fails exits non-zero with "FAILED [step] what"; success prints one JSON line.
// Usage: node src/test/js/langgraph-sdk-client.mjs http://localhost:8081 [@langchain/langgraph-sdk | langgraph-sdk-2]
import http from "node:http";
import { isDeepStrictEqual, inspect } from "node:util";

const [baseUrl, pkg = "@langchain/langgraph-sdk"] = process.argv.slice(2);
if (!baseUrl) {
  console.error("usage: node langgraph-sdk-client.mjs <base URL, e.g. http://localhost:8081> [SDK package name]");
  process.exit(2);
}
const { Client } = await import(pkg);
const client = new Client({ apiUrl: baseUrl, callerOptions: { maxRetries: 0 } });

const MODES = ["messages-tuple", "values", "updates"];
const USER = { configurable: { user_id: "sdk-client" } };
const PLAN = "Please plan my week";
const ANSWER = "Here is a plan for your week: start with the basics this morning, practise after lunch, and review in "
  + "the evening. I checked the time, and I will remember what you tell me about your week.";
// one superstep each: the two tool calls of the first round run as two parallel tasks
const NODES = ["ingress", "planner", "tool_executor", "tool_executor", "verifier", "planner", "tool_executor", "verifier", "generator", "summarizer"];

class CheckFailed extends Error {}
let step = "start";
let checks = 0;
function check(ok, what, ...detail) {
  checks++;
  if (!ok) {
    throw new CheckFailed(`FAILED [${step}] ${what}${detail.length ? ": " + detail.map((d) => inspect(d, { depth: 6, breakLength: 160 })).join(" ") : ""}`);
  }
}
function equal(actual, expected, what) {
  check(isDeepStrictEqual(actual, expected), what, { actual, expected });
}

/** Every part of a stream (SDK 2.0 yields an empty part for a heartbeat after an id: dropped). */
async function collect(stream, parts = []) {
  for await (const p of stream) {
    if (p.event) parts.push(p);
  }
  return parts;
}
const ofEvent = (parts, e) => parts.filter((p) => p.event === e);
const dataOf = (parts, e) => ofEvent(parts, e).map((p) => p.data);
const messages = (parts) => dataOf(parts, "messages");
const lastValues = (parts) => dataOf(parts, "values").filter((v) => !("__interrupt__" in v)).at(-1);
/** The streamed text of AI message chunks (the tokens), in order. */
const tokens = (parts) => messages(parts).map(([m]) => m).filter((m) => m.type === "AIMessageChunk" && m.content !== "").map((m) => m.content);

/** Accumulates message chunks as the SDK's UI does: chunks of one id concatenate; tool-call chunks merge by index. */
function accumulate(parts) {
  const byId = new Map();
  for (const [m, meta] of messages(parts)) {
    check(typeof m.id === "string" && m.id !== "", "every message chunk has an id", m);
    if (m.type !== "AIMessageChunk") {
      byId.set(m.id, { ...m, node: meta.langgraph_node });
      continue;
    }
    const acc = byId.get(m.id) ?? { type: "ai", id: m.id, content: "", calls: [], chunks: 0, node: meta.langgraph_node };
    check(acc.node === meta.langgraph_node, "chunks of one message come from one node", acc.node, meta.langgraph_node);
    acc.content += m.content;
    acc.chunks++;
    for (const c of m.tool_call_chunks ?? []) {
      check(c.type === "tool_call_chunk" && Number.isInteger(c.index), "a tool call chunk has type and index", c);
      const call = (acc.calls[c.index] ??= { name: null, id: null, args: "", argChunks: 0 });
      call.name ??= c.name;
      call.id ??= c.id;
      if (c.args) {
        call.args += c.args;
        call.argChunks++;
      }
    }
    byId.set(m.id, acc);
  }
  return [...byId.values()];
}

function checkIdsIncrease(parts) {
  for (let i = 1; i < parts.length; i++) {
    check(Number(parts[i].id) > Number(parts[i - 1].id), "event ids increase", parts[i - 1].id, parts[i].id);
  }
}

/** A run streamed from its creation: metadata first with the id the headers gave, end last. */
async function streamRun(threadId, payload) {
  let created = null;
  const parts = await collect(client.runs.stream(threadId, "agent", { ...payload, onRunCreated: (m) => (created = m) }));
  check(created && created.run_id && created.thread_id === threadId, "onRunCreated got the run and thread ids (Content-Location)", created);
  check(parts[0]?.event === "metadata" && parts[0].data.run_id === created.run_id, "the first event is metadata with the run id", parts[0]);
  check(parts.at(-1)?.event === "end", "the last event is end", parts.at(-1));
  check(!parts.some((p) => p.event === "error"), "no error event", ofEvent(parts, "error"));
  checkIdsIncrease(parts);
  return { runId: created.run_id, parts };
}

async function assistants() {
  step = "assistants";
  const found = await client.assistants.search({ graphId: "agent" });
  const agent = found.find((a) => a.graph_id === "agent");
  check(agent, "assistants.search({graphId: agent}) lists the agent", found);
  check(agent.metadata?.created_by === "system", "the graph's assistant is a system one", agent);
  const all = await client.assistants.search();
  check(all.some((a) => a.assistant_id === agent.assistant_id), "assistants.search() lists it too", all);
  const got = await client.assistants.get(agent.assistant_id);
  equal([got.assistant_id, got.graph_id], [agent.assistant_id, "agent"], "assistants.get by id");
  return agent;
}

async function newThread(tag) {
  const t = await client.threads.create({ metadata: { suite: "langgraph-sdk-client", tag } });
  check(typeof t.thread_id === "string" && t.status === "idle" && t.metadata?.tag === tag, "threads.create", t);
  const again = await client.threads.get(t.thread_id);
  equal(again.thread_id, t.thread_id, "threads.get");
  return t.thread_id;
}

/** The demo turn: parallel tool calls whose arguments stream in chunks, tool results, a re-plan, streamed tokens. */
async function seedRun(threadId) {
  step = "stream";
  const { runId, parts } = await streamRun(threadId, { input: { messages: [{ role: "user", content: PLAN }] }, config: USER, streamMode: MODES });
  const kinds = new Set(parts.map((p) => p.event));
  equal([...kinds].sort(), ["end", "messages", "metadata", "updates", "values"], "only the modes asked for");

  const text = tokens(parts);
  check(text.length >= 10, "the answer streams as many tokens", text);
  equal(text.join(""), ANSWER, "the tokens make the answer");

  const msgs = accumulate(parts);
  const plans = msgs.filter((m) => m.type === "ai" && m.node === "planner");
  check(plans.length === 2, "two planner messages streamed (plan, re-plan)", plans);
  const calls = plans[0].calls;
  equal(calls.map((c) => [c.name, JSON.parse(c.args)]), [["get_current_time", { timezone: "UTC" }], ["recall", { key: "week" }]],
    "the first plan's two tool calls, arguments assembled from their chunks");
  for (const c of [...calls, ...plans[1].calls]) {
    check(c.argChunks >= 2, "tool call arguments arrive as several chunks", c);
    check(typeof c.id === "string" && c.id.length > 0, "a tool call has an id", c);
  }
  equal(plans[1].calls.map((c) => [c.name, JSON.parse(c.args)]), [["get_current_time", { timezone: "Europe/Paris" }]], "the re-plan's tool call");
  const answer = msgs.find((m) => m.type === "ai" && m.node === "generator");
  check(answer && answer.content === ANSWER && answer.calls.length === 0, "the generator's message", answer);

  const results = msgs.filter((m) => m.type === "tool");
  equal(results.map((r) => [r.tool_call_id, r.name]), [...calls, ...plans[1].calls].map((c) => [c.id, c.name]),
    "a tool result per tool call, in order, with its tool_call_id");
  check(results[0].content.length > 0 && results[0].status === "success", "get_current_time's result", results[0]);
  equal(results[1].content, "", "recall found nothing");

  equal(dataOf(parts, "updates").map((u) => Object.keys(u)[0]), NODES, "an update per node, in order");
  const toolUpdates = dataOf(parts, "updates").filter((u) => u.tool_executor).map((u) => u.tool_executor.messages[0].id);
  equal(toolUpdates, results.map((r) => r.id), "the tool_executor updates carry the tool messages");

  const values = lastValues(parts);
  equal(values.messages.map((m) => m.type), ["human", "ai", "tool", "tool", "ai", "tool", "ai"], "the final values' messages");
  equal(values.messages.at(-1).id, answer.id, "the streamed message is the one in state");
  equal(values.messages.at(-1).content, ANSWER, "the final answer in state");
  equal(values.messages[1].tool_calls.map((c) => c.id), calls.map((c) => c.id), "the tool call ids in state are the streamed ones");

  const run = await client.runs.get(threadId, runId);
  equal([run.run_id, run.status], [runId, "success"], "runs.get after the run");
  const thread = await client.threads.get(threadId);
  equal(thread.status, "idle", "the thread is idle after the run");
  return { runId, parts, values };
}

async function stateAndHistory(threadId, seed) {
  step = "state";
  const state = await client.threads.getState(threadId);
  equal(state.values.messages, seed.values.messages, "getState: the run's final messages");
  equal(state.next, [], "getState: nothing next");
  check(state.checkpoint?.checkpoint_id && state.checkpoint.thread_id === threadId, "getState: the checkpoint", state.checkpoint);
  check(state.metadata?.source === "loop" && Number.isInteger(state.metadata?.step), "getState: metadata source and step", state.metadata);

  step = "history";
  const history = await client.threads.getHistory(threadId, { limit: 100 });
  equal(history.length, dataOf(seed.parts, "values").length + 1, "a checkpoint per values event, and the input's");
  equal(history[0].checkpoint.checkpoint_id, state.checkpoint.checkpoint_id, "history is newest first");
  for (let i = 1; i < history.length; i++) {
    check(history[i - 1].checkpoint.checkpoint_id.localeCompare(history[i].checkpoint.checkpoint_id) > 0,
      "checkpoint ids sort in time order (useStream's branching relies on it)", history[i - 1].checkpoint, history[i].checkpoint);
    equal(history[i - 1].parent_checkpoint?.checkpoint_id, history[i].checkpoint.checkpoint_id, "each checkpoint's parent is the one before it");
  }
  equal([history.at(-1).metadata.source, history.at(-1).metadata.step, history.at(-1).next], ["input", -1, ["ingress"]], "the oldest checkpoint is the input");
  const page = await client.threads.getHistory(threadId, { limit: 2, before: { configurable: { checkpoint_id: history[2].checkpoint.checkpoint_id } } });
  equal(page.map((s) => s.checkpoint.checkpoint_id), history.slice(3, 5).map((s) => s.checkpoint.checkpoint_id), "getHistory before a checkpoint, limit 2");
  const older = history.find((s) => isDeepStrictEqual(s.next, ["generator"]));
  const byId = await client.threads.getState(threadId, older.checkpoint.checkpoint_id);
  equal(byId.values, older.values, "getState at a checkpoint id");
  const byCheckpoint = await client.threads.getState(threadId, { checkpoint_id: older.checkpoint.checkpoint_id, checkpoint_ns: "" });
  equal(byCheckpoint.values, older.values, "getState at a checkpoint object");
  return history;
}

/** Replays the turn from the checkpoint before the generator: the new run continues that state, on a new branch. */
async function fork(threadId, history, seed) {
  step = "fork";
  const older = history.find((s) => isDeepStrictEqual(s.next, ["generator"]));
  check(older, "history has the checkpoint before the generator", history.map((s) => s.next));
  const { parts } = await streamRun(threadId, { input: null, checkpointId: older.checkpoint.checkpoint_id, config: USER, streamMode: MODES });
  equal(dataOf(parts, "updates").map((u) => Object.keys(u)[0]), ["generator", "summarizer"], "the fork runs what was next at its checkpoint");
  equal(tokens(parts).join(""), ANSWER, "the fork streams the answer again");
  const values = lastValues(parts);
  const base = older.values.messages;
  equal(values.messages.slice(0, base.length), base, "the fork's messages start with the checkpoint's");
  equal(values.messages.length, base.length + 1, "and add one answer");
  check(values.messages.at(-1).id !== seed.values.messages.at(-1).id, "the fork's answer is a new message", values.messages.at(-1));

  const after = await client.threads.getHistory(threadId, { limit: 100 });
  const head = await client.threads.getState(threadId);
  equal(head.checkpoint.checkpoint_id, after[0].checkpoint.checkpoint_id, "the fork's last checkpoint is the head");
  equal(head.values.messages, values.messages, "getState reads the fork");
  // walk the head's parents: they reach the older checkpoint, not the first branch's head
  const byId = new Map(after.map((s) => [s.checkpoint.checkpoint_id, s]));
  const chain = [];
  for (let s = head; s; s = byId.get(s.parent_checkpoint?.checkpoint_id)) chain.push(s.checkpoint.checkpoint_id);
  check(chain.includes(older.checkpoint.checkpoint_id), "the fork descends from the older checkpoint", chain);
  check(!chain.includes(history[0].checkpoint.checkpoint_id), "the first branch's head is not an ancestor of the fork", chain);
  const firstBranch = await client.threads.getState(threadId, history[0].checkpoint.checkpoint_id);
  equal(firstBranch.values.messages, seed.values.messages, "the first branch is still there");
  return head;
}

/** Writes a message as the generator would have: the next run continues at the summarizer. */
async function updateAsNode(threadId, head) {
  step = "updateState";
  const edit = { type: "ai", content: "An answer written by hand.", id: `edit-${Date.now()}` };
  const res = await client.threads.updateState(threadId, { values: { messages: [edit] }, asNode: "generator" });
  check(res?.checkpoint?.checkpoint_id, "updateState answers the new checkpoint", res);
  const state = await client.threads.getState(threadId);
  equal(state.checkpoint.checkpoint_id, res.checkpoint.checkpoint_id, "the update is the head");
  equal(state.parent_checkpoint?.checkpoint_id, head.checkpoint.checkpoint_id, "on top of the previous head");
  equal(state.metadata.source, "update", "its source is update");
  equal(state.next, ["summarizer"], "as the generator: the summarizer is next");
  equal([state.values.messages.at(-1).id, state.values.messages.at(-1).content, state.values.messages.at(-1).type], [edit.id, edit.content, "ai"], "the message written");
  equal(state.values.messages.length, head.values.messages.length + 1, "appended to the messages");
  const { parts } = await streamRun(threadId, { input: null, config: USER, streamMode: MODES });
  equal(dataOf(parts, "updates").map((u) => Object.keys(u)[0]), ["summarizer"], "a run without input continues from the update");
  const done = await client.threads.getState(threadId);
  equal(done.next, [], "then nothing is next");
  equal(done.values.messages.at(-1).id, edit.id, "and the edit stays");
}

/** The verifier asks the user after the re-plan finds nothing either; a command resumes it. */
async function interruptAndResume() {
  step = "interrupt";
  const threadId = await newThread("interrupt");
  const { runId, parts } = await streamRun(threadId, { input: { messages: [{ role: "user", content: "What do you know about my piano?" }] }, config: USER, streamMode: MODES });
  const interrupts = dataOf(parts, "values").filter((v) => "__interrupt__" in v);
  check(interrupts.length === 1, "one values event carries the interrupt", dataOf(parts, "values"));
  const [intr] = interrupts[0].__interrupt__;
  check(typeof intr.id === "string" && /Can you tell me more\?$/.test(intr.value?.question), "the interrupt's id and question", intr);
  equal(dataOf(parts, "updates").at(-1), { __interrupt__: [intr] }, "updates carries it too");
  const state = await client.threads.getState(threadId);
  equal(state.next, ["verifier"], "the verifier waits");
  equal(state.interrupts, [intr], "getState: the interrupt");
  equal(state.tasks.map((t) => [t.name, t.interrupts]), [["verifier", [intr]]], "getState: the waiting task and its interrupt");
  const thread = await client.threads.get(threadId);
  equal(thread.status, "interrupted", "the thread is interrupted");
  equal(thread.interrupts, { [state.tasks[0].id]: [intr] }, "the thread's interrupts, by the waiting task's id");
  check((await client.runs.get(threadId, runId)).status !== "running", "the run has stopped");

  step = "resume";
  const reply = "It is a grand piano";
  const resumed = await streamRun(threadId, { command: { resume: reply }, config: USER, streamMode: MODES });
  check(!dataOf(resumed.parts, "values").some((v) => "__interrupt__" in v), "no interrupt after the resume");
  equal(dataOf(resumed.parts, "updates")[0] && Object.keys(dataOf(resumed.parts, "updates")[0]), ["verifier"], "the verifier runs again first");
  const values = lastValues(resumed.parts);
  const human = values.messages.filter((m) => m.type === "human").map((m) => m.content);
  equal(human, ["What do you know about my piano?", reply], "the answer to the interrupt is in the conversation");
  check(tokens(resumed.parts).join("").includes(reply) && values.messages.at(-1).content === tokens(resumed.parts).join(""),
    "the reply to it streams as tokens", tokens(resumed.parts), values.messages.at(-1));
  const after = await client.threads.getState(threadId);
  equal([after.next, after.interrupts], [[], []], "nothing pending after the resume");
  equal((await client.threads.get(threadId)).status, "idle", "the thread is idle again");
}

/** A breakpoint (interrupt_before) pauses before the tools; a run without input goes on from there. */
async function breakpointAndContinue() {
  step = "breakpoint";
  const threadId = await newThread("breakpoint");
  const { parts } = await streamRun(threadId, { input: { messages: [{ role: "user", content: PLAN }] }, config: USER, streamMode: MODES, interruptBefore: ["tool_executor"] });
  equal(dataOf(parts, "updates").map((u) => Object.keys(u)[0]), ["ingress", "planner"], "the run stops before the tools");
  check(!dataOf(parts, "values").some((v) => "__interrupt__" in v), "a breakpoint sends no __interrupt__ (the client reads next)");
  const state = await client.threads.getState(threadId);
  equal(state.next, ["tool_executor", "tool_executor"], "both tool calls wait");
  equal((await client.threads.get(threadId)).status, "interrupted", "the thread is interrupted at the breakpoint");

  step = "continue";
  const run = await client.runs.create(threadId, "agent", { input: null, config: USER });
  check(run.run_id && ["pending", "running"].includes(run.status), "runs.create answers the run", run);
  const joined = await client.runs.join(threadId, run.run_id);
  equal(joined.messages.at(-1).content, ANSWER, "runs.join: the final values");
  equal(joined.messages.map((m) => m.type), ["human", "ai", "tool", "tool", "ai", "tool", "ai"], "the turn went on from the breakpoint");
  equal((await client.runs.get(threadId, run.run_id)).status, "success", "the background run succeeded");

  step = "wait";
  const waited = await client.runs.wait(threadId, "agent", { input: { messages: [{ role: "user", content: "What time is it?" }] }, config: USER });
  equal(waited.messages.at(-1).content, "I looked at the clock for you: the current time is in the result above.", "runs.wait: the final values");
  equal(waited.messages.length, joined.messages.length + 4, "a second turn on the thread: question, tool call, result, answer");
  const listed = await client.runs.list(threadId);
  equal(listed.length, 3, "runs.list: the thread's three runs");
}

/**
 * Reads a run, disconnects on purpose after ten tokens of the answer, joins again after the last event id seen, and
 * compares with the full replay (-1): every event, and so every token, exactly once. The run goes on meanwhile
 * (on_disconnect defaults to continue); if it ended first, the join replays from the log all the same.
 */
async function disconnectAndJoin() {
  step = "disconnect";
  const threadId = await newThread("join");
  const modes = [...MODES, "events"];
  const controller = new AbortController();
  let runId = null;
  const before = [];
  try {
    for await (const p of client.runs.stream(threadId, "agent", {
      input: { messages: [{ role: "user", content: PLAN }] }, config: USER, streamMode: modes,
      signal: controller.signal, onRunCreated: (m) => (runId = m.run_id),
    })) {
      if (!p.event) continue;
      before.push(p);
      if (tokens(before).length === 10) {
        controller.abort();
        break;
      }
    }
  } catch (e) {
    if (e?.name !== "AbortError") throw e;
  }
  check(runId && tokens(before).length === 10, "disconnected in the middle of the answer, after ten tokens", runId, before.length);
  const lastEventId = before.at(-1).id;
  check(/^\d+$/.test(lastEventId), "events carry numeric ids", lastEventId);

  step = "join";
  // not asserted: with the simulator's pacing the run is usually still going; if it ended, the log replays it
  const statusAtJoin = (await client.runs.get(threadId, runId)).status;
  const rest = await collect(client.runs.joinStream(threadId, runId, { lastEventId, streamMode: modes }));
  const full = await collect(client.runs.joinStream(threadId, runId, { lastEventId: "-1", streamMode: modes }));
  check(full[0]?.event === "metadata" && full.at(-1)?.event === "end", "the replay from -1 runs from metadata to end", full[0], full.at(-1));
  checkIdsIncrease(full);
  check(rest.length > 0 && Number(rest[0].id) > Number(lastEventId), "the join starts after the last event seen", rest[0], lastEventId);
  const seen = [...before, ...rest].map((p) => [p.id, p.event, p.data]);
  equal(seen, full.map((p) => [p.id, p.event, p.data]), "before the disconnect + after the join = the full replay");
  equal(tokens([...before, ...rest]), tokens(full), "every token exactly once");
  check(tokens(rest).length > 0, "the rest of the answer came with the join", tokens(rest));
  equal(tokens(full).join(""), ANSWER, "the tokens make the answer");
  equal((await client.runs.get(threadId, runId)).status, "success", "the run finished");
  return { threadId, runId, full, statusAtJoin, disconnectedAfterEvent: Number(lastEventId), events: full.length };
}

/**
 * A proxy that cuts the first run stream in the middle of a frame, once the answer has streamed up to `marker`;
 * everything else passes through.
 */
async function cuttingProxy(target, marker) {
  const state = { cut: false, requests: [] };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, target);
    state.requests.push({ method: req.method, path: req.url, lastEventId: req.headers["last-event-id"] });
    const up = http.request(url, { method: req.method, headers: { ...req.headers, host: url.host } }, (upRes) => {
      res.writeHead(upRes.statusCode, upRes.headers);
      const cutThis = !state.cut && req.method === "POST" && url.pathname.endsWith("/runs/stream");
      let seen = Buffer.alloc(0);
      upRes.on("data", (chunk) => {
        if (state.cut || !cutThis) return void res.write(chunk);
        const before = seen.length;
        seen = Buffer.concat([seen, chunk]);
        const at = seen.indexOf(marker);
        if (at < 0) return void res.write(chunk);
        state.cut = true; // a few bytes into the marker: mid-frame
        res.write(chunk.subarray(0, Math.max(0, at + 5 - before)));
        res.destroy();
        upRes.destroy();
      });
      upRes.on("end", () => res.end());
      upRes.on("error", () => res.destroy());
    });
    up.on("error", () => res.destroy());
    req.pipe(up);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, state, close: () => new Promise((resolve) => server.close(resolve)) };
}

/**
 * The connection drops in the middle of the answer (a proxy cuts it mid-frame): the SDK reconnects by itself to the
 * stream's Location with Last-Event-ID, and sees every event exactly once.
 */
async function sdkReconnects() {
  step = "reconnect";
  const threadId = await newThread("reconnect");
  const proxy = await cuttingProxy(baseUrl, '"content":"morning, "');
  try {
    const viaProxy = new Client({ apiUrl: proxy.url, callerOptions: { maxRetries: 0 } });
    let runId = null;
    const reconnects = [];
    const parts = await collect(viaProxy.runs.stream(threadId, "agent", {
      input: { messages: [{ role: "user", content: PLAN }] }, config: USER, streamMode: MODES,
      onRunCreated: (m) => (runId = m.run_id), onReconnect: (r) => reconnects.push(r),
    }));
    check(proxy.state.cut, "the proxy cut the stream");
    const rejoin = proxy.state.requests.filter((r) => r.method === "GET" && r.path.includes(`/runs/${runId}/stream`));
    check(rejoin.length >= 1 && /^\d+$/.test(rejoin[0].lastEventId ?? ""), "the SDK reconnected to the run's stream with Last-Event-ID", proxy.state.requests);
    const full = await collect(client.runs.joinStream(threadId, runId, { lastEventId: "-1", streamMode: MODES }));
    equal(parts.map((p) => [p.id, p.event, p.data]), full.map((p) => [p.id, p.event, p.data]), "the reconnected stream = the full replay");
    equal(tokens(parts).join(""), ANSWER, "every token exactly once");
    return { reconnects: rejoin.length, lastEventId: Number(rejoin[0].lastEventId) };
  } finally {
    await proxy.close();
  }
}

/** The same run as astream_events v2: every node, model call, tool call and custom event, in order, with payloads. */
async function eventsProtocol({ threadId, runId, full }) {
  step = "events";
  const only = await collect(client.runs.joinStream(threadId, runId, { lastEventId: "-1", streamMode: "events" }));
  equal([...new Set(only.map((p) => p.event))].sort(), ["end", "events", "metadata"], "streamMode events: only events");
  const events = dataOf(only, "events");
  equal(events, dataOf(full, "events"), "the same events as in the full replay");
  for (const e of events) {
    check(typeof e.event === "string" && typeof e.name === "string" && typeof e.run_id === "string"
      && Array.isArray(e.tags) && Array.isArray(e.parent_ids) && e.metadata && e.data, "every event has event, name, run_id, tags, metadata, parent_ids, data", e);
  }
  const first = events[0];
  const last = events.at(-1);
  equal([first.event, first.name, first.run_id, first.parent_ids], ["on_chain_start", "LangGraph", runId, []], "the run's chain starts first");
  equal([last.event, last.name, last.run_id], ["on_chain_end", "LangGraph", runId], "and ends last");
  const values = lastValues(full);
  equal(last.data.output, values, "the run's output is its final values");

  // nodes: a start and an end per task, with the node's update as output
  const open = new Map();
  const started = [];
  const updates = dataOf(full, "updates");
  const ended = [];
  for (const e of events) {
    if (e.name === "LangGraph") continue;
    if (e.event === "on_chain_start") {
      check(!open.has(e.run_id), "a node starts once", e);
      open.set(e.run_id, e);
      started.push(e.name);
      equal([e.metadata.langgraph_node, e.parent_ids], [e.name, [runId]], "a node's metadata and parent");
      check("input" in e.data, "on_chain_start has data.input", e);
    } else if (e.event === "on_chain_end") {
      check(open.get(e.run_id)?.name === e.name, "a node ends after it started", e);
      open.delete(e.run_id);
      ended.push(e);
    } else {
      const inside = [...open.values()].filter((n) => n.name === e.metadata.langgraph_node);
      check(inside.length > 0, `${e.event} happens inside its node's chain`, e);
    }
  }
  equal(open.size, 0, "every node that started ended");
  equal(started, NODES, "the nodes, in order");
  equal(ended.map((e) => ({ [e.name]: e.data.output })), updates, "each node's on_chain_end output is its update");

  // chat models: start, chunks, end, one run id
  const models = [];
  for (const e of events) {
    if (e.event === "on_chat_model_start") {
      check(Array.isArray(e.data.input?.messages) && e.data.input.messages.length > 0, "on_chat_model_start has the input messages", e);
      models.push({ name: e.name, run_id: e.run_id, chunks: [], end: null });
    } else if (e.event === "on_chat_model_stream" || e.event === "on_chat_model_end") {
      const m = models.at(-1);
      check(m && m.end === null && m.run_id === e.run_id, `${e.event} belongs to the chat model call in flight (same run_id)`, e, m);
      if (e.event === "on_chat_model_stream") {
        check(e.data.chunk?.type === "AIMessageChunk", "on_chat_model_stream carries an AIMessageChunk", e);
        m.chunks.push(e.data.chunk);
      } else {
        m.end = e.data.output;
      }
    }
  }
  equal(models.map((m) => m.name), ["planner", "planner", "generator"], "chat model calls: plan, re-plan, answer");
  const streamed = messages(full).filter(([m]) => m.type === "AIMessageChunk").map(([m]) => m);
  equal(models.flatMap((m) => m.chunks), streamed, "the chunks are the messages-tuple chunks");
  equal(models[0].end.tool_calls.map((c) => [c.name, c.args]), [["get_current_time", { timezone: "UTC" }], ["recall", { key: "week" }]], "on_chat_model_end: the plan's tool calls");
  equal(models[2].chunks.map((c) => c.content).join(""), ANSWER, "the generator's chunks make the answer");
  equal([models[2].end.type, models[2].end.content, models[2].end.id], ["ai", ANSWER, values.messages.at(-1).id], "on_chat_model_end: the answer");

  // tools: start with the arguments, end with the result
  const tools = events.filter((e) => e.event === "on_tool_start" || e.event === "on_tool_end");
  const toolRuns = [];
  for (const e of tools) {
    if (e.event === "on_tool_start") toolRuns.push({ name: e.name, run_id: e.run_id, input: e.data.input, output: undefined });
    else {
      const t = toolRuns.find((x) => x.run_id === e.run_id);
      check(t && t.output === undefined && t.name === e.name, "on_tool_end follows its on_tool_start", e);
      t.output = e.data.output;
    }
  }
  equal(toolRuns.map((t) => [t.name, t.input]), [["get_current_time", { timezone: "UTC" }], ["recall", { key: "week" }], ["get_current_time", { timezone: "Europe/Paris" }]],
    "on_tool_start: each tool with its arguments");
  equal(toolRuns.map((t) => t.output), values.messages.filter((m) => m.type === "tool").map((m) => m.content), "on_tool_end: each tool's result");

  // the verifier's planning_retry, inside the first verifier
  const custom = events.filter((e) => e.event === "on_custom_event");
  equal(custom.map((e) => e.name), ["planning_retry"], "one custom event: planning_retry");
  equal([custom[0].data.attempt, custom[0].data.problems], [1, ["recall returned nothing"]], "planning_retry's payload");
  equal(custom[0].metadata.langgraph_node, "verifier", "planning_retry comes from the verifier");
  const at = events.indexOf(custom[0]);
  const verifierStart = events.findIndex((e) => e.event === "on_chain_start" && e.name === "verifier");
  const verifierEnd = events.findIndex((e) => e.event === "on_chain_end" && e.name === "verifier");
  check(verifierStart < at && at < verifierEnd, "between the first verifier's start and end", { verifierStart, at, verifierEnd });
  return events.length;
}

async function main() {
  const agent = await assistants();
  const threadId = await newThread("main");
  const seed = await seedRun(threadId);
  const history = await stateAndHistory(threadId, seed);
  const head = await fork(threadId, history, seed);
  await updateAsNode(threadId, head);
  await interruptAndResume();
  await breakpointAndContinue();
  const joined = await disconnectAndJoin();
  const events = await eventsProtocol(joined);
  const reconnect = await sdkReconnects();
  const join = { statusAtJoin: joined.statusAtJoin, disconnectedAfterEvent: joined.disconnectedAfterEvent, of: joined.events };
  return { sdk: pkg, assistant: agent.assistant_id, checks, tokens: tokens(seed.parts).length, events, join, reconnect };
}

try {
  console.log(JSON.stringify(await main()));
} catch (e) {
  console.error(e instanceof CheckFailed ? e.message : `FAILED [${step}] ${e?.stack ?? String(e)}`);
  process.exit(1);
}
