// The README's tutor demo as the chat page plays it ("pick tutor and say quiz me on photosynthesis"), on whatever
// script and course the service has: over the thread protocol's WebSocket (npm ws), with the page's channels, its
// run.start and its choice buttons' input.respond. A question's tool cards (rag_search, get_guide) finish without an
// error and show the course material; the quiz asks each question with its choices, and ends with the score.
// Usage: node src/test/js/tutor-chat-demo.mjs <baseUrl>. Any failed check exits 1 with "FAILED ..."; success prints
// one JSON line.
import WebSocket from "ws";
import { check, checkCount } from "./checks.mjs";

const [base] = process.argv.slice(2);

const CHANNELS = ["messages", "tools", "lifecycle", "input", "custom", "values"]; // the chat page's (chat/js/stream.js)
const threadId = "tutor-chat-" + crypto.randomUUID();
const ws = new WebSocket(base.replace(/^http/, "ws") + "/threads/" + threadId + "/stream/events");
const frames = [];
const waiters = [];
ws.on("message", (data) => {
  const f = JSON.parse(data.toString());
  frames.push(f);
  for (const w of [...waiters]) if (w.test(f)) { waiters.splice(waiters.indexOf(w), 1); w.resolve(f); }
});
ws.on("close", (code) => check(false, "the socket stays open", code));
await new Promise((resolve) => ws.on("open", resolve));
const next = (test, from = 0) => {
  const found = frames.slice(from).find(test);
  return found ? Promise.resolve(found) : new Promise((resolve) => waiters.push({ test: (f) => frames.indexOf(f) >= from && test(f), resolve }));
};
let nextId = 1;
async function command(method, params) {
  const id = nextId++;
  ws.send(JSON.stringify({ id, method, params }));
  const reply = await next((f) => f.type !== "event" && f.id === id);
  check(reply.type !== "error", method + " is accepted", reply);
  return reply;
}
const isRootEnd = (f) => f.type === "event" && f.method === "lifecycle" && f.params.namespace.length === 0
  && ["completed", "interrupted", "failed"].includes(f.params.data.event);

/** Starts what follows (a command), and returns the events up to the root's end, and that end. */
async function turn(start) {
  const from = frames.length;
  await start();
  const end = await next(isRootEnd, from);
  const events = frames.slice(from, frames.indexOf(end) + 1).filter((f) => f.type === "event");
  check(!frames.slice(from).some((f) => f.type === "error"), "no error frame", frames.slice(from).filter((f) => f.type === "error"));
  return { events, end: end.params.data.event };
}
/** The tool cards the page draws from the tools channel: {name, status, output}. */
function cards(events) {
  const byId = new Map();
  for (const e of events) {
    if (e.method !== "tools") continue;
    const d = e.params.data;
    const c = byId.get(d.tool_call_id) || { name: d.tool_name, status: "running" };
    if (d.event === "tool-finished") Object.assign(c, { status: "done", output: String(d.output) });
    if (d.event === "tool-error") Object.assign(c, { status: "failed", output: d.message });
    byId.set(d.tool_call_id, c);
  }
  return [...byId.values()];
}
function texts(events) {
  const out = [];
  for (const e of events) {
    if (e.method !== "messages") continue;
    const d = e.params.data;
    if (d.event === "message-start") out.push("");
    else if (d.event === "content-block-delta" && d.delta?.type === "text-delta") out[out.length - 1] += d.delta.text;
  }
  return out.filter((t) => t);
}
const say = (text) => () => command("run.start", { assistant_id: "tutor", input: { messages: [{ role: "user", content: text }] } });

await command("subscription.subscribe", { channels: CHANNELS });

// a question: its cards read the course material, none fails
const asked = await turn(say("What is photosynthesis?"));
check(asked.end === "completed", "the question is answered", asked.end);
const shown = cards(asked.events);
check(shown.map((c) => c.name).join() === "rag_search,get_guide", "a card for rag_search and get_guide", shown);
check(shown.every((c) => c.status === "done"), "every card finished without an error", shown);
check(shown[0].output.includes("built-in course") && shown[0].output.includes("Photosynthesis"), "rag_search's card shows the passages found", shown[0]);
check(/photosynthesis/i.test(shown[1].output), "get_guide's card shows the course guide", shown[1]);
check(texts(asked.events).some((t) => /chlorophyll/i.test(t)), "the answer streams", texts(asked.events));

// the quiz: each question with its choices, answered with a choice's text as the page's buttons send it
let quiz = await turn(say("quiz me on photosynthesis"));
const questions = [];
for (let n = 1; n <= 3; n++) {
  check(quiz.end === "interrupted", "the run stops at question " + n, quiz.end);
  const req = quiz.events.find((e) => e.method === "input.requested");
  const q = req?.params.data.payload;
  check(q?.action === "answer_question" && q.question_num === n && q.total_questions === 3, "question " + n + " is asked", q);
  check(Array.isArray(q.choices) && q.choices.length === 4 && /\w/.test(q.question_text), "with its text and four choices", q);
  check(!cards(quiz.events).some((c) => c.status === "failed"), "no card of the quiz failed", cards(quiz.events));
  questions.push(q);
  const answer = q.choices[[0, 1, 0][n - 1]]; // the demo's answers: right, right, wrong
  quiz = await turn(() => command("input.respond", { namespace: req.params.namespace, interrupt_id: req.params.data.interrupt_id, response: answer }));
}
check(quiz.end === "completed", "the quiz ends after its last answer", quiz.end);
const summary = texts(quiz.events).find((t) => t.startsWith("Quiz on photosynthesis finished"));
check((summary || "").includes("you scored 2/3"), "the summary gives the score", texts(quiz.events));
check(/photosynthesis/i.test(questions[0].question_text), "the questions are on the course", questions[0]);

ws.removeAllListeners("close");
ws.close();
console.log(JSON.stringify({ checks: checkCount(), score: summary.match(/\d\/3/)[0] }));
