// AG-UI judged by its own client (@ag-ui/client 1.0.0), whose runAgent enforces the event schemas and verifies the
// event order (verifyEvents) on every run. Usage: node ag-ui-client.mjs <baseUrl> <scenario> <http|websocket>
// scenarios: server-tool | frontend-tool | interrupt | abort. Over http the client's own HttpAgent; over websocket an
// AbstractAgent whose run() reads the events from one WebSocket (subprotocol ag-ui) that carries every run of the
// scenario. Prints one JSON summary line; a failed check, a rejected run or any warning or error the client logs
// exits 1 with "FAILED ...".
import { AbstractAgent, HttpAgent, EventType } from "@ag-ui/client";
import { Observable } from "rxjs";
import WebSocket from "ws";
import { randomUUID } from "node:crypto";

const [base, scenario, transport = "http"] = process.argv.slice(2);
let checks = 0;
const fail = console.error;
function check(ok, what) {
  checks++;
  if (!ok) {
    fail("FAILED [" + scenario + "/" + transport + "] " + what);
    process.exit(1);
  }
}
// the client reports stripped fields, unknown events, bad patches and the like as warnings: none may appear
for (const level of ["warn", "error"]) {
  const original = console[level];
  console[level] = (...args) => { original(...args); check(false, "the client logged a " + level + ": " + args.map(String).join(" ")); };
}

/** AG-UI over WebSocket: each run sends its input as one text frame and reads one event per frame until the run's end. */
class WebSocketAgent extends AbstractAgent {
  constructor(config) {
    super(config);
    this.url = config.url;
    this.socket = null;
  }

  async connected() {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) return this.socket;
    const socket = new WebSocket(this.url, "ag-ui");
    await new Promise((resolve, reject) => { socket.once("open", resolve); socket.once("error", reject); });
    check(socket.protocol === "ag-ui", "the server agreed to the ag-ui subprotocol");
    this.socket = socket;
    return socket;
  }

  run(input) {
    return new Observable((subscriber) => {
      let socket;
      const onMessage = (data) => {
        const event = JSON.parse(String(data));
        subscriber.next(event);
        if (event.type === EventType.RUN_FINISHED || event.type === EventType.RUN_ERROR) {
          socket.off("message", onMessage);
          subscriber.complete();
        }
      };
      const onClose = () => subscriber.complete(); // aborted: the client closed the socket
      this.connected().then((s) => {
        socket = s;
        s.on("message", onMessage);
        s.once("close", onClose);
        s.send(JSON.stringify(input));
      }, (e) => subscriber.error(e));
      return () => { if (socket) { socket.off("message", onMessage); socket.off("close", onClose); } };
    });
  }

  abortRun() {
    if (this.socket) this.socket.terminate();
  }
}

const threadId = "agui-" + randomUUID();
const agent = transport === "websocket"
  ? new WebSocketAgent({ url: base.replace(/^http/, "ws") + "/ag-ui", threadId })
  : new HttpAgent({ url: base + "/ag-ui", threadId });

/** One run: every event the client applied, in order; the run must resolve (no verification error). */
async function run(params = {}) {
  const events = [];
  await agent.runAgent(params, { onEvent: ({ event }) => { events.push(event); } })
    .catch((e) => check(false, "runAgent rejected: " + (e && e.stack || e)));
  const types = events.map((e) => e.type);
  check(types[0] === EventType.RUN_STARTED, "the first event is RUN_STARTED, got " + types[0]);
  check(types[types.length - 1] === EventType.RUN_FINISHED, "the last event is RUN_FINISHED, got " + types[types.length - 1]);
  check(types.filter((t) => t === EventType.RUN_FINISHED || t === EventType.RUN_STARTED).length === 2, "one run per stream");
  check(types.includes(EventType.MESSAGES_SNAPSHOT) && types.includes(EventType.STATE_SNAPSHOT), "both snapshots came");
  check(types.indexOf(EventType.MESSAGES_SNAPSHOT) < types.length - 1, "the snapshots come before RUN_FINISHED");
  return events;
}
const say = (text) => agent.addMessage({ id: randomUUID(), role: "user", content: text });
const ofType = (events, type) => events.filter((e) => e.type === type);
const text = (events) => ofType(events, EventType.TEXT_MESSAGE_CONTENT).map((e) => e.delta).join("");
const steps = (events) => ofType(events, EventType.STEP_STARTED).map((e) => e.stepName);
async function threadState() {
  const r = await fetch(base + "/threads/" + threadId + "/state");
  check(r.status === 200, "the thread exists, status " + r.status);
  return r.json();
}

