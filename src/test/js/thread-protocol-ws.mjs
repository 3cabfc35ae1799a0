// The thread protocol over a raw WebSocket (npm ws): what the SDK never sends. Usage:
// node thread-protocol-ws.mjs <baseUrl> <scenario> [arg]; scenarios: errors | oversized <bytes> | forbidden | cancel | halfopen.
// Prints one JSON summary line; any failed check exits 1 with "FAILED ...".
import WebSocket from "ws";

const [base, scenario, arg] = process.argv.slice(2);
const wsBase = base.replace(/^http/, "ws");
let checks = 0;
function check(ok, what) {
  checks++;
  if (!ok) {
    console.error("FAILED [" + scenario + "] " + what);
    process.exit(1);
  }
}

/** A socket whose frames are read in order: next(test) resolves with the first unread frame passing test. */
function connect(threadId, options = {}) {
  const ws = new WebSocket(wsBase + "/threads/" + threadId + "/stream/events", options);
  const frames = [];
  const waiters = [];
  let closed = null;
  const closedWaiters = [];
  ws.on("message", (data) => {
    const f = JSON.parse(data.toString());
    frames.push(f);
    for (const w of [...waiters]) if (w.test(f)) { waiters.splice(waiters.indexOf(w), 1); w.resolve(f); }
  });
  ws.on("close", (code, reason) => { closed = { code, reason: reason.toString() }; closedWaiters.forEach((r) => r(closed)); });
  ws.on("error", () => {});
  const opened = new Promise((resolve) => { ws.on("open", resolve); ws.on("close", resolve); });
  let nextId = 1;
  return {
    ws, frames, opened,
    send(text) { ws.send(text); },
    next(test) {
      const found = frames.find(test);
      return found ? Promise.resolve(found) : new Promise((resolve) => waiters.push({ test, resolve }));
    },
    async command(method, params) {
      const id = nextId++;
      ws.send(JSON.stringify({ id, method, params }));
      return this.next((f) => f.type !== "event" && f.id === id);
    },
    closed() { return closed ? Promise.resolve(closed) : new Promise((r) => closedWaiters.push(r)); },
  };
}
const say = (text) => ({ messages: [{ role: "user", content: text }] });
const isRootTerminal = (f) => f.type === "event" && f.method === "lifecycle" && f.params.namespace.length === 0
  && ["completed", "interrupted", "failed"].includes(f.params.data.event);

