// Drives Conduit's A2A front door with @a2a-js/sdk's own client (A2A v0.3 over JSON-RPC, through the SDK's
// legacyCompat transport): the agent card, message/send, message/stream (events as they come, the final status),
// a follow-up on the same context, tasks/get; then bad requests sent raw (malformed JSON, no such method, bad
// params, an unknown task, an unknown assistant), each answered with a JSON-RPC error object.
// Prints one JSON line of results; any exception exits non-zero.
// Scenarios: conversation (the default; the above), interrupt (a question as input-required, answered by the next
// message on the task), cancel (tasks/cancel of a task in flight, seen on its stream), resubscribe (a task in flight
// read again with tasks/resubscribe after its stream was left, then cancelled; an ended and an unknown task refused),
// waiting (a question read back with tasks/get and tasks/resubscribe, not answered).
// Usage: node src/test/js/a2a-client.mjs http://localhost:8081 <assistant id> [conversation|interrupt|waiting|cancel|resubscribe]
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory } from "@a2a-js/sdk/client";
import { randomUUID } from "node:crypto";

const [base, assistant, scenario = "conversation"] = process.argv.slice(2);
if (!base || !assistant) {
  console.error("usage: node a2a-client.mjs <base URL, e.g. http://localhost:8081> <assistant id>");
  process.exit(2);
}

const legacy = { legacyCompat: { enabled: true } };
const factory = new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
  transports: [new JsonRpcTransportFactory(legacy)],
  cardResolver: new DefaultAgentCardResolver(legacy),
}));
const ROLE_USER = 1;
const STATE = { 1: "submitted", 2: "working", 3: "completed", 4: "failed", 5: "canceled", 6: "input-required" };

function message(text, contextId, taskId) {
  const m = { messageId: randomUUID(), role: ROLE_USER, parts: [{ content: { $case: "text", value: text } }] };
  if (contextId) m.contextId = contextId;
  if (taskId) m.taskId = taskId;
  return { message: m };
}

const textOf = (parts) => (parts ?? []).map((p) => (p.content?.$case === "text" ? p.content.value : "")).join("");

function task(t) {
  return {
    id: t.id, contextId: t.contextId, state: STATE[t.status?.state] ?? String(t.status?.state),
    statusText: textOf(t.status?.message?.parts),
    artifacts: (t.artifacts ?? []).map((a) => ({ id: a.artifactId, text: textOf(a.parts) })),
  };
}

async function rpc(body, raw) {
  const r = await fetch(`${base}/a2a/${assistant}`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: raw ?? JSON.stringify(body),
  });
  return { status: r.status, body: await r.json() };
}

async function main() {
  const rawCard = await (await fetch(`${base}/.well-known/agent-card.json?assistant_id=${assistant}`)).json();
  const client = await factory.createFromUrl(`${base}/.well-known/agent-card.json?assistant_id=${assistant}`, "");
  const card = await client.getAgentCard();

  const sent = await client.sendMessage(message("hello over a2a"));
  if (!("status" in sent)) throw new Error("message/send answered a message, not a task: " + JSON.stringify(sent));
  const first = task(sent);

  const events = [];
  let streamedText = "";
  for await (const e of client.sendMessageStream(message("and streamed", first.contextId))) {
    const c = e.payload.$case, v = e.payload.value;
    if (c === "artifactUpdate") streamedText += textOf(v.artifact.parts);
    events.push({ kind: c, taskId: v.taskId ?? v.id, contextId: v.contextId,
      state: c === "statusUpdate" || c === "task" ? STATE[v.status.state] : undefined });
  }

  const got = task(await client.getTask({ id: first.id }));

  let unknownTask = null;
  try {
    await client.getTask({ id: randomUUID() });
  } catch (e) {
    unknownTask = { name: e.constructor.name, message: e.message, code: e.code ?? e.cause?.code ?? null };
  }

  const errors = {
    malformed: await rpc(null, "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": "),
    notAnObject: await rpc([1, 2]),
    noVersion: await rpc({ id: 2, method: "message/send", params: {} }),
    unknownMethod: await rpc({ jsonrpc: "2.0", id: 3, method: "tasks/explode", params: {} }),
    noMessage: await rpc({ jsonrpc: "2.0", id: "four", method: "message/send", params: {} }),
    badPart: await rpc({ jsonrpc: "2.0", id: 5, method: "message/send", params: { message: { kind: "message", role: "user", messageId: "m5", parts: [{ kind: "data", data: {} }] } } }),
    badRole: await rpc({ jsonrpc: "2.0", id: 6, method: "message/send", params: { message: { kind: "message", role: "agent", messageId: "m6", parts: [{ kind: "text", text: "hi" }] } } }),
    noTaskId: await rpc({ jsonrpc: "2.0", id: 7, method: "tasks/get", params: {} }),
    unknownTask: await rpc({ jsonrpc: "2.0", id: 8, method: "tasks/get", params: { id: "no-such-task" } }),
    endedTaskCancel: await rpc({ jsonrpc: "2.0", id: 9, method: "tasks/cancel", params: { id: first.id } }),
  };
  const unknownAssistant = await fetch(`${base}/a2a/no-such-assistant`, {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 10, method: "message/send", params: { message: { kind: "message", role: "user", messageId: "m10", parts: [{ kind: "text", text: "hi" }] } } }),
  });
  errors.unknownAssistant = { status: unknownAssistant.status, body: await unknownAssistant.json() };
  const noCard = await fetch(`${base}/.well-known/agent-card.json?assistant_id=no-such-assistant`);
  errors.unknownCard = { status: noCard.status, body: await noCard.json() };

  return {
    rawCard,
    card: { name: card.name, streaming: card.capabilities?.streaming, interfaces: card.supportedInterfaces },
    first, events, streamedText, got, unknownTask, errors,
  };
}

