// One thread's live connection through the thread protocol (docs/api.md, "The thread protocol"): a WebSocket
// (commands and events in-band), or, when a WebSocket cannot be opened, HTTP: commands with POST /commands and
// events from an SSE response to POST /stream/events. Either way a dropped connection is opened again with
// `since` = the last seq received, so the server replays exactly what was missed: nothing lost, nothing twice.

import { credentials } from "./api.js";

const CHANNELS = ["messages", "tools", "lifecycle", "input", "custom", "values"];
const MAX_DELAY_MS = 5000;

export class ThreadConnection {
  /**
   * @param threadId the thread
   * @param handlers {onEvent(event), onState(state)}; state is "connecting" | "live" | "reconnecting" | "closed"
   * @param transport "websocket" (falls back to "sse" if the socket cannot open) or "sse"
   * @param from {since, notBefore}: replay only events after seq `since`; pass on (without showing them) events
   *        older than `notBefore` (server time, ms): those of runs that ended before the one the page resumes
   */
  constructor(threadId, handlers, transport = "websocket", from = {}) {
    this.threadId = threadId;
    this.handlers = handlers;
    this.transport = transport;
    this.lastSeq = from.since ?? null; // the newest seq received; the next subscription asks for what follows it
    this.notBefore = from.notBefore ?? null;
    this.nextId = 1;
    this.pending = new Map(); // command id -> {resolve, reject}, WebSocket only
    this.closed = false;
    this.attempt = 0;
    this.everOpened = false;
  }

  get path() { return "/threads/" + encodeURIComponent(this.threadId); }

  open() {
    this.handlers.onState(this.attempt === 0 ? "connecting" : "reconnecting");
    if (this.transport === "websocket" && typeof WebSocket === "function") this.openSocket();
    else this.openSse();
  }

  close() {
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.socket?.close(1000);
    this.sseAbort?.abort();
    for (const p of this.pending.values()) p.reject(new Error("connection closed"));
    this.pending.clear();
    this.handlers.onState("closed");
  }

  /** Drops the connection as a network failure would (the browser test uses it); it is opened again by itself. */
  drop() {
    if (this.socket) this.socket.close(3000); // not a close() of the page: onclose reconnects
    this.sseAbort?.abort();
  }

  subscribeParams() {
    const p = { channels: CHANNELS };
    if (this.lastSeq != null) p.since = this.lastSeq;
    return p;
  }

  /** With a key, a browser's WebSocket names a single-use ticket (it cannot send the key in a header). */
  openSocket() {
    credentials.ticket().then((ticket) => {
      if (!this.closed) this.connectSocket(ticket);
    }, () => {
      if (!this.closed) this.retry();
    });
  }

  connectSocket(ticket) {
    const url = new URL(this.path + "/stream/events", location.href);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    if (ticket) url.searchParams.set("ticket", ticket);
    let socket;
    try {
      socket = new WebSocket(url);
    } catch {
      this.fallBack();
      return;
    }
    this.socket = socket;
    let opened = false;
    socket.onopen = () => {
      opened = true;
      this.everOpened = true;
      this.send("subscription.subscribe", this.subscribeParams()).then(() => {
        this.attempt = 0;
        this.handlers.onState("live");
      }, () => {});
    };
    socket.onmessage = (m) => this.receive(JSON.parse(m.data));
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      for (const p of this.pending.values()) p.reject(new Error("connection lost"));
      this.pending.clear();
      if (this.closed) return;
      if (!opened && !this.everOpened) this.fallBack(); // never opened: no WebSocket on this path, use HTTP
      else this.retry();
    };
  }

  fallBack() {
    this.transport = "sse";
    this.openSse();
  }

  async openSse() {
    const abort = new AbortController();
    this.sseAbort = abort;
    try {
      const res = await fetch(this.path + "/stream/events", {
        method: "POST", signal: abort.signal,
        headers: { accept: "text/event-stream", "content-type": "application/json", ...credentials.headers() },
        body: JSON.stringify(this.subscribeParams()),
      });
      if (!res.ok || !res.body) throw new Error("HTTP " + res.status);
      this.attempt = 0;
      this.handlers.onState("live");
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += value;
        let cut;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const frame = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const data = frame.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trimStart()).join("\n");
          if (data) this.receive(JSON.parse(data));
        }
      }
    } catch {
      // an aborted or failed stream: retried below unless the page closed it
    }
    if (this.sseAbort === abort && !this.closed) this.retry();
  }

  retry() {
    this.attempt++;
    this.handlers.onState("reconnecting");
    const delay = Math.min(250 * 2 ** (this.attempt - 1), MAX_DELAY_MS);
    this.retryTimer = setTimeout(() => { if (!this.closed) this.open(); }, delay);
  }

  receive(message) {
    if (message.type === "event") {
      // one subscription per connection: its events come in seq order, replay first; older ones were seen already
      if (this.lastSeq != null && message.seq <= this.lastSeq) return;
      this.lastSeq = message.seq;
      if (this.notBefore == null || message.params.timestamp >= this.notBefore) this.handlers.onEvent(message);
    } else if (message.id != null && this.pending.has(message.id)) {
      const p = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.type === "success") p.resolve(message.result);
      else p.reject(Object.assign(new Error(message.message || message.error), { code: message.error }));
    }
  }

  /** Sends a command: in-band on the WebSocket, else POST /commands. Resolves with its result. */
  send(method, params) {
    if (this.closed) return Promise.reject(new Error("this chat is no longer open"));
    const id = this.nextId++;
    const command = { id, method, params };
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      return new Promise((resolve, reject) => {
        this.pending.set(id, { resolve, reject });
        this.socket.send(JSON.stringify(command));
      });
    }
    return fetch(this.path + "/commands", {
      method: "POST", headers: { "content-type": "application/json", accept: "application/json", ...credentials.headers() },
      body: JSON.stringify(command),
    }).then((r) => r.json()).then((answer) => {
      if (answer.type === "success") return answer.result;
      throw Object.assign(new Error(answer.message || answer.error || answer.detail), { code: answer.error || answer.code });
    });
  }
}