const summary = { scenario };
if (scenario === "errors") {
  const c = connect(crypto.randomUUID());
  await c.opened;
  c.send("not json");
  let f = await c.next((x) => x.type === "error");
  check(f.id === null && f.error === "invalid_argument", "a frame that is not JSON: invalid_argument with id null: " + JSON.stringify(f));
  c.send(JSON.stringify({ method: "state.get" }));
  f = await c.next((x) => x.type === "error" && x !== c.frames[0]);
  check(f.id === null && f.error === "invalid_argument", "a command with no id: invalid_argument, id null");
  c.send(JSON.stringify([1, 2]));
  f = await c.next((x) => x.type === "error" && c.frames.indexOf(x) === 2);
  check(f.id === null && f.error === "invalid_argument", "a frame that is not an object");
  f = await c.command("no.such.thing", {});
  check(f.type === "error" && f.error === "unknown_command" && f.id === 1, "unknown command: " + JSON.stringify(f));
  f = await c.command("subscription.subscribe", { channels: [] });
  check(f.error === "invalid_argument", "subscribe with no channels");
  f = await c.command("subscription.subscribe", { channels: ["values", "telepathy"] });
  check(f.error === "invalid_argument" && f.message.includes("telepathy"), "subscribe to an unknown channel");
  f = await c.command("subscription.unsubscribe", { subscription_id: "nope" });
  check(f.error === "no_such_subscription", "unsubscribe an unknown subscription");
  f = await c.command("input.respond", { namespace: [], interrupt_id: "x", response: "yes" });
  check(f.error === "no_such_run", "input.respond before any run: " + JSON.stringify(f));
  f = await c.command("agent.getTree", {});
  check(f.error === "no_such_run", "agent.getTree before any run");
  f = await c.command("run.start", { input: {} });
  check(f.error === "invalid_argument" && f.message.includes("assistant_id"), "run.start without assistant_id");
  f = await c.command("run.start", { assistant_id: "agent", input: say("hi"), multitask_strategy: "sideways" });
  check(f.error === "invalid_argument", "run.start with an unknown multitask strategy: " + JSON.stringify(f));
  f = await c.command("state.fork", { checkpoint_id: "nope" });
  check(f.error === "no_such_checkpoint", "state.fork from an unknown checkpoint: " + JSON.stringify(f));
  f = await c.command("state.get", { namespace: [] });
  check(f.type === "success" && JSON.stringify(f.result.values) === "{}" && f.meta.applied_through_seq === 0, "after all that the connection is open: " + JSON.stringify(f));
  check(c.ws.readyState === WebSocket.OPEN, "the socket stays open");
  summary.frames = c.frames.length;
  c.ws.close();
} else if (scenario === "oversized") {
  const c = connect(crypto.randomUUID());
  await c.opened;
  c.send(JSON.stringify({ id: 1, method: "state.get", params: { pad: "x".repeat(Number(arg)) } }));
  const closed = await c.closed();
  check(closed.code === 1009, "an oversized frame closes with 1009, got " + closed.code + " " + closed.reason);
  summary.reason = closed.reason;
} else if (scenario === "forbidden") {
  const c = connect("forbidden-" + crypto.randomUUID());
  const closed = await c.closed();
  check(closed.code === 4403, "a forbidden thread closes with 4403, got " + closed.code);
  summary.reason = closed.reason;
} else if (scenario === "cancel") {
  const threadId = crypto.randomUUID();
  const c = connect(threadId);
  await c.opened;
  const started = await c.command("run.start", { assistant_id: "agent", input: say("hi there, tell me something") });
  check(started.type === "success", "run.start: " + JSON.stringify(started));
  const sub = await c.command("subscription.subscribe", { channels: ["lifecycle", "messages"] });
  check(sub.type === "success" && typeof sub.result.subscription_id === "string", "subscribe answers with an id");
  const subIndex = c.frames.indexOf(sub);
  check(c.frames.slice(0, subIndex).every((f) => f.type !== "event"), "the subscribe answer comes before the events it replays");
  await c.next((f) => f.type === "event" && f.method === "messages" && f.params.data.event === "content-block-delta");
  const r = await fetch(base + "/threads/" + threadId + "/runs/" + started.result.run_id + "/cancel", { method: "POST" });
  check(r.status === 202 || r.status === 200 || r.status === 204, "the classic cancel endpoint accepts");
  const end = await c.next(isRootTerminal);
  check(end.params.data.event === "interrupted", "a cancelled run ends with the root lifecycle interrupted, got " + end.params.data.event);
  check(c.frames.filter(isRootTerminal).length === 1, "one root terminal event");
  const after = await c.command("state.get", { namespace: [] });
  check(after.type === "success" && c.ws.readyState === WebSocket.OPEN, "the socket stays open after the run's end");
  const tree = await c.command("agent.getTree", {});
  check(tree.type === "success" && tree.result.tree.status === "interrupted", "agent.getTree shows the run interrupted: " + JSON.stringify(tree));
  summary.events = c.frames.filter((f) => f.type === "event").length;
  c.ws.close();
} else if (scenario === "halfopen") {
  // a client that stops answering pings (autoPong off): the server must find it and close it
  const c = connect(crypto.randomUUID(), { autoPong: false });
  await c.opened;
  const sub = await c.command("subscription.subscribe", { channels: ["lifecycle"] });
  check(sub.type === "success", "subscribed");
  const closed = await c.closed();
  check(closed.code === 1001 || closed.code === 1006, "the server closed the silent connection: " + closed.code + " " + closed.reason);
  summary.code = closed.code;
} else {
  check(false, "unknown scenario " + scenario);
}
summary.checks = checks;
console.log(JSON.stringify(summary));
process.exit(0);
