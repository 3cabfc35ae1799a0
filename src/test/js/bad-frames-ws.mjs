// Frames no SDK sends, over a raw WebSocket (npm ws), to both WebSocket endpoints: the thread protocol's and AG-UI's.
// Usage: node bad-frames-ws.mjs <baseUrl> <scenario> <threadId>; scenarios:
//   protocol-utf8 | agui-utf8: a text frame whose bytes are not UTF-8 (also split over two fragments): closed with 1007
//   protocol-text: run.start with NUL and a lone surrogate in its metadata and input: an invalid_argument error naming
//                  the field, and the socket stays open
//   agui-text: a RunAgentInput with NUL in a message, then in a front-end tool's description: a RUN_ERROR invalid_input
//              naming the field, and the socket stays open
// Prints one JSON summary line; any failed check exits 1 with "FAILED ...".
import WebSocket from "ws";

const [base, scenario, threadId] = process.argv.slice(2);
const wsBase = base.replace(/^http/, "ws");
let checks = 0;
function check(ok, what) {
  checks++;
  if (!ok) {
    console.error("FAILED [" + scenario + "] " + what);
    process.exit(1);
  }
}

function connect(path, protocols) {
  const ws = new WebSocket(wsBase + path, protocols);
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
  return {
    ws, opened,
    next(test) {
      const found = frames.find(test);
      return found ? Promise.resolve(found) : new Promise((resolve) => waiters.push({ test, resolve }));
    },
    closed() { return closed ? Promise.resolve(closed) : new Promise((r) => closedWaiters.push(r)); },
    isOpen() { return closed === null && ws.readyState === WebSocket.OPEN; },
  };
}

/** A JSON text whose message content holds the byte 0xFF (never valid in UTF-8), as raw bytes. */
function invalidUtf8(json) {
  const [before, after] = json.split("@@");
  return Buffer.concat([Buffer.from(before, "utf8"), Buffer.from([0xff, 0xfe]), Buffer.from(after, "utf8")]);
}

const runStart = (content, metadata) => JSON.stringify({ id: 1, method: "run.start",
  params: { assistant_id: "agent", metadata, input: { messages: [{ role: "user", content }] } } });
const agUiInput = (content, tools = []) => JSON.stringify({ threadId, runId: "r-" + crypto.randomUUID(), state: {}, tools, context: [],
  forwardedProps: {}, messages: [{ id: "u-" + crypto.randomUUID(), role: "user", content }] });

async function closesWith1007(path, protocols, bytes, fragmented) {
  const c = connect(path, protocols);
  await c.opened;
  check(c.isOpen(), "the socket opened");
  if (fragmented) {
    // the bad byte in the second fragment: a text message is checked across its fragments
    const cut = bytes.indexOf(0xff);
    c.ws.send(bytes.subarray(0, cut), { binary: false, fin: false });
    c.ws.send(bytes.subarray(cut), { binary: false, fin: true });
  } else {
    c.ws.send(bytes, { binary: false });
  }
  // an answer instead of the close is the failure this guards against: it fails at once rather than waiting
  const closed = await Promise.race([c.closed(), c.next(() => true).then((f) => ({ code: "answered", reason: JSON.stringify(f) }))]);
  check(closed.code === 1007, "invalid UTF-8 in a text frame closes with 1007 (" + path + (fragmented ? ", fragmented" : "") + "), got "
    + closed.code + " " + closed.reason);
  return closed;
}

const summary = { scenario };
if (scenario === "protocol-utf8") {
  const path = "/threads/" + threadId + "/stream/events";
  const bytes = invalidUtf8(runStart("hello @@ there", {}));
  summary.reason = (await closesWith1007(path, undefined, bytes, false)).reason;
  await closesWith1007(path, undefined, bytes, true);
} else if (scenario === "agui-utf8") {
  const bytes = invalidUtf8(agUiInput("hello @@ there"));
  summary.reason = (await closesWith1007("/ag-ui", ["ag-ui"], bytes, false)).reason;
  await closesWith1007("/ag-ui", ["ag-ui"], bytes, true);
} else if (scenario === "protocol-text") {
  const c = connect("/threads/" + threadId + "/stream/events");
  await c.opened;
  const cases = [[runStart("hello", { note: "a\u0000b" }), "params.metadata.note"],
    [runStart("hello \ud800 there", {}), "params.input.messages[0].content"],
    [runStart("hello", { ["k\u0000"]: 1 }), "params.metadata"]];
  for (const [frame, field] of cases) {
    c.ws.send(frame);
    const f = await c.next((x) => x.type === "error" && !x.seen);
    f.seen = true;
    check(f.id === 1 && f.error === "invalid_argument" && f.message.startsWith(field),
      "unstorable text is invalid_argument naming " + field + ": " + JSON.stringify(f));
  }
  check(c.isOpen(), "the socket stays open");
  c.ws.close();
} else if (scenario === "agui-text") {
  const c = connect("/ag-ui", ["ag-ui"]);
  await c.opened;
  const cases = [[agUiInput("a\u0000b"), "messages[0].content"],
    [agUiInput("hello", [{ name: "pick", description: "a\u0000b", parameters: { type: "object" } }]), "tools[0].description"]];
  for (const [frame, field] of cases) {
    c.ws.send(frame);
    const f = await c.next((x) => x.type === "RUN_ERROR" && !x.seen);
    f.seen = true;
    check(f.code === "invalid_input" && f.message.startsWith(field), "a NUL is a RUN_ERROR invalid_input naming " + field + ": " + JSON.stringify(f));
  }
  check(c.isOpen(), "the socket stays open");
  c.ws.close();
} else {
  check(false, "unknown scenario " + scenario);
}
summary.checks = checks;
console.log(JSON.stringify(summary));
process.exit(0);
