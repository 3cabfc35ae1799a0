// The chat page: a thread list, the conversation of the chosen thread, and a composer. Threads, assistants, runs
// and cancel go through the REST API; a turn is started and streamed through the thread protocol (ThreadConnection).
import { api, ApiError, credentials } from "./api.js";
import { ThreadConnection } from "./stream.js";
import { Conversation } from "./conversation.js";
import { ThreadList, title as threadTitle } from "./threads.js";
import { HistoryPanel } from "./history.js";
import { timeTravel } from "./timetravel.js";
import { loadAssistants } from "./assistants.js";
import { recordTurn, turnsOf, showTurns } from "./turnlog.js";
import { Attachments, describeFile } from "./attach.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const transport = params.get("transport") === "sse" ? "sse" : "websocket";

const ui = {
  picker: $("assistant"), input: $("input"), send: $("send"), stop: $("stop"), form: $("composer"),
  title: $("thread-title"), status: $("connection"), toast: $("toast"), totals: $("totals"),
};

const page = {
  threadId: null,
  connection: null,
  runId: null, // the run in flight, for the stop button
  busy: false,
  turnStarted: null, // when the current turn was sent, for its latency
  lastValues: null,
  fork: null, // {checkpoint_id, step}: the step the next message continues from (time travel), or null
};

const EMPTY_HINT = "<h2>How can I help?</h2><p>Try <em>plan my week</em>, <em>good morning</em>, or pick the "
  + "<strong>tutor</strong> and say <em>quiz me on photosynthesis</em>.</p>";

const conversation = new Conversation($("messages"), {
  onAnswer: answer, onEdit: (row, text) => travel.edit(row, text), onRegenerate: (row) => travel.regenerate(row),
});
const travel = timeTravel({
  page, conversation, startRun: (input, checkpointId) => startRun(input, checkpointId), reopen: () => openThread(page.threadId),
  toast: (text) => toast(text), fail: (e) => fail(e), input: ui.input,
});
const setFork = travel.setFork;
const attachments = new Attachments({
  input: $("file"), tray: $("tray"), fail: (e) => fail(e),
  ensureThread: async () => {
    await page.opening?.catch(() => {});
    if (!page.threadId) await newThread();
    return page.threadId;
  },
  onUploaded: (f) => {
    conversation.root.querySelector(".empty")?.remove();
    conversation.note(describeFile(f), "note file");
  },
});
$("attach").onclick = () => $("file").click();
const historyPanel = new HistoryPanel($("history"), { onFork: (cp) => travel.forkFrom(cp) });
const threads = new ThreadList($("threads"), $("search"), {
  onOpen: (t) => openThread(t.thread_id).catch(fail),
  onDelete: deleteThread,
  onRename: (t, title) => api.renameThread(t.thread_id, title).then(() => {
    if (t.thread_id === page.threadId) ui.title.textContent = title;
    return threads.refresh();
  }).catch(fail),
});

function fail(error) {
  console.warn(error);
  if (error instanceof ApiError && error.status === 401) {
    // the service wants a key (conduit.auth.mode=api-key): ask for it where it is entered
    document.body.classList.add("needs-key");
    $("api-key").focus();
    toast(credentials.key() ? "This API key is not valid: enter another one." : "This service needs an API key: enter it under the chats.");
    return;
  }
  toast(error instanceof ApiError || error?.message ? error.message : String(error));
}

// ---- the API key (kept in this tab only); the page starts over with it
$("api-key").value = credentials.key();
$("key-form").onsubmit = (e) => {
  e.preventDefault();
  credentials.set($("api-key").value.trim());
  location.reload();
};

let toastTimer;
function toast(text) {
  ui.toast.textContent = text;
  ui.toast.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { ui.toast.hidden = true; }, 6000);
}

function setBusy(busy) {
  page.busy = busy;
  document.body.classList.toggle("busy", busy);
  ui.stop.hidden = !busy;
  ui.send.hidden = busy;
}

// the user's choice applies to new chats; a chat with runs shows (and keeps) its own assistant
ui.picker.onchange = () => { page.preferred = ui.picker.value; };

// ---- threads

/** Opens a thread; a message sent meanwhile waits for it (page.opening). */
function openThread(threadId) {
  page.opening = showThread(threadId);
  return page.opening;
}

