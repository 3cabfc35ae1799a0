// LangGraph crons (issue 21) with the official SDK, 1.15 or 2.0: crons.createForThread, create, search, count, update
// and delete, their records' shapes, and the bad requests (422 with a code, 404, nothing stored), with fetch where the
// SDK has no call. Two phases, so the Java test can make the thread's cron due in between:
//   api   — everything but a tick; prints {"sdk","checks","cron_id","thread_id"} (the thread's cron, enabled, kept)
//   fired — the tick's run is on the thread (the Java test made it due and polled the scheduler): its metadata names
//           the cron, it ends in success and its answer is in the thread's state; then the cron is deleted.
// Every check that fails exits non-zero with "FAILED [step] what"; success prints one JSON line.
// Usage: node src/test/js/langgraph-sdk-crons.mjs <base URL> <SDK package> api
//        node src/test/js/langgraph-sdk-crons.mjs <base URL> <SDK package> fired <cron id> <thread id>
import { isDeepStrictEqual, inspect } from "node:util";

const [baseUrl, pkg, phase, cronArg, threadArg] = process.argv.slice(2);
if (!baseUrl || !pkg || !phase) {
  console.error("usage: node langgraph-sdk-crons.mjs <base URL> <SDK package> api|fired [cron id] [thread id]");
  process.exit(2);
}
const { Client } = await import(pkg);
const client = new Client({ apiUrl: baseUrl, callerOptions: { maxRetries: 0 } });
const sdk1 = pkg === "@langchain/langgraph-sdk";
const TAG = `crons-${pkg}-${Date.now()}`;
const INPUT = { messages: [{ role: "user", content: "Please plan my week" }] };

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
async function json(path, init = {}) {
  const r = await fetch(baseUrl + path, { ...init, headers: { "content-type": "application/json", ...(init.headers ?? {}) } });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : null };
}
const post = (path, body) => json(path, { method: "POST", body: JSON.stringify(body) });
const isDate = (s) => typeof s === "string" && !Number.isNaN(Date.parse(s));

