import WebSocket from "ws";
const ws = new WebSocket("ws://localhost:8093/threads/" + crypto.randomUUID() + "/stream/events");
ws.on("message", (d) => { const f = JSON.parse(d.toString()); if (f.type !== "event") return;
  const e = f.params.data; if (f.method === "tools" || (f.method === "messages" && (e.event !== "content-block-delta" || e.delta.type !== "text-delta")) || f.method==="lifecycle" && f.params.namespace.length===0) console.log(f.seq, f.method, JSON.stringify(f.params.namespace), JSON.stringify(e).slice(0, 250));
  if (f.method === "lifecycle" && f.params.namespace.length === 0 && e.event !== "running") process.exit(0); });
ws.on("open", () => {
  ws.send(JSON.stringify({ id: 1, method: "run.start", params: { assistant_id: "agent", input: { messages: [{ role: "user", content: process.argv[2] }] } } }));
  ws.send(JSON.stringify({ id: 2, method: "subscription.subscribe", params: { channels: ["lifecycle", "messages", "tools"] } }));
});