async function showThread(threadId) {
  page.connection?.close();
  page.connection = null;
  page.threadId = threadId;
  page.runId = null;
  page.lastValues = null;
  setFork(null);
  setBusy(false);
  historyPanel.refresh(threadId).catch(fail);
  history.replaceState(null, "", "#" + encodeURIComponent(threadId));
  threads.select(threadId);
  document.body.classList.remove("show-threads");
  conversation.clear();
  // first the newest seq, then the state: whatever happens after the seq is streamed, the rest is in the state
  const since = await api.lastSeq(threadId).catch(() => null);
  const [thread, state, files] = await Promise.all([api.getThread(threadId), api.state(threadId).catch(() => null),
    api.files(threadId).catch(() => [])]);
  if (page.threadId !== threadId) return; // another chat was opened meanwhile
  ui.title.textContent = thread.metadata?.title || (thread.values?.messages?.length ? threadTitle(thread) : "New chat");
  const bound = thread.metadata?.assistant_id;
  if (bound && [...ui.picker.options].some((o) => o.value === bound)) ui.picker.value = bound;
  else if (page.preferred) ui.picker.value = page.preferred;
  ui.picker.disabled = !!bound; // a thread belongs to one graph
  conversation.showState(state);
  for (const f of [...files].reverse()) conversation.root.prepend(conversation.note(describeFile(f), "note file"));
  showTurns(conversation, turnsOf(thread), state?.values?.llm_calls, state?.values?.messages);
  showTotals(state?.values);
  if (!state?.values?.messages?.length && !state?.interrupts?.length) {
    conversation.empty(EMPTY_HINT);
  }
  let from = { since };
  if (thread.status === "busy") {
    // a run is in flight (the page was reloaded mid-answer): its events replay from its start (what it streamed so
    // far is not in the state yet); those of the runs before it are passed over
    const live = (await api.runs(threadId)).find((r) => r.status === "running" || r.status === "pending");
    if (page.threadId !== threadId) return;
    if (live) {
      page.runId = live.run_id;
      setBusy(true);
      from = { notBefore: Date.parse(live.created_at) - 1 };
    }
  }
  page.connection = new ThreadConnection(threadId, { onEvent, onState: showConnection }, transport, from);
  page.connection.open();
  ui.input.focus();
}

function newThread() {
  page.opening = (async () => {
    const t = await api.createThread({ title: "New chat" });
    await threads.refresh();
    await showThread(t.thread_id);
  })();
  return page.opening;
}

async function deleteThread(t) {
  if (!confirm("Delete “" + (t.metadata?.title || "this chat") + "”?")) return;
  try {
    await api.deleteThread(t.thread_id);
  } catch (e) {
    fail(e.code === "conflict" || e.status === 409 ? new Error("This chat is answering: stop it first.") : e);
    return;
  }
  if (t.thread_id === page.threadId) {
    page.connection?.close();
    page.connection = null;
    page.threadId = null;
  }
  const rest = await threads.refresh();
  if (!page.threadId) rest.length ? openThread(rest[0].thread_id) : showNoThread();
}

function showConnection(state) {
  ui.status.dataset.state = state;
  ui.status.title = state === "live" ? "Connected (" + page.connection?.transport + ")" : state;
  ui.status.textContent = state === "live" ? (page.connection?.transport === "sse" ? "SSE" : "live") : state;
}

function showTotals(values) {
  const u = values?.usage;
  ui.totals.textContent = u && u.calls ? (u.inputTokens + u.outputTokens) + " tokens" + (u.costUsd > 0 ? " · $" + u.costUsd.toFixed(4) : "") : "";
}

// ---- a turn

function onEvent(event) {
  conversation.apply(event);
  const d = event.params.data || {};
  if (event.method === "values") { page.lastValues = d; return; }
  if (event.method !== "lifecycle" || event.params.namespace.length) return;
  if (d.event === "running") {
    setBusy(true);
  } else if (["completed", "interrupted", "failed"].includes(d.event)) {
    conversation.settle();
    if (d.event === "failed") conversation.note("The run failed: " + (d.error || "unknown error"), "note error");
    const stopped = d.event === "interrupted" && !conversation.pendingInterrupts().length;
    if (stopped) conversation.note("Stopped", "note");
    endTurn(stopped);
  }
}

async function endTurn(stopped) {
  const runId = page.runId;
  const threadId = page.threadId;
  const log = conversation.turnLog;
  conversation.turnLog = null;
  const wall = page.turnStarted != null ? performance.now() - page.turnStarted : null;
  page.turnStarted = null;
  page.runId = null;
  setBusy(false);
  let values = page.lastValues;
  if (!values?.llm_calls) values = (await api.state(page.threadId).catch(() => null))?.values;
  const calls = (values?.llm_calls || []).filter((c) => runId && c.runId === runId);
  if (runId) conversation.usage(calls, wall);
  const after = values?.messages?.at(-1)?.id;
  if (runId && after) {
    const record = { after, wall: wall == null ? null : Math.round(wall), replans: log?.replans || [], stopped: !!stopped };
    if (stopped) record.partial = log?.partial || "";
    recordTurn(threadId, runId, record).catch(fail);
  }
  showTotals(values);
  threads.refresh();
  historyPanel.refresh().catch(fail);
}