async function api() {
  step = "createForThread";
  const thread = await client.threads.create({ metadata: { tag: TAG } });
  const onThread = await client.crons.createForThread(thread.thread_id, "agent", {
    schedule: "*/5 * * * *", input: INPUT, metadata: { tag: TAG, kind: "thread" }, multitaskStrategy: "enqueue",
    ...(sdk1 ? { timezone: "Europe/Paris" } : {}),
  });
  check(typeof onThread.cron_id === "string" && onThread.cron_id.length > 0, "a cron id", onThread);
  equal(onThread.thread_id, thread.thread_id, "the cron is the thread's");
  equal(onThread.schedule, "*/5 * * * *", "its schedule as given");
  equal(onThread.timezone, sdk1 ? "Europe/Paris" : null, "its time zone (SDK 2.0 sends none: UTC)");
  equal(onThread.enabled, true, "enabled unless asked otherwise");
  check(isDate(onThread.next_run_date) && Date.parse(onThread.next_run_date) > Date.now() - 1000, "its next run is to come", onThread);
  check(new Date(onThread.next_run_date).getUTCMinutes() % 5 === 0, "on the five minutes", onThread.next_run_date);
  check(isDate(onThread.created_at) && isDate(onThread.updated_at), "created_at and updated_at", onThread);
  equal(onThread.payload.input, INPUT, "its runs' input in its payload");
  equal(onThread.payload.multitask_strategy, "enqueue", "its runs' multitask strategy in its payload");
  equal(onThread.metadata, { tag: TAG, kind: "thread" }, "its metadata");

  step = "create";
  const stateless = await client.crons.create("agent", {
    schedule: "0 9 * * 1", input: INPUT, metadata: { tag: TAG, kind: "stateless" }, onRunCompleted: "keep",
    ...(sdk1 ? { endTime: "2099-01-01T00:00:00Z" } : {}),
  });
  equal(stateless.thread_id, null, "a cron without a thread: a new one per run");
  equal(stateless.on_run_completed, "keep", "on_run_completed as asked");
  equal(new Date(stateless.next_run_date).getUTCDay(), 1, "its next run on a Monday");
  equal(stateless.end_time, sdk1 ? "2099-01-01T00:00:00Z" : null, "its end time");

  step = "search";
  const mine = await client.crons.search({ threadId: thread.thread_id });
  equal(mine.map((c) => c.cron_id), [onThread.cron_id], "search by thread");
  equal(mine[0], onThread, "a searched cron is the created one");
  if (sdk1) {
    const tagged = await client.crons.search({ metadata: { tag: TAG }, sortBy: "created_at", sortOrder: "asc" });
    equal(tagged.map((c) => c.cron_id), [onThread.cron_id, stateless.cron_id], "search by metadata, oldest first");
  }
  const picked = await client.crons.search({ threadId: thread.thread_id, select: ["cron_id", "schedule"] });
  equal(picked, [{ cron_id: onThread.cron_id, schedule: "*/5 * * * *" }], "select: those fields only");
  const paged = await client.crons.search({ assistantId: onThread.assistant_id, limit: 1 });
  equal(paged.length, 1, "limit");

  step = "count";
  equal(await client.crons.count({ threadId: thread.thread_id }), 1, "count by thread");
  check((await client.crons.count({ assistantId: onThread.assistant_id })) >= 2, "count by assistant");

  step = "update";
  const off = await client.crons.update(onThread.cron_id, { schedule: "0 * * * *", enabled: false, metadata: { tag: TAG, kind: "off" } });
  equal([off.schedule, off.enabled, off.metadata.kind], ["0 * * * *", false, "off"], "update: schedule, enabled, metadata");
  equal(new Date(off.next_run_date).getUTCMinutes(), 0, "the next run follows the new schedule");
  check(Date.parse(off.updated_at) >= Date.parse(onThread.updated_at), "updated_at moves", off);
  equal(off.payload.input, INPUT, "what update does not name stays");
  equal((await client.crons.search({ threadId: thread.thread_id, enabled: false })).length, 1, "search by enabled");
  const on = await client.crons.update(onThread.cron_id, { enabled: true });
  equal(on.enabled, true, "enabled again");

  step = "bad input";
  const before = await client.crons.count({});
  for (const [body, field] of [
    [{ assistant_id: "agent", schedule: "61 * * * *" }, "schedule"],
    [{ assistant_id: "agent", schedule: "every day" }, "schedule"],
    [{ assistant_id: "agent" }, "schedule"],
    [{ assistant_id: "agent", schedule: "* * * * *", timezone: "Mars/Olympus_Mons" }, "timezone"],
    [{ assistant_id: "agent", schedule: "* * * * *", end_time: "tomorrow" }, "end_time"],
    [{ assistant_id: "agent", schedule: "* * * * *", on_run_completed: "archive" }, "on_run_completed"],
    [{ assistant_id: "agent", schedule: "* * * * *", multitask_strategy: "whatever" }, "multitask_strategy"],
    [{ assistant_id: "agent", schedule: "* * * * *", webhook: "http://evil.example.com/hook" }, "webhook"],
    [{ schedule: "* * * * *" }, "assistant_id"],
  ]) {
    const r = await post("/runs/crons", body);
    check(r.status === 422 && typeof r.body?.code === "string" && r.body.detail.includes(field),
      `422 with a code naming ${field}`, body, r);
  }
  const noThread = await post("/threads/no-such-thread/runs/crons", { assistant_id: "agent", schedule: "* * * * *" });
  equal(noThread.status, 404, "a cron on a thread that does not exist");
  const noAssistant = await post("/runs/crons", { assistant_id: "no-such-assistant", schedule: "* * * * *" });
  equal(noAssistant.status, 404, "a cron of an assistant that does not exist");
  const onThreadKeep = await post(`/threads/${thread.thread_id}/runs/crons`, { assistant_id: "agent", schedule: "* * * * *", on_run_completed: "keep" });
  equal(onThreadKeep.status, 422, "on_run_completed is for a cron without a thread");
  equal((await post("/runs/crons/search", { sort_by: "schedule" })).status, 422, "sort_by a column crons do not sort by");
  equal((await post("/runs/crons/search", { select: ["secret"] })).status, 422, "select a field crons do not have");
  const badPatch = await json(`/runs/crons/${onThread.cron_id}`, { method: "PATCH", body: JSON.stringify({ schedule: "* *" }) });
  equal(badPatch.status, 422, "an update to a bad schedule");
  equal((await client.crons.search({ threadId: thread.thread_id }))[0].schedule, "0 * * * *", "and the cron kept its schedule");
  equal(await client.crons.count({}), before, "nothing was stored");

  step = "delete";
  await client.crons.delete(stateless.cron_id);
  equal((await client.crons.search({ assistantId: stateless.assistant_id, limit: 1000 })).some((c) => c.cron_id === stateless.cron_id),
    false, "a deleted cron is not found");
  equal((await json(`/runs/crons/${stateless.cron_id}`, { method: "DELETE" })).status, 404, "deleting it again: 404");
  equal((await json(`/runs/crons/${stateless.cron_id}`, { method: "PATCH", body: "{}" })).status, 404, "updating it: 404");

  return { cron_id: onThread.cron_id, thread_id: thread.thread_id };
}

async function fired(cronId, threadId) {
  step = "fired";
  const runs = await client.runs.list(threadId);
  equal(runs.length, 1, "the tick made one run on the cron's thread");
  const run = runs[0];
  equal(run.metadata.cron_id, cronId, "the run names its cron");
  equal(run.multitask_strategy, "enqueue", "the run has the cron's multitask strategy");
  await client.runs.join(threadId, run.run_id);
  equal((await client.runs.get(threadId, run.run_id)).status, "success", "the run succeeded");
  const state = await client.threads.getState(threadId);
  const messages = state.values.messages ?? [];
  equal(messages[0]?.content, INPUT.messages[0].content, "the cron's input is the thread's first message");
  check(messages.length >= 2 && messages.at(-1).type === "ai", "the assistant answered", messages);

  step = "thread deleted";
  await client.threads.delete(threadId);
  equal((await json(`/runs/crons/${cronId}`, { method: "DELETE" })).status, 404, "a thread's crons go with it");
  return {};
}

try {
  const out = phase === "api" ? await api() : await fired(cronArg, threadArg);
  console.log(JSON.stringify({ sdk: pkg, checks, ...out }));
} catch (e) {
  console.error(e instanceof CheckFailed ? e.message : `FAILED [${step}] ${e?.stack ?? e}`);
  process.exit(1);
}
