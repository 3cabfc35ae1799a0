// Conduit's /ai-sdk/chat judged by the Vercel AI SDK itself: DefaultChatTransport (which parses every chunk with the
// SDK's uiMessageChunkSchema) into readUIMessageStream (processUIMessageStream's ordering rules), of ai 7 or ai 6.
// Every raw chunk is also validated against BOTH versions' exported uiMessageChunkSchema, and its keys against the
// keys both name, so a part only one version accepts fails either run.
// Usage: node ai-sdk-chat.mjs <baseUrl> <7|6> <scenario>; scenarios: turn | resume | interrupt | errors.
// Prints one JSON summary line; any failed check exits 1 with "FAILED ...".
import * as ai7 from "ai-7";
import * as ai6 from "ai-6";

const [base, version, scenario] = process.argv.slice(2);
const ai = version === "6" ? ai6 : ai7;
const api = base + "/ai-sdk/chat";
let checks = 0;
function check(ok, what) {
  checks++;
  if (!ok) {
    console.error("FAILED [ai " + version + "/" + scenario + "] " + what);
    process.exit(1);
  }
}

const schemas = [ai7, ai6].map((m) => m.asSchema(m.uiMessageChunkSchema));
// the keys ai 6 and ai 7 both name for the parts Conduit sends (their schemas are loose: unknown keys would pass)
const KEYS = {
  start: ["messageId", "messageMetadata"], "start-step": [], "finish-step": [],
  "text-start": ["id"], "text-delta": ["id", "delta"], "text-end": ["id"],
  "reasoning-start": ["id"], "reasoning-delta": ["id", "delta"], "reasoning-end": ["id"],
  "tool-input-start": ["toolCallId", "toolName", "providerExecuted", "dynamic", "title"],
  "tool-input-delta": ["toolCallId", "inputTextDelta"],
  "tool-input-available": ["toolCallId", "toolName", "input", "providerExecuted", "dynamic", "title"],
  "tool-input-error": ["toolCallId", "toolName", "input", "providerExecuted", "dynamic", "errorText", "title"],
  "tool-output-available": ["toolCallId", "output", "providerExecuted", "dynamic", "preliminary"],
  "tool-output-error": ["toolCallId", "errorText", "providerExecuted", "dynamic"],
  error: ["errorText"], finish: ["finishReason", "messageMetadata"], abort: ["reason"],
};

/** Every raw response: its headers and its SSE frames, read beside the transport's own reading. */
const responses = [];
async function recordingFetch(url, init) {
  const res = await fetch(url, init);
  if (res.status !== 200 || res.body == null) return res;
  const [mine, theirs] = res.body.tee();
  const record = { headers: res.headers, text: "", done: null };
  record.done = (async () => {
    const decoder = new TextDecoder();
    for await (const b of mine) record.text += decoder.decode(b, { stream: true });
  })().catch(() => {});
  responses.push(record);
  return new Response(theirs, { status: res.status, statusText: res.statusText, headers: res.headers });
}

/** Checks one finished response's framing and every chunk in it; returns the chunks. */
async function checkRaw(record, label) {
  await record.done;
  check(record.headers.get("x-vercel-ai-ui-message-stream") === "v1", label + ": the x-vercel-ai-ui-message-stream: v1 header");
  check((record.headers.get("content-type") || "").startsWith("text/event-stream"), label + ": content-type text/event-stream");
  const frames = record.text.split("\n\n").filter((f) => f.length > 0 && !f.startsWith(":"));
  check(frames.length > 0 && frames[frames.length - 1] === "data: [DONE]", label + ": the stream ends with data: [DONE]");
  check(frames.filter((f) => f === "data: [DONE]").length === 1, label + ": [DONE] once");
  const chunks = [];
  for (const f of frames.slice(0, -1)) {
    check(f.startsWith("data: ") && !f.includes("\n"), label + ": one data line per frame: " + f);
    const chunk = JSON.parse(f.slice(6));
    for (const [i, s] of schemas.entries()) {
      const r = await s.validate(chunk);
      check(r.success, label + ": ai " + (i === 0 ? 7 : 6) + "'s uiMessageChunkSchema accepts " + f);
    }
    const allowed = chunk.type.startsWith("data-") ? ["id", "data", "transient"] : KEYS[chunk.type];
    check(allowed != null, label + ": a part type both versions know: " + chunk.type);
    for (const k of Object.keys(chunk)) check(k === "type" || allowed.includes(k), label + ": key " + k + " of " + chunk.type);
    chunks.push(chunk);
  }
  check(chunks[0].type === "start", label + ": start comes first");
  return chunks;
}

const transport = new ai.DefaultChatTransport({ api, fetch: recordingFetch });
const userMessage = (text) => ({ id: crypto.randomUUID(), role: "user", parts: [{ type: "text", text }] });