/** A question the agent cannot answer without the user: input-required, then the answer on the same task. */
async function interrupt() {
  const client = await factory.createFromUrl(`${base}/.well-known/agent-card.json?assistant_id=${assistant}`, "");
  const asked = task(await client.sendMessage(message("what do you know about my cat")));
  // waiting for its answer, it is sent as it stands, and that stream ends
  const resubscribed = [];
  for await (const e of client.resubscribeTask({ id: asked.id })) {
    resubscribed.push({ kind: e.payload.$case, state: STATE[e.payload.value.status?.state] });
  }
  const events = [];
  for await (const e of client.sendMessageStream(message("It is called Felix", asked.contextId, asked.id))) {
    const v = e.payload.value;
    events.push({ kind: e.payload.$case, contextId: v.contextId, state: v.status ? STATE[v.status.state] : undefined });
  }
  const got = task(await client.getTask({ id: asked.id }));
  return { asked, resubscribed, events, got };
}

/**
 * A question read back once the server no longer keeps its run's events (its retention set to nothing): tasks/get and
 * tasks/resubscribe from the run's record and the thread, not answered.
 */
async function waiting() {
  const client = await factory.createFromUrl(`${base}/.well-known/agent-card.json?assistant_id=${assistant}`, "");
  const asked = task(await client.sendMessage(message("what do you know about my cat")));
  const got = task(await client.getTask({ id: asked.id }));
  const resubscribed = [];
  for await (const e of client.resubscribeTask({ id: asked.id })) {
    resubscribed.push({ kind: e.payload.$case, state: STATE[e.payload.value.status?.state] });
  }
  return { asked, got, resubscribed };
}

/**
 * A task in flight cancelled with tasks/cancel once its first token came (its model slow to say the next); its
 * stream ends canceled.
 */
async function cancel() {
  const client = await factory.createFromUrl(`${base}/.well-known/agent-card.json?assistant_id=${assistant}`, "");
  const events = [];
  let cancelled = null;
  for await (const e of client.sendMessageStream(message("take your time"))) {
    const v = e.payload.value;
    const state = v.status ? STATE[v.status.state] : undefined;
    events.push({ kind: e.payload.$case, state });
    if (e.payload.$case === "artifactUpdate" && !cancelled) {
      const sentAt = Date.now();
      const answer = await client.cancelTask({ id: v.taskId });
      // when the task was canceled, not when its record last changed: no earlier than the request
      const at = answer.status?.timestamp; // the compat layer may give an ISO string, a Date or a protobuf Timestamp
      const timestamp = typeof at === "string" ? Date.parse(at) : at instanceof Date ? at.getTime()
        : at?.seconds != null ? Number(at.seconds) * 1000 + Math.floor((at.nanos ?? 0) / 1e6) : null;
      cancelled = { ...task(answer), timestamp, sentAt };
    }
  }
  const got = task(await client.getTask({ id: cancelled.id }));
  let again = null;
  try {
    await client.cancelTask({ id: cancelled.id });
  } catch (e) {
    again = { name: e.constructor.name, message: e.message };
  }
  return { cancelled, events, got, again };
}

/**
 * A task in flight whose first stream the client leaves at its first token (its model then pauses for minutes), read
 * again with tasks/resubscribe: what it had so far, then, live, its cancellation. Resubscribing to it once ended, and to
 * an unknown task, is refused.
 */
async function resubscribe() {
  const client = await factory.createFromUrl(`${base}/.well-known/agent-card.json?assistant_id=${assistant}`, "");
  let taskId = null, firstText = null;
  for await (const e of client.sendMessageStream(message("take your time"))) {
    if (e.payload.$case === "artifactUpdate") {
      taskId = e.payload.value.taskId;
      firstText = textOf(e.payload.value.artifact.parts);
      break; // the client leaves the stream: as a cut connection would
    }
  }
  const events = [];
  let text = "", cancelled = false;
  for await (const e of client.resubscribeTask({ id: taskId })) {
    const c = e.payload.$case, v = e.payload.value;
    events.push({ kind: c, taskId: v.taskId ?? v.id, state: v.status ? STATE[v.status.state] : undefined,
      append: c === "artifactUpdate" ? v.append : undefined });
    if (c === "artifactUpdate") {
      text = v.append ? text + textOf(v.artifact.parts) : textOf(v.artifact.parts);
      if (!cancelled) {
        cancelled = true;
        await client.cancelTask({ id: taskId }); // its end can only come live, on this stream
      }
    }
  }
  const refused = async (id) => {
    try {
      for await (const e of client.resubscribeTask({ id })) {
        return { event: e.payload.$case };
      }
      return { events: 0 };
    } catch (e) {
      return { name: e.constructor.name, message: e.message };
    }
  };
  return { taskId, firstText, events, text, ended: await refused(taskId), unknown: await refused(randomUUID()) };
}

try {
  const run = { conversation: main, interrupt, waiting, cancel, resubscribe }[scenario];
  if (!run) throw new Error("no such scenario: " + scenario);
  console.log(JSON.stringify(await run()));
} catch (e) {
  console.error(e?.stack ?? String(e));
  process.exit(1);
}