async function send(text) {
  await page.opening?.catch(() => {});
  if (!page.threadId) await newThread();
  conversation.root.querySelector(".empty")?.remove();
  const images = attachments.take();
  conversation.user(text, undefined, images.map((b) => b.image_url.url));
  const checkpointId = page.fork?.checkpoint_id;
  setFork(null);
  const content = images.length ? [{ type: "text", text }, ...images] : text;
  await startRun({ messages: [{ role: "user", content }] }, checkpointId);
  const title = ui.title.textContent;
  if (title === "New chat" && page.runId) {
    const short = text.length > 48 ? text.slice(0, 47) + "…" : text;
    ui.title.textContent = short;
    api.renameThread(page.threadId, short).then(() => threads.refresh()).catch(fail);
  }
}

/** Starts a run on the open thread: from its head, or from `checkpointId` (a fork: a new branch of the thread). */
async function startRun(input, checkpointId) {
  const threadId = page.threadId;
  page.turnStarted = performance.now();
  setBusy(true);
  conversation.waiting();
  try {
    const params = { assistant_id: ui.picker.value, input };
    if (checkpointId) params.config = { configurable: { checkpoint_id: checkpointId } };
    const started = await page.connection.send("run.start", params);
    if (threadId === page.threadId) page.runId = started.run_id;
    ui.picker.disabled = true;
  } catch (e) {
    setBusy(false);
    conversation.waited();
    page.turnStarted = null;
    fail(e);
  }
}

async function answer(interrupt, response) {
  page.turnStarted = performance.now();
  conversation.waiting();
  try {
    const r = await page.connection.send("input.respond", { namespace: interrupt.namespace, interrupt_id: interrupt.id, response });
    if (r?.run_id) page.runId = r.run_id;
    conversation.answered([interrupt.id]);
  } catch (e) {
    page.turnStarted = null;
    conversation.waited();
    fail(e);
    throw e;
  }
}

async function stop() {
  if (!page.runId) {
    const live = (await api.runs(page.threadId)).find((r) => r.status === "running" || r.status === "pending");
    if (!live) return;
    page.runId = live.run_id;
  }
  ui.stop.disabled = true;
  try {
    await api.cancel(page.threadId, page.runId); // the stream then ends the run `interrupted`
  } catch (e) {
    fail(e);
  } finally {
    ui.stop.disabled = false;
  }
}

// ---- composer

ui.form.onsubmit = (e) => {
  e.preventDefault();
  const text = ui.input.value.trim();
  if (!text || page.busy) return;
  ui.input.value = "";
  autosize();
  send(text);
};
ui.input.addEventListener("keydown", (e) => {
  if (e.key === "Enter" && !e.shiftKey && !e.isComposing) { e.preventDefault(); ui.form.requestSubmit(); }
});
function autosize() {
  ui.input.style.height = "auto";
  ui.input.style.height = Math.min(ui.input.scrollHeight, 200) + "px";
}
ui.input.addEventListener("input", autosize);
ui.stop.onclick = stop;
$("new-thread").onclick = () => newThread().catch(fail);
$("history-toggle").onclick = () => (historyPanel.shown ? historyPanel.hide() : historyPanel.show(page.threadId).catch(fail));
$("menu").onclick = () => document.body.classList.toggle("show-threads");
$("scrim").onclick = () => document.body.classList.remove("show-threads");

// for the browser test and the curious: drop the live connection as a network failure would
window.conduitChat = { dropConnection: () => page.connection?.drop(), page, historyPanel };

// ---- start

(async () => {
  try {
    page.preferred = await loadAssistants(ui.picker, params);
    const list = await threads.refresh();
    const wanted = decodeURIComponent(location.hash.slice(1));
    const existing = list.find((t) => t.thread_id === wanted);
    if (existing) await openThread(existing.thread_id);
    else if (wanted) await openThread(wanted).catch(() => newThread());
    else showNoThread(); // `/` is a new chat: its first message makes it (the list has the others)
  } catch (e) {
    fail(e);
  }
  page.ready = true;
})();

function showNoThread() {
  showConnection("idle");
  setFork(null);
  historyPanel.refresh(null).catch(fail);
  ui.title.textContent = "New chat";
  conversation.clear();
  conversation.empty(EMPTY_HINT);
}