const summary = { scenario, transport };
if (scenario === "server-tool") {
  say("what time is it?");
  const events = await run();
  const finished = events[events.length - 1];
  check(finished.threadId === threadId && typeof finished.runId === "string", "RUN_FINISHED names the thread and the run");
  check(finished.outcome === undefined || finished.outcome.type === "success", "the run succeeded");
  const start = ofType(events, EventType.TOOL_CALL_START);
  check(start.length === 1 && start[0].toolCallName === "get_current_time", "one call to get_current_time");
  const callId = start[0].toolCallId;
  const args = ofType(events, EventType.TOOL_CALL_ARGS).filter((e) => e.toolCallId === callId);
  check(args.length >= 2, "the arguments came as several deltas, got " + args.length);
  check(JSON.parse(args.map((e) => e.delta).join("")).timezone === "UTC", "the deltas add up to the arguments");
  const result = ofType(events, EventType.TOOL_CALL_RESULT);
  check(result.length === 1 && result[0].toolCallId === callId && result[0].content.length > 0, "the tool's result came");
  check(events.indexOf(result[0]) > events.indexOf(ofType(events, EventType.TOOL_CALL_END)[0]), "the result comes after the call ends");
  check(text(events) === "I looked at the clock for you: the current time is in the result above.", "the answer streamed: " + text(events));
  check(["ingress", "planner", "tool_executor", "verifier", "generator"].every((s) => steps(events).includes(s)), "a step per node: " + steps(events));
  check(ofType(events, EventType.STEP_FINISHED).length === steps(events).length, "every step finished");
  // the model streams its reasoning first (the simulator's reasoning is on): one reasoning message per model call
  const reasoning = ofType(events, EventType.REASONING_MESSAGE_START);
  check(reasoning.length >= 2 && ofType(events, EventType.REASONING_MESSAGE_CONTENT).length > reasoning.length, "reasoning streamed");
  check(ofType(events, EventType.REASONING_START).length === reasoning.length && ofType(events, EventType.REASONING_END).length === reasoning.length, "each in its span");
  const roles = agent.messages.filter((m) => m.role !== "reasoning").map((m) => m.role);
  check(JSON.stringify(roles) === JSON.stringify(["user", "assistant", "tool", "assistant"]), "the client's messages: " + roles);
  check(agent.messages.find((m) => m.role === "assistant").toolCalls[0].id === callId, "the assistant message carries the call");
  // a second turn: the client sends its whole history; only the new message is appended to the thread
  say("hello again");
  const second = await run();
  check(text(second).includes("hello again"), "the second answer: " + text(second));
  const state = await threadState();
  check(state.values.messages.length === 6, "the thread holds 6 messages, not the history twice: " + state.values.messages.length);
  check(agent.messages.filter((m) => m.role !== "reasoning").length === 6, "so does the client");
  summary.events = events.length; summary.argDeltas = args.length;
} else if (scenario === "frontend-tool") {
  const tools = [{ name: "set_background", description: "Paints the page's background",
    parameters: { type: "object", properties: { color: { type: "string" } }, required: ["color"] } }];
  say("paint the page blue");
  const first = await run({ tools });
  const start = ofType(first, EventType.TOOL_CALL_START);
  check(start.length === 1 && start[0].toolCallName === "set_background", "the planner called the front-end tool");
  const callId = start[0].toolCallId;
  check(JSON.parse(ofType(first, EventType.TOOL_CALL_ARGS).map((e) => e.delta).join("")).color === "blue", "with its arguments");
  check(ofType(first, EventType.TOOL_CALL_END).length === 1, "the call ended");
  check(ofType(first, EventType.TOOL_CALL_RESULT).length === 0, "the service did not run it");
  check(!steps(first).includes("tool_executor"), "no executor step");
  const last = agent.messages.filter((m) => m.role !== "reasoning").pop();
  check(last.role === "assistant" && last.toolCalls.length === 1 && last.toolCalls[0].id === callId, "the client holds the open call");
  // the application runs the tool and answers it in the next run
  agent.addMessage({ id: randomUUID(), role: "tool", toolCallId: callId, content: "the background is blue" });
  const second = await run({ tools });
  check(text(second) === "The page is blue now, as the browser confirmed.", "the agent continued from the result: " + text(second));
  const state = await threadState();
  const tool = state.values.messages.find((m) => m.type === "tool");
  check(tool && tool.tool_call_id === callId && tool.content === "the background is blue", "the thread holds the client's result");
  summary.events = first.length + second.length;
} else if (scenario === "interrupt") {
  say("what do you know about my cat?");
  const first = await run();
  const finished = first[first.length - 1];
  check(finished.outcome && finished.outcome.type === "interrupt", "the run ends on an interrupt: " + JSON.stringify(finished.outcome));
  const retry = ofType(first, EventType.CUSTOM).filter((e) => e.name === "planning_retry");
  check(retry.length === 1 && retry[0].value.attempt === 1, "the verifier's re-plan came as CUSTOM planning_retry");
  const interrupt = finished.outcome.interrupts[0];
  check(finished.outcome.interrupts.length === 1 && typeof interrupt.id === "string" && interrupt.reason === "input_required", "one interrupt");
  check(typeof interrupt.message === "string" && interrupt.message.length > 0, "it asks a question");
  check(agent.pendingInterrupts.length === 1 && agent.pendingInterrupts[0].id === interrupt.id, "the client holds it as pending");
  // the client refuses, by itself, a run that leaves it unanswered
  let refused = false;
  await agent.runAgent({}).catch(() => { refused = true; });
  check(refused, "a run without resume is refused by the client");
  const second = await run({ resume: [{ interruptId: interrupt.id, status: "resolved", payload: "It is called Felix" }] });
  const end = second[second.length - 1];
  check(end.outcome === undefined || end.outcome.type === "success", "the resumed run completes: " + JSON.stringify(end.outcome));
  // the verifier hands the answer to the planner as the user's word; the scripted model echoes the last user message
  check(text(second).endsWith("You said: It is called Felix"), "the answer after the resume: " + text(second));
  check(agent.pendingInterrupts.length === 0, "nothing is pending any more");
  const state = await threadState();
  check(state.interrupts.length === 0 && state.next.length === 0, "the thread waits on nothing");
  summary.events = first.length + second.length;
} else if (scenario === "abort") {
  // the client stops a run as its first model call streams (a stop button): the service stops it too; the model is
  // paced, so the rest of the run (the call's reasoning, its tool call, the tool, the answer) is still to come
  say("what time is it?");
  const events = [];
  let aborted = false;
  await agent.runAgent({}, { onEvent: ({ event }) => {
    events.push(event);
    if (!aborted && event.type === EventType.REASONING_MESSAGE_CONTENT) {
      aborted = true;
      agent.abortRun();
    }
  } }).catch((e) => check(false, "an aborted run resolves quietly: " + e));
  check(aborted && events[0].type === EventType.RUN_STARTED, "the run started and was aborted mid-call");
  check(!events.some((e) => e.type === EventType.RUN_FINISHED), "no RUN_FINISHED reached the client");
  const runId = events[0].runId;
  await fetch(base + "/threads/" + threadId + "/runs/" + runId + "/join");
  const run = await fetch(base + "/threads/" + threadId + "/runs/" + runId).then((r) => r.json());
  check(run.status === "interrupted", "the service stopped the run: " + run.status);
  summary.events = events.length;
} else {
  check(false, "unknown scenario " + scenario);
}
summary.checks = checks;
if (agent.socket) agent.socket.close();
console.log(JSON.stringify(summary));
