// The small gaps LangGraph's front ends trip on (issue 21), each checked with the official SDK where it has a call,
// else with fetch as a browser would: GET /info and /ok; threads.search with each thread's values; an interrupt
// attached to its task on getState/getHistory (a subgraph's: the tutor's quiz) and answered by its id; a static
// breakpoint in no task's interrupts; streamMode "messages" (messages/metadata, partial, complete) live and replayed;
// a new thread's state seeded with updateState; CORS exposing the headers the clients read; /openapi.json and /docs.
// The server must run with conduit.agent.clarify-on-failure=true, conduit.agent.retry-budget=1 and CORS on for ORIGIN.
// Every check that fails exits non-zero with "FAILED [step] what"; success prints one JSON line.
// Usage: node src/test/js/langgraph-sdk-gaps.mjs http://localhost:8081 [@langchain/langgraph-sdk | langgraph-sdk-2]
import { isDeepStrictEqual, inspect } from "node:util";

const [baseUrl, pkg = "@langchain/langgraph-sdk"] = process.argv.slice(2);
if (!baseUrl) {
  console.error("usage: node langgraph-sdk-gaps.mjs <base URL> [SDK package name]");
  process.exit(2);
}
const { Client } = await import(pkg);
// the non-React core of useStream reads interrupts with extractInterrupts (SDK 1.x exports it; 2.0 has no ./ui)
const ui = pkg === "@langchain/langgraph-sdk" ? await import("@langchain/langgraph-sdk/ui") : null;
const client = new Client({ apiUrl: baseUrl, callerOptions: { maxRetries: 0 } });

const ORIGIN = "http://ui.example.test";
const PLAN = "Please plan my week";
const ANSWER = "Here is a plan for your week: start with the basics this morning, practise after lunch, and review in "
  + "the evening. I checked the time, and I will remember what you tell me about your week.";
const TAG = `gaps-${pkg}-${Date.now()}`;

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
async function collect(stream, parts = []) {
  for await (const p of stream) {
    if (p.event) parts.push(p);
  }
  return parts;
}
async function json(path, init) {
  const r = await fetch(baseUrl + path, init);
  return { status: r.status, headers: r.headers, body: r.headers.get("content-type")?.includes("json") ? await r.json() : await r.text() };
}

async function meta() {
  step = "info";
  const info = await json("/info");
  check(info.status === 200, "GET /info answers 200", info);
  check(typeof info.body.version === "string" && info.body.version.length > 0, "/info has the server's version", info.body);
  equal([info.body.flags?.assistants, info.body.flags?.crons], [true, true], "/info's flags: assistants and crons served");
  equal((await json("/ok")).body, { ok: true }, "GET /ok");
}

async function searchValues() {
  step = "search";
  const t = await client.threads.create({ metadata: { tag: TAG, kind: "search" } });
  await client.runs.wait(t.thread_id, "agent", { input: { messages: [{ role: "user", content: PLAN }] } });
  const empty = await client.threads.create({ metadata: { tag: TAG, kind: "search" } });
  const found = await client.threads.search({ metadata: { tag: TAG, kind: "search" }, limit: 10 });
  equal(found.map((x) => x.thread_id).sort(), [t.thread_id, empty.thread_id].sort(), "threads.search finds both threads");
  const ran = found.find((x) => x.thread_id === t.thread_id);
  equal(ran.values.messages?.[0]?.content, PLAN, "a searched thread's values: its first message (agent-chat-ui's history title)");
  equal(ran.values.messages.at(-1).content, ANSWER, "and its answer");
  equal(ran.values, (await client.threads.get(t.thread_id)).values, "the same values as threads.get");
  equal(found.find((x) => x.thread_id === empty.thread_id).values, {}, "a thread without a run has empty values");
  const picked = await client.threads.search({ metadata: { tag: TAG, kind: "search" }, select: ["thread_id", "status"] });
  equal(picked.map((x) => Object.keys(x).sort()), [["status", "thread_id"], ["status", "thread_id"]], "select narrows the fields");
  const page = await json("/threads/search", { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ metadata: { tag: TAG, kind: "search" }, limit: 1 }) });
  equal([page.headers.get("x-pagination-total"), page.headers.get("x-pagination-next")], ["2", "1"], "a full page's paging headers");
  const { next } = await client.assistants.search({ limit: 1, includePagination: true });
  equal(next, "1", "assistants.search({includePagination}) reads X-Pagination-Next");
}