/** Reads a chunk stream into the UI message as useChat builds it; a stream error fails the check. */
async function read(stream, label) {
  let last;
  let failure;
  for await (const m of ai.readUIMessageStream({ stream, onError: (e) => { failure = e; }, terminateOnError: true })) last = m;
  check(failure == null, label + ": the SDK read the stream without error: " + (failure && (failure.stack || failure)));
  check(last != null && last.role === "assistant", label + ": an assistant message");
  return last;
}

async function send(chatId, messages, label, body) {
  const stream = await transport.sendMessages({ chatId, trigger: "submit-message", messageId: undefined, messages, abortSignal: undefined, body });
  const message = await read(stream, label);
  const chunks = await checkRaw(responses[responses.length - 1], label);
  return { message, chunks };
}

async function state(threadId) {
  return (await fetch(base + "/threads/" + threadId + "/state")).json();
}
const lastAi = (values) => values.messages.filter((m) => m.type === "ai").at(-1);
const textOf = (m) => typeof m.content === "string" ? m.content : (m.content || []).map((b) => b.text || "").join("");
const uiText = (message) => message.parts.filter((p) => p.type === "text").map((p) => p.text).join("");
const toolParts = (message) => message.parts.filter((p) => p.type.startsWith("tool-"));

const summary = { version, scenario };
if (scenario === "turn") {
  const chatId = crypto.randomUUID(); // no thread yet: the chat's first message creates it
  const first = userMessage("Please plan my week");
  const { message, chunks } = await send(chatId, [first], "turn");
  const st = await state(chatId);
  check(uiText(message) === textOf(lastAi(st.values)), "the streamed text is the answer in the thread's state: "
    + JSON.stringify(uiText(message)) + " vs " + JSON.stringify(textOf(lastAi(st.values))));
  const tools = toolParts(message);
  check(tools.length >= 2, "the tool calls are tool parts (" + tools.map((p) => p.type) + ")");
  check(tools.every((p) => p.state === "output-available" && p.output !== undefined && p.input != null), "every server tool call has its input and output");
  const stateCalls = st.values.messages.filter((m) => m.type === "ai").flatMap((m) => m.tool_calls || []).map((c) => c.id);
  check(tools.every((p) => stateCalls.includes(p.toolCallId)), "tool call ids are the thread's");
  check(chunks.filter((c) => c.type === "tool-input-delta").length >= 2, "tool arguments stream as deltas");
  check(message.parts.some((p) => p.type === "reasoning" && p.text.length > 0), "the model's reasoning is a reasoning part");
  check(message.parts.some((p) => p.type === "data-planning_retry"), "the verifier's re-plan is a data-planning_retry part");
  const starts = chunks.filter((c) => c.type === "start-step").length;
  check(starts >= 3 && starts === chunks.filter((c) => c.type === "finish-step").length, "a step per model call (" + starts + ")");
  check(chunks.at(-1).type === "finish" && chunks.at(-1).finishReason === "stop", "finish (stop) last");
  check(st.values.messages.filter((m) => m.type === "human").length === 1, "one user message in the thread");
  check(st.values.messages.find((m) => m.type === "human").id === first.id, "the user message keeps its UI id");
  // the next turn: useChat sends the whole history; only the new user message goes onto the thread
  const second = await send(chatId, [first, message, userMessage("good morning")], "second turn");
  const st2 = await state(chatId);
  check(st2.values.messages.filter((m) => m.type === "human").length === 2, "the second turn appends one user message");
  check(uiText(second.message) === textOf(lastAi(st2.values)), "the second answer is the state's");
  check(second.message.id !== message.id, "each turn is its own assistant message");
  summary.parts = message.parts.length;
  summary.chunks = chunks.length;
} else if (scenario === "resume") {
  const chatId = crypto.randomUUID();
  // the model is paced: the POST is dropped after its first text delta, mid-run (the run goes on without it)
  const controller = new AbortController();
  const res = await fetch(api, { method: "POST", headers: { "content-type": "application/json" }, signal: controller.signal,
    body: JSON.stringify({ id: chatId, messages: [userMessage("Please plan my week")], trigger: "submit-message" }) });
  check(res.status === 200, "the POST streams");
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let seen = "";
  while (!seen.includes("\"text-delta\"")) {
    const { done, value } = await reader.read();
    check(!done, "the first text delta comes before the end");
    seen += decoder.decode(value, { stream: true });
  }
  controller.abort();
  const stream = await transport.reconnectToStream({ chatId });
  check(stream != null, "GET …/stream finds the chat's run in flight");
  const message = await read(stream, "resumed");
  const chunks = await checkRaw(responses[responses.length - 1], "resumed");
  const st = await state(chatId);
  check(uiText(message) === textOf(lastAi(st.values)), "the resumed stream gives the whole answer, every token once: "
    + JSON.stringify(uiText(message)) + " vs " + JSON.stringify(textOf(lastAi(st.values))));
  check(toolParts(message).length >= 2 && toolParts(message).every((p) => p.state === "output-available"), "and the tool calls from the start");
  check(chunks.at(-1).type === "finish", "finish last");
  const runs = await (await fetch(base + "/threads/" + chatId + "/runs")).json();
  check(runs.length === 1 && message.id === runs[0].run_id, "one run; the UI message id is the run's");
  check(await transport.reconnectToStream({ chatId }) === null, "once the run ended, GET …/stream answers 204 (null)");
  check(await transport.reconnectToStream({ chatId: crypto.randomUUID() }) === null, "an unknown chat: 204");
  summary.deltas = chunks.filter((c) => c.type === "text-delta").length;
} else if (scenario === "interrupt") {
  const chatId = crypto.randomUUID();
  const first = userMessage("what do you know about my cat");
  const { message, chunks } = await send(chatId, [first], "interrupt");
  const asked = message.parts.filter((p) => p.type === "data-interrupt");
  check(asked.length === 1 && typeof asked[0].id === "string" && asked[0].data.value != null, "the interrupt is a data-interrupt part {id, value}");
  check(chunks.at(-1).type === "finish" && chunks.at(-1).finishReason === "other", "then finish (other)");
  const st = await state(chatId);
  check(st.interrupts.length === 1 && st.interrupts[0].id === asked[0].id, "the part's id is the pending interrupt's");
  // the answer is the next user message
  const answer = await send(chatId, [first, message, userMessage("It is called Felix")], "answer");
  check(answer.chunks.at(-1).type === "finish" && answer.chunks.at(-1).finishReason === "stop", "the resumed run finishes");
  const st2 = await state(chatId);
  check(st2.interrupts.length === 0, "nothing is pending any more");
  check(uiText(answer.message) === textOf(lastAi(st2.values)), "the answer after the interrupt is the state's");
  summary.interrupt = asked[0].id;
} else if (scenario === "errors") {
  const post = (body, path = "") => fetch(api + path, { method: "POST", headers: { "content-type": "application/json" }, body });
  const cases = [
    ["{not json", 400, "malformed_json"],
    ["[]", 422, "invalid_input"],
    [JSON.stringify({ messages: [userMessage("hi")] }), 422, "invalid_input"],
    [JSON.stringify({ id: "bad id!", messages: [userMessage("hi")] }), 422, "invalid_input"],
    [JSON.stringify({ id: crypto.randomUUID(), messages: [] }), 422, "invalid_input"],
    [JSON.stringify({ id: crypto.randomUUID(), messages: [{ id: "a", role: "assistant", parts: [{ type: "text", text: "x" }] }] }), 422, "invalid_input"],
    [JSON.stringify({ id: crypto.randomUUID(), messages: [{ id: "u", role: "user", parts: [] }] }), 422, "invalid_input"],
    [JSON.stringify({ id: crypto.randomUUID(), messages: [userMessage("hi")], trigger: "regenerate-message", messageId: "m" }), 400, "bad_request"],
    [JSON.stringify({ id: crypto.randomUUID(), messages: [userMessage("hi")], resume: "yes" }), 400, "bad_request"],
    [JSON.stringify({ id: crypto.randomUUID(), messages: [userMessage("hi")], trigger: "submit-message", messageId: "m0" }), 400, "bad_request"],
    [JSON.stringify({ id: crypto.randomUUID(), messages: [userMessage("hi")], config: { configurable: { retry_budget: 99 } } }), 422, "invalid_input"],
    [JSON.stringify({ id: crypto.randomUUID(), messages: [userMessage("hi")] }), 404, "not_found", "/no-such-assistant"],
  ];
  const ids = [];
  for (const [body, status, code, path] of cases) {
    const r = await post(body, path);
    const j = await r.json();
    check(r.status === status && j.code === code && typeof j.detail === "string", body + " → " + status + " " + code + ", got " + r.status + " " + JSON.stringify(j));
    try { ids.push(JSON.parse(body).id); } catch { }
  }
  for (const id of ids.filter((i) => typeof i === "string")) {
    check((await fetch(base + "/threads/" + id)).status === 404, "no thread was created for a refused request (" + id + ")");
  }
  // the SDK surfaces the error body
  let thrown;
  try {
    await transport.sendMessages({ chatId: crypto.randomUUID(), trigger: "regenerate-message", messageId: "m", messages: [userMessage("hi")] });
  } catch (e) { thrown = e; }
  check(thrown != null && String(thrown.message).includes("regenerate-message"), "the transport throws with the detail: " + (thrown && thrown.message));
  summary.cases = cases.length;
} else {
  check(false, "unknown scenario " + scenario);
}
summary.checks = checks;
console.log(JSON.stringify(summary));
