// useStream's interrupt handling after a reload, in headless Chromium: a test-only page built on LangGraph's React hook
// (src/test/js/use-stream/, bundled here with esbuild into <artifactDir>, served by a static server on a free port,
// so the page talks to Conduit cross-origin as a separately hosted front end does) asks the agent something it
// cannot find; the agent's clarifying question (an interrupt) shows; the page is reloaded; the question must show
// again, with the same interrupt id and not as a bare breakpoint; answering it (Command resume by that id) ends the run.
// The server must allow the page's origin (http://127.0.0.1:<any port>) by CORS.
// Usage: node use-stream-reload.mjs <baseUrl> <artifactDir>. Prints one JSON line: the summary, or {"skipped": why}
// when Chromium cannot run here. A failed check or a console error of the page exits 1 with "FAILED ...".
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import { deleteThreads, launchChromium, runInBrowser } from "./browser-run.mjs";

const [base, artifacts] = process.argv.slice(2);
const here = join(dirname(fileURLToPath(import.meta.url)), "use-stream");
let checks = 0;
function check(ok, what) {
  checks++;
  if (!ok) throw new Error(what);
}

// 1. the page: one bundle of React, react-dom and the SDK's useStream
mkdirSync(artifacts, { recursive: true });
await esbuild.build({
  entryPoints: [join(here, "page.jsx")], bundle: true, outfile: join(artifacts, "page.js"), format: "iife",
  jsx: "automatic", define: { "process.env.NODE_ENV": '"production"' }, logLevel: "error",
});
copyFileSync(join(here, "index.html"), join(artifacts, "index.html"));
const files = { "/index.html": "text/html", "/page.js": "text/javascript" };
const server = createServer((req, res) => {
  const path = new URL(req.url, "http://x").pathname;
  if (path === "/favicon.ico") { res.writeHead(204).end(); return; } // or Chromium logs its 404 as a console error
  if (!files[path]) { res.writeHead(404).end(); return; }
  res.writeHead(200, { "content-type": files[path] }).end(readFileSync(join(artifacts, path.slice(1))));
});
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const pageBase = "http://127.0.0.1:" + server.address().port;

const api = async (method, path, body) => {
  const r = await fetch(base + path, { method, headers: { "content-type": "application/json" }, body: body && JSON.stringify(body) });
  if (!r.ok) throw new Error(method + " " + path + " answered " + r.status + ": " + await r.text());
  return r.status === 204 ? null : r.json();
};
// an agent that asks instead of re-planning when its tools find nothing
const assistant = await api("POST", "/assistants", { graph_id: "agent", name: "use-stream reload test",
  config: { configurable: { retry_budget: 0, clarify_on_failure: true } } });

const profile = join(tmpdir(), "conduit-use-stream-" + process.pid);
const browser = await launchChromium(profile, { viewport: { width: 900, height: 700 } }, () => server.close());
const consoleErrors = [];
const page = browser.pages()[0] ?? await browser.newPage();
page.on("console", (m) => { if (m.type() === "error") consoleErrors.push(m.text()); });
page.on("pageerror", (e) => consoleErrors.push("uncaught: " + e.message));
page.on("response", (r) => { if (r.status() >= 400) consoleErrors.push(r.status() + " " + r.request().method() + " " + r.url()); });
page.setDefaultTimeout(60000);

const summary = {};
let threadId;
await runInBrowser({
  browser, page, profile, screenshot: join(artifacts, "failed.png"),
  detail: () => consoleErrors.length ? "\nconsole: " + consoleErrors.join("\n") : "",
  cleanUp: async () => {
    server.close();
    if (threadId) await deleteThreads(base, [threadId]);
    await fetch(base + "/assistants/" + assistant.assistant_id, { method: "DELETE" }).catch(() => {});
  },
}, async () => {
  const url = pageBase + "/index.html?" + new URLSearchParams({ api: base, assistant: assistant.assistant_id });
  await page.goto(url);
  await page.fill("#input", "please plan my week");
  await page.click("#composer button");

  // 2. live: the run ends at the agent's question
  await page.waitForSelector("#app[data-state=interrupted] #interrupt");
  threadId = await page.getAttribute("#app", "data-thread");
  check(threadId, "useStream created a thread and the page put it in the URL");
  const liveId = await page.getAttribute("#interrupt", "data-id");
  const state = await api("GET", "/threads/" + threadId + "/state");
  const pending = state.tasks.flatMap((t) => t.interrupts);
  check(pending.length === 1 && pending[0].id === liveId, "live, the page shows the interrupt that is on the thread's task: " + liveId + " vs " + JSON.stringify(pending));
  check((await page.innerText("#question")).includes("Can you tell me more?"), "live, the question shows");
  await page.screenshot({ path: join(artifacts, "before-reload.png") });

  // 3. reload: useStream now has only the thread's state and history to go by
  await page.reload();
  await page.waitForSelector("#app[data-thread='" + threadId + "'] #interrupt");
  const when = await page.getAttribute("#interrupt", "data-when");
  check(when !== "breakpoint", "after the reload the interrupt is not taken for a breakpoint: " + when);
  check(await page.getAttribute("#interrupt", "data-id") === liveId, "after the reload the question has the same id");
  const question = await page.innerText("#question");
  check(question.includes("Can you tell me more?") && question === pending[0].value.question, "after the reload the question shows: " + question);
  check((await page.locator("#messages .msg.human").allInnerTexts()).includes("please plan my week"), "after the reload the conversation shows");
  check(await page.getAttribute("#app", "data-state") === "interrupted", "the page is not loading");
  await page.screenshot({ path: join(artifacts, "after-reload.png") });
  summary.interruptId = liveId;

  // 4. answered by its id: the run resumes and ends with an answer
  const aiBefore = await page.locator("#messages .msg.ai").count();
  await page.fill("#reply", "the week of the conference");
  await page.click("#answer button");
  await page.waitForFunction(() => document.querySelector("#app").dataset.state === "idle" && !document.querySelector("#interrupt"));
  const thread = await api("GET", "/threads/" + threadId);
  check(thread.status === "idle", "the thread is idle after the answer: " + thread.status);
  const done = await api("GET", "/threads/" + threadId + "/state");
  check(done.next.length === 0 && done.tasks.every((t) => t.interrupts.length === 0), "no pending task or question");
  const runs = await api("GET", "/threads/" + threadId + "/runs");
  // newest first: the resuming run succeeded; the first one ended at the question
  check(JSON.stringify(runs.map((r) => r.status)) === '["success","interrupted"]', "the answer's run succeeded after the asking one: " + JSON.stringify(runs.map((r) => r.status)));
  const shownAi = (await page.locator("#messages .msg.ai").allInnerTexts()).filter((t) => t.trim());
  check(await page.locator("#messages .msg.ai").count() > aiBefore && shownAi.length > 0, "the answer shows");
  check((await page.locator("#messages .msg.human").allInnerTexts()).includes("the week of the conference"), "the reply is part of the conversation");
  await page.screenshot({ path: join(artifacts, "answered.png") });
  check(consoleErrors.length === 0, "no console error: " + JSON.stringify(consoleErrors));
  summary.checks = checks;
  summary.threadId = threadId;
});
console.log(JSON.stringify(summary));