/**
 * agent-chat-ui offers a form only for LangChain's human-in-the-loop review request: the agent's question carries one
 * (an ask_user action whose answer is filled in), and the form's reply, an "edit" decision, answers it.
 */
async function reviewForm() {
  step = "review";
  const t = await client.threads.create({ metadata: { tag: TAG, kind: "review" } });
  const config = { configurable: { retry_budget: 0, clarify_on_failure: true } };
  const paused = await client.runs.wait(t.thread_id, "agent", { input: { messages: [{ role: "user", content: PLAN }] }, config });
  const value = paused.__interrupt__?.[0]?.value;
  check(typeof value?.question === "string" && value.question.length > 0, "the agent asks its question", paused.__interrupt__);
  equal(value.action_requests, [{ name: "ask_user", args: { question: value.question, answer: "" }, description: value.question }],
    "the question is a review request: one ask_user action whose answer is filled in");
  equal(value.review_configs, [{ action_name: "ask_user", allowed_decisions: ["edit"] }], "answered by an edit");
  // what agent-chat-ui's form sends: thread.submit({}, { command: { resume: { decisions } } })
  const reply = { type: "edit", edited_action: { name: "ask_user", args: { question: value.question, answer: "the week of the conference" } } };
  const done = await client.runs.wait(t.thread_id, "agent", { input: {}, command: { resume: { decisions: [reply] } }, config });
  equal(done.messages.filter((m) => m.type === "human").map((m) => m.content), [PLAN, "the week of the conference"],
    "the answer joins the conversation as the user's message");
}

/** The tutor's quiz: its question is raised inside the test_session subgraph, so the parent's task must carry it. */
async function interrupts() {
  step = "interrupt";
  const t = await client.threads.create({ metadata: { tag: TAG, graph_id: "tutor" } });
  const paused = await client.runs.wait(t.thread_id, "tutor", { input: { messages: [{ role: "user", content: "quiz me on photosynthesis" }] } });
  check(Array.isArray(paused.__interrupt__) && paused.__interrupt__.length === 1, "runs.wait ends at the quiz's question", paused);
  const raised = paused.__interrupt__[0];
  equal(raised.value.question_num, 1, "the first question");

  // after a reload useStream reads the head state: the question must be on its task, not a bare breakpoint
  const state = await client.threads.getState(t.thread_id);
  equal(state.next, ["test_session"], "the thread waits in the quiz's subgraph node");
  equal(state.tasks.map((x) => [x.name, x.interrupts]), [["test_session", [raised]]], "getState: the question is on its task");
  check(!("__interrupt__" in state.values), "values hold the channels only, as LangGraph's getState", Object.keys(state.values));
  const thread = await client.threads.get(t.thread_id);
  equal([thread.status, thread.interrupts], ["interrupted", { [state.tasks[0].id]: [raised] }], "the thread's interrupts, keyed by that task");
  const [head] = await client.threads.getHistory(t.thread_id, { limit: 1 });
  equal(head.tasks.map((x) => [x.id, x.interrupts]), state.tasks.map((x) => [x.id, x.interrupts]), "getHistory: the same task and question");
  if (ui) {
    const shown = ui.extractInterrupts(state.values, { isLoading: false, threadState: state });
    equal([shown?.id, shown?.value?.question_num], [raised.id, 1], "useStream's core shows the question, not a breakpoint");
  }

  // answered by its id (LangGraph's resume map): the quiz goes on to the next question
  const next = await client.runs.wait(t.thread_id, "tutor", { command: { resume: { [raised.id]: "Chlorophyll" } } });
  check(next.__interrupt__?.[0]?.value?.question_num === 2, "resuming by interrupt id answers it: the next question", next);
  check(next.__interrupt__[0].id !== raised.id, "the next question has its own id", next.__interrupt__);
  equal(Object.keys(next).sort(), Object.keys(paused).sort(), "the resumed run answers the values with its question, as the first did");
  const later = await client.threads.getState(t.thread_id);
  equal(later.tasks.flatMap((x) => x.interrupts).map((i) => i.id), [next.__interrupt__[0].id], "only the pending question is on the task");

  step = "breakpoint";
  const b = await client.threads.create({ metadata: { tag: TAG } });
  await client.runs.wait(b.thread_id, "agent", { input: { messages: [{ role: "user", content: PLAN }] }, interruptBefore: ["tool_executor"] });
  const atBreakpoint = await client.threads.getState(b.thread_id);
  check(atBreakpoint.next.length > 0 && atBreakpoint.tasks.every((x) => x.interrupts.length === 0),
    "a static breakpoint is in no task's interrupts (the client infers it from next)", atBreakpoint.tasks);
  equal((await client.threads.get(b.thread_id)).interrupts, {}, "nor in the thread's interrupts");
  if (ui) {
    equal(ui.extractInterrupts(atBreakpoint.values, { isLoading: false, threadState: atBreakpoint }), { when: "breakpoint" }, "useStream's core sees a breakpoint");
  }
}

