// The thread protocol over a raw WebSocket (npm ws): what the SDK never sends. Usage:
// node thread-protocol-ws.mjs <baseUrl> <scenario> [arg]; scenarios: errors | oversized <bytes> | forbidden | full | cancel | overlap | runs | slow <text> | halfopen.
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

/** Each streamed message's text, in order, as a client assembles it from the content-block deltas. */
function texts(events) {
  const out = [];
  for (const f of events) {
    if (f.method !== "messages") continue;
    const d = f.params.data;
    if (d.event === "message-start") out.push("");
    else if (d.event === "content-block-delta" && d.delta.type === "text-delta") out[out.length - 1] += d.delta.text;
  }
  return out;
}

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
} else if (scenario === "full") {
  // the replica is at its stream limit (conduit.limits.max-streams): the socket is closed with 4429, which the SDK retries
  const c = connect(crypto.randomUUID());
  const closed = await c.closed();
  check(closed.code === 4429, "a socket past the stream limit closes with 4429, got " + closed.code);
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
} else if (scenario === "overlap") {
  // two subscriptions that both match lifecycle events, made before any run: each event comes once
  const threadId = crypto.randomUUID();
  const c = connect(threadId);
  await c.opened;
  const a = await c.command("subscription.subscribe", { channels: ["lifecycle"] });
  const b = await c.command("subscription.subscribe", { channels: ["lifecycle", "messages"], namespaces: [["generator"]] });
  const r = await c.command("subscription.subscribe", { channels: ["lifecycle"], namespaces: [[]], depth: 0 });
  check(a.result.replayed_events === 0 && b.type === "success" && r.type === "success", "subscribed before any run, nothing to replay");
  await c.command("run.start", { assistant_id: "agent", input: say("Please plan my week") });
  await c.next(isRootTerminal);
  const events = c.frames.filter((f) => f.type === "event");
  const ids = events.map((e) => e.event_id);
  check(new Set(ids).size === ids.length, "one copy of each event per connection: " + ids.length + " frames, " + new Set(ids).size + " ids");
  check(events.every((e) => e.method === "lifecycle" || (e.method === "messages" && e.params.namespace[0].startsWith("generator:"))),
    "only what some subscription asked for");
  check(events.some((e) => e.method === "messages"), "the generator's messages came");
  check(ids.every((id, i) => i === 0 || Number(id) > Number(ids[i - 1])), "live events in seq order");
  // a late subscription replays the run's matching events, after its answer, with their original ids
  const late = await c.command("subscription.subscribe", { channels: ["lifecycle"], namespaces: [[]], depth: 0 });
  const at = c.frames.indexOf(late);
  await c.next(() => c.frames.length >= at + 1 + late.result.replayed_events);
  const replayed = c.frames.slice(at + 1, at + 1 + late.result.replayed_events);
  check(late.result.replayed_events === 2 && replayed.length === 2, "the late subscription replays the root running and completed: " + JSON.stringify(late) + JSON.stringify(replayed));
  check(replayed[0].event_id === events.find((e) => e.params.namespace.length === 0).event_id, "replayed with the original event_id");
  // unsubscribe: the next run's lifecycle still comes (others match), messages do not
  check((await c.command("subscription.unsubscribe", { subscription_id: b.result.subscription_id })).type === "success", "unsubscribe");
  const before = c.frames.length;
  await c.command("run.start", { assistant_id: "agent", input: say("again") });
  await c.next((f) => isRootTerminal(f) && c.frames.indexOf(f) > before);
  check(c.frames.slice(before).every((f) => f.type !== "event" || f.method === "lifecycle"), "no messages after their subscription ended");
  summary.events = events.length;
  c.ws.close();
} else if (scenario === "runs") {
  // run.start's multitask rules and input.inject, as the classic API's
  const threadId = crypto.randomUUID();
  const c = connect(threadId);
  await c.opened;
  await c.command("subscription.subscribe", { channels: ["lifecycle", "values"], namespaces: [[]], depth: 0 });
  const first = await c.command("run.start", { assistant_id: "agent", input: say("hi there, tell me something") });
  check(first.type === "success", "run.start");
  const busy = await c.command("run.start", { assistant_id: "agent", input: say("hi"), multitask_strategy: "reject" });
  check(busy.type === "error" && busy.error === "invalid_argument", "reject on a busy thread: " + JSON.stringify(busy));
  const injected = await c.command("input.inject", { namespace: [], message: { role: "user", content: "one more thing" } });
  check(injected.type === "success" && injected.result.run_id !== first.result.run_id, "input.inject queues a run: " + JSON.stringify(injected));
  await c.next(() => c.frames.filter(isRootTerminal).length === 2);
  const terminals = c.frames.filter(isRootTerminal).map((f) => f.params.data.event);
  check(terminals.join() === "completed,completed", "both runs complete in turn: " + terminals);
  const st = await c.command("state.get", { namespace: [] });
  const humans = st.result.values.messages.filter((m) => m.type === "human").map((m) => m.content);
  check(humans.join("|") === "hi there, tell me something|one more thing", "the injected message follows the first turn: " + humans);
  const canon = (v) => JSON.stringify(v, (k, x) => x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort()) : x);
  const lastValues = c.frames.filter((f) => f.type === "event" && f.method === "values").pop();
  check(canon(st.result.values.messages) === canon(lastValues.params.data.messages),
    "state.get's values are the last values event's: " + canon(st.result.values.messages).slice(0, 300) + " vs " + canon(lastValues.params.data.messages).slice(0, 300));
  const runs = await (await fetch(base + "/threads/" + threadId + "/runs")).json();
  check(runs.length === 2 && runs.every((r) => r.kwargs.__protocol_stream_run === true), "the protocol's runs are ordinary runs");
  const bad = await c.command("input.inject", { namespace: [], message: { role: "assistant", content: "x" } });
  check(bad.error === "invalid_argument", "input.inject takes user or system messages");
  // a fork through run.start's config.configurable.checkpoint_id
  const cps = await c.command("state.listCheckpoints", { limit: 1000 });
  const oldest = cps.result.checkpoints[cps.result.checkpoints.length - 1].id;
  const fork = await c.command("run.start", { assistant_id: "agent", input: say("a new branch"), config: { configurable: { checkpoint_id: oldest } } });
  check(fork.type === "success", "run.start forks from a checkpoint: " + JSON.stringify(fork));
  await c.next(() => c.frames.filter(isRootTerminal).length === 3);
  const forked = await c.command("state.get", { namespace: [] });
  const branch = forked.result.values.messages.filter((m) => m.type === "human").map((m) => m.content);
  check(branch[branch.length - 1] === "a new branch" && !branch.includes("one more thing"),
    "the fork starts from the old checkpoint, without what came after it: " + branch);
  summary.runs = 3;
  c.ws.close();
} else if (scenario === "slow") {
  // one client stops reading mid-run beside one that keeps up (arg: the text the simulator streams back): the slow one's
  // text deltas are merged, then it is closed with 4408 slow_consumer; the fast one gets the log's events unchanged;
  // the slow one resubscribes after the last event it received and gets the rest, every character exactly once
  const thread = crypto.randomUUID();
  const channels = ["messages", "lifecycle"];
  const slow = connect(thread);
  const fast = connect(thread);
  await slow.opened;
  await fast.opened;
  check((await slow.command("subscription.subscribe", { channels })).type === "success", "the slow client subscribed");
  slow.ws.pause(); // reads nothing more until the run is over: its socket, then its outbox, fill
  check((await fast.command("subscription.subscribe", { channels })).type === "success", "the fast client subscribed");
  const started = await fast.command("run.start", { assistant_id: "agent", input: say(arg) });
  check(started.type === "success", "run.start: " + JSON.stringify(started));
  await fast.next(isRootTerminal);
  const fastEvents = fast.frames.filter((f) => f.type === "event");
  check(fastEvents.filter((f) => f.params.data.event === "content-block-delta").length > 1000, "the fast client got every token");

  const whole = connect(thread);
  await whole.opened;
  check((await whole.command("subscription.subscribe", { channels })).type === "success", "a replay of the whole thread");
  await whole.next(isRootTerminal);
  const logged = whole.frames.filter((f) => f.type === "event");
  check(JSON.stringify(fastEvents) === JSON.stringify(logged), "the fast client got each event as the log holds it, nothing merged or missing");

  slow.ws.resume();
  const closed = await slow.closed();
  check(closed.code === 4408 && closed.reason.startsWith("slow_consumer"), "the slow client is closed 4408 slow_consumer: " + closed.code + " " + closed.reason);
  const merged = Number((/merging (\d+) text deltas/.exec(closed.reason) || [])[1]);
  check(merged > 0, "its text deltas were merged before it was dropped: " + closed.reason);
  const got = slow.frames.filter((f) => f.type === "event");
  check(got.length > 0, "it got what its socket held");
  check(got.every((f, i) => i === 0 || f.seq > got[i - 1].seq), "in order, each once");
  const lastSeq = got[got.length - 1].seq;
  check(lastSeq < fastEvents[fastEvents.length - 1].seq, "it was dropped before the end");

  const again = connect(thread);
  await again.opened;
  check((await again.command("subscription.subscribe", { channels, since: lastSeq })).type === "success", "resubscribed after " + lastSeq);
  await again.next(isRootTerminal);
  const rest = again.frames.filter((f) => f.type === "event");
  check(rest[0].seq > lastSeq, "the rest starts after the last event it got");
  check(JSON.stringify(texts(got.concat(rest))) === JSON.stringify(texts(fastEvents)), "every character exactly once after the reconnect");
  check(texts(fastEvents).some((t) => t.split("tick").length > 1000), "the long answer streamed");
  summary.merged = merged;
  summary.beforeDrop = got.length;
  summary.afterReconnect = rest.length;
  for (const c of [slow, fast, whole, again]) c.ws.close();
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