/** streamMode "messages": LangGraph's messages/metadata, messages/partial and messages/complete. */
async function messagesMode() {
  step = "messages";
  const t = await client.threads.create({ metadata: { tag: TAG } });
  let runId = null;
  const live = await collect(client.runs.stream(t.thread_id, "agent", {
    input: { messages: [{ role: "user", content: PLAN }] }, streamMode: "messages", onRunCreated: (m) => (runId = m.run_id),
  }));
  const kinds = [...new Set(live.map((p) => p.event))].sort();
  equal(kinds, ["end", "messages/complete", "messages/metadata", "messages/partial", "metadata"], "only the messages mode's events");
  const meta = new Map();
  const partial = new Map();
  const complete = new Map();
  for (const p of live) {
    if (p.event === "messages/metadata") {
      const [id, ...more] = Object.keys(p.data);
      check(more.length === 0 && !meta.has(id), "one metadata event per message, keyed by its id", p.data);
      check(typeof p.data[id].metadata?.langgraph_node === "string", "the metadata names the node", p.data);
      meta.set(id, p.data[id].metadata);
    } else if (p.event === "messages/partial" || p.event === "messages/complete") {
      check(Array.isArray(p.data) && p.data.length === 1, "a list of one message", p.data);
      const m = p.data[0];
      check(meta.has(m.id), "a message's metadata comes before it", m);
      check(!complete.has(m.id), "nothing of a message after it is complete", m);
      if (p.event === "messages/partial") {
        const before = partial.get(m.id)?.content ?? "";
        check(m.type === "ai" && m.content.startsWith(before), "each partial is the message so far, growing", before, m.content);
        partial.set(m.id, m);
      } else {
        complete.set(m.id, m);
      }
    }
  }
  const answer = [...complete.values()].find((m) => m.type === "ai" && m.content === ANSWER);
  check(answer, "the generator's answer is complete", [...complete.values()]);
  check(partial.get(answer.id)?.content === ANSWER, "its last partial is the whole answer", partial.get(answer.id));
  equal(meta.get(answer.id).langgraph_node, "generator", "its metadata: the generator");
  const plan = [...complete.values()].find((m) => m.type === "ai" && m.tool_calls?.length === 2);
  equal(partial.get(plan.id).tool_calls.map((c) => [c.name, c.args]), [["get_current_time", { timezone: "UTC" }], ["recall", { key: "week" }]],
    "a streamed plan's last partial has its tool calls with their arguments whole");
  const tools = [...complete.values()].filter((m) => m.type === "tool");
  check(tools.length === 3 && tools.every((m) => !partial.has(m.id)), "tool results arrive complete, never partial", tools);
  check(![...complete.values()].some((m) => m.type === "human"), "the input is no message of the run", [...complete.values()]);

  // a replay gives the frames live delivery gave
  const replay = await collect(client.runs.joinStream(t.thread_id, runId, { lastEventId: "-1", streamMode: "messages" }));
  equal(replay.map((p) => [p.id, p.event, p.data]), live.map((p) => [p.id, p.event, p.data]), "a replay from -1 gives the live frames");
  const cut = Math.floor(live.length / 2);
  const rest = await collect(client.runs.joinStream(t.thread_id, runId, { lastEventId: live[cut].id, streamMode: "messages" }));
  equal(rest.map((p) => [p.id, p.event]), live.slice(cut + 1).map((p) => [p.id, p.event]), "a replay after an id gives the rest");

  const tuples = await collect(client.runs.stream(null, "agent", { input: { messages: [{ role: "user", content: PLAN }] }, streamMode: "messages-tuple" }));
  equal([...new Set(tuples.map((p) => p.event))].sort(), ["end", "messages", "metadata"], "messages-tuple sends its tuples as before");
  equal((await client.runs.get(t.thread_id, runId)).kwargs?.stream_mode, ["messages"], "the run records the mode as asked");
}

/** updateState on a thread without a run seeds it, through the graph's reducers. */
async function seedState() {
  step = "seed";
  const t = await client.threads.create({ metadata: { tag: TAG } });
  const first = await client.threads.updateState(t.thread_id, { values: { messages: [{ type: "human", content: "My week is busy." }] } });
  check(first.checkpoint?.checkpoint_id && first.checkpoint.thread_id === t.thread_id, "updateState answers the new checkpoint", first);
  await client.threads.updateState(t.thread_id, { values: { messages: [{ type: "ai", content: "Noted." }] }, asNode: "generator" });
  const state = await client.threads.getState(t.thread_id);
  equal(state.values.messages.map((m) => [m.type, m.content]), [["human", "My week is busy."], ["ai", "Noted."]],
    "both updates went through the messages reducer (appended)");
  equal(state.metadata.source, "update", "a checkpoint of source update");
  const after = await client.runs.wait(t.thread_id, "agent", { input: { messages: [{ role: "user", content: PLAN }] } });
  equal(after.messages.slice(0, 3).map((m) => m.content), ["My week is busy.", "Noted.", PLAN], "a run goes on from the seeded state");
  equal(after.messages.at(-1).content, ANSWER, "and answers");
}

/** A page of another origin (agent-chat-ui on its own host) reads the headers the clients need. */
async function cors() {
  step = "cors";
  const r = await fetch(baseUrl + "/threads/search", { method: "POST", headers: { origin: ORIGIN, "content-type": "application/json" }, body: "{}" });
  equal(r.headers.get("access-control-allow-origin"), ORIGIN, "the origin is allowed");
  const exposed = (r.headers.get("access-control-expose-headers") ?? "").toLowerCase().split(/\s*,\s*/);
  for (const h of ["content-location", "location", "x-pagination-total", "x-pagination-next"]) {
    check(exposed.includes(h), `${h} is exposed`, exposed);
  }
  const pre = await fetch(baseUrl + "/threads/x/runs/stream", { method: "OPTIONS",
    headers: { origin: ORIGIN, "access-control-request-method": "POST", "access-control-request-headers": "content-type,x-api-key,last-event-id" } });
  check(pre.status < 300 && pre.headers.get("access-control-allow-origin") === ORIGIN, "a preflight is answered", pre.status);
}

async function openApi() {
  step = "openapi";
  const doc = await json("/openapi.json");
  check(doc.status === 200 && /^3\.1\./.test(doc.body.openapi), "GET /openapi.json: an OpenAPI 3.1 document", doc.status, doc.body?.openapi);
  for (const p of ["/info", "/ok", "/threads/search", "/threads/{thread_id}/runs/stream", "/threads/{thread_id}/state", "/assistants/search"]) {
    check(doc.body.paths?.[p], `it describes ${p}`, Object.keys(doc.body.paths ?? {}));
  }
  const docs = await fetch(baseUrl + "/docs");
  check(docs.status === 200 && docs.headers.get("content-type")?.startsWith("text/html") && (await docs.text()).includes("/openapi.json"),
    "GET /docs: a page over /openapi.json", docs.status);
}

try {
  await meta();
  await searchValues();
  await interrupts();
  await reviewForm();
  await messagesMode();
  await seedState();
  await cors();
  await openApi();
  console.log(JSON.stringify({ sdk: pkg, checks }));
} catch (e) {
  console.error(e instanceof CheckFailed ? e.message : e);
  process.exit(1);
}
