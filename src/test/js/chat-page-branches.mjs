// The chat page's time travel in headless Chromium (playwright-core): `/` opens a new chat, a thinking indicator
// until the first token, copy on an answer, the history panel (open a step, read its state, fork from it), edit a
// past message (the conversation branches from before it) and regenerate an answer (asked again from the step
// before it). Usage: node chat-page-branches.mjs <baseUrl> <artifactDir>. Prints one JSON line: the summary, or
// {"skipped": why} when Chromium cannot run here. Any failed check, and any console error, exits 1 with "FAILED ...".
import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deleteThreads, launchChromium, runInBrowser } from "./browser-run.mjs";

const [base, artifacts] = process.argv.slice(2);
let checks = 0;
function check(ok, what) {
  checks++;
  if (!ok) throw new Error(what);
}

mkdirSync(artifacts, { recursive: true });
const profile = join(tmpdir(), "conduit-chat-branches-" + process.pid);
const browser = await launchChromium(profile, { permissions: ["clipboard-read", "clipboard-write"] });

const consoleErrors = [];
const page = browser.pages()[0] ?? await browser.newPage();
page.on("console", (m) => { if (m.type() === "error") consoleErrors.push(m.text()); });
page.on("pageerror", (e) => consoleErrors.push("uncaught: " + e.message));
page.setDefaultTimeout(60000);
const created = new Set();
page.on("response", async (r) => {
  if (r.request().method() === "POST" && new URL(r.url()).pathname === "/threads" && r.ok()) created.add((await r.json()).thread_id);
});

const api = async (method, path, body) => {
  const r = await fetch(base + path, { method, headers: { "content-type": "application/json", accept: "application/json" }, body: body && JSON.stringify(body) });
  return r.status === 204 ? null : r.json();
};
const threadId = () => page.evaluate(() => window.conduitChat.page.threadId);
const textOf = (m) => typeof m.content === "string" ? m.content : m.content.filter((b) => b.type === "text").map((b) => b.text).join("");
const stateMessages = async () => (await api("GET", "/threads/" + await threadId() + "/state")).values.messages;
const transcript = async () => (await stateMessages()).map((m) => m.type[0] + ":" + textOf(m)).filter((t) => t.length > 2);
async function send(text) {
  await page.fill("#input", text);
  await page.press("#input", "Enter");
}
const turnEnded = (before) => page.waitForFunction((n) => document.querySelectorAll(".usage").length > n && !document.body.classList.contains("busy"), before);
const newestRun = async () => (await api("GET", "/threads/" + await threadId() + "/runs?limit=1"))[0]?.run_id ?? null;
/** Waits until a run newer than `prev` has ended and the page has taken in its end (polled: no timing assumed). */
async function runEnded(prev) {
  const t = await threadId();
  for (;;) {
    const r = (await api("GET", "/threads/" + t + "/runs?limit=1"))[0];
    if (r && r.run_id !== prev && !["pending", "running"].includes(r.status)) break;
    const toast = await page.locator("#toast").isVisible() ? await page.locator("#toast").innerText() : null;
    if (toast) throw new Error("the page says: " + toast);
    await page.waitForTimeout(100);
  }
  await page.waitForFunction(() => !document.body.classList.contains("busy") && !document.querySelector(".msg.pending"));
}
const echo = (text) => "This is the Conduit simulator, not a real model. You said: " + text;
const shown = async () => page.evaluate(() => [...document.querySelectorAll(".msg:not(.pending):not([hidden]) .bubble")]
  .map((b) => (b.closest(".msg").classList.contains("user") ? "h:" : "a:") + b.textContent.trim()));

const summary = {};
await runInBrowser({
  browser, page, profile, screenshot: join(artifacts, "chat-page-branches-failure.png"),
  context: async () => ["the conversation ends with: " + (await page.locator("#messages").innerText().catch(() => "")).slice(-700)],
  detail: (e) => "\n" + (e.stack || "") + "\nconsole errors: " + JSON.stringify(consoleErrors),
  cleanUp: () => deleteThreads(base, created),
}, async () => {
  // 1. `/` is a new chat, not the last one; the first message makes it
  const older = "An older chat " + Date.now().toString(36);
  await api("POST", "/threads", { metadata: { title: older } }).then((t) => created.add(t.thread_id));
  // a thread made through the API, with no title: listed under its first message
  const apiThread = await api("POST", "/threads", {});
  created.add(apiThread.thread_id);
  const firstLine = "Made through the API " + Date.now().toString(36);
  await api("POST", "/threads/" + apiThread.thread_id + "/runs/wait", { assistant_id: "agent", input: { messages: [{ role: "user", content: firstLine }] } });
  await page.goto(base + "/");
  await page.waitForFunction(() => window.conduitChat.page.ready);
  check(await page.locator(".thread .thread-title", { hasText: firstLine }).count() === 1, "an untitled API thread is listed under its first message");
  check(await threadId() === null && await page.locator("#thread-title").innerText() === "New chat", "/ opens a new chat");
  await page.waitForSelector(".thread");
  check(await page.locator(".thread", { hasText: older }).count() === 1, "the older chats are in the list: "
    + (await page.locator("#threads").innerText()).slice(0, 300));

  // 2. a thinking indicator shows until the first token, then goes
  await page.evaluate(() => {
    window.sawThinking = false;
    new MutationObserver(() => { if (document.querySelector(".msg.ai.pending .dots")) window.sawThinking = true; })
      .observe(document.getElementById("messages"), { childList: true, subtree: true });
  });
  const nonce = Date.now().toString(36);
  const one = "hello one " + nonce;
  await send(one);
  await turnEnded(0);
  check(await page.evaluate(() => window.sawThinking), "the thinking indicator showed");
  check(await page.locator(".msg.pending").count() === 0, "the thinking indicator is gone once the answer came");
  await send("hello two");
  await turnEnded(1);
  check(JSON.stringify(await transcript()) === JSON.stringify(["h:" + one, "a:" + echo(one), "h:hello two", "a:" + echo("hello two")]),
    "two turns: " + JSON.stringify(await transcript()));

  // 3. copy an answer
  await page.locator(".msg.ai").first().hover();
  await page.locator(".msg.ai").first().locator("[aria-label=Copy]").click();
  check(await page.evaluate(() => navigator.clipboard.readText()) === echo(one), "copy puts the answer's text on the clipboard");

  // 4. time travel: the history lists the steps; one opens with its state; a fork from the end of the first turn
  // shows that step's conversation, and the next message continues from it as a new branch
  await page.click("#history-toggle");
  await page.waitForSelector("#history .step");
  const steps = await api("POST", "/threads/" + await threadId() + "/history", { limit: 200 });
  check(await page.locator("#history .step").count() === steps.length, "the history shows every step (" + steps.length + ")");
  const endOfFirst = steps.find((cp) => cp.values?.messages?.length === 2 && !cp.next.length);
  check(endOfFirst, "a step ends the first turn");
  const item = page.locator('#history .step[data-checkpoint-id="' + endOfFirst.checkpoint.checkpoint_id + '"]');
  await item.locator(".step-open").click();
  const detail = await item.locator(".step-detail").innerText();
  check(detail.includes("next: (the run ended here)") && detail.includes(echo(one)) && detail.includes("metadata"),
    "an opened step shows its next, values and metadata: " + detail.slice(0, 200));
  await page.screenshot({ path: join(artifacts, "chat-page-history.png") });
  await item.locator(".step-fork").click();
  check(await page.locator("#fork-banner").isVisible(), "the fork banner says where the next message continues from");
  check(JSON.stringify(await shown()) === JSON.stringify(["h:" + one, "a:" + echo(one)]), "the page shows the step's conversation: " + JSON.stringify(await shown()));
  const historyBefore = steps.length;
  let prev = await newestRun();
  await send("hello three");
  await runEnded(prev);
  const branched = ["h:" + one, "a:" + echo(one), "h:hello three", "a:" + echo("hello three")];
  check(JSON.stringify(await transcript()) === JSON.stringify(branched), "the fork's run continued from the step: " + JSON.stringify(await transcript()));
  check(JSON.stringify(await shown()) === JSON.stringify(branched), "the page shows the branch: " + JSON.stringify(await shown()));
  check(await page.locator("#fork-banner").isHidden(), "the banner goes once the branch starts");
  await page.waitForFunction((n) => document.querySelectorAll("#history .step").length > n, historyBefore);
  check((await api("POST", "/threads/" + await threadId() + "/history", { limit: 200 })).some((cp) => cp.values?.messages?.some((m) => textOf(m) === "hello two")),
    "the old branch's steps stay in the history");
  await page.screenshot({ path: join(artifacts, "chat-page-forked.png") });
  await page.click("#history-toggle");

  // 5. edit a past message: the conversation branches from before it
  const firstUser = page.locator(".msg.user").first();
  await firstUser.hover();
  await firstUser.locator("[aria-label=Edit]").click();
  await firstUser.locator(".edit-form textarea").fill("hello edited");
  await page.screenshot({ path: join(artifacts, "chat-page-edit.png") });
  prev = await newestRun();
  await firstUser.locator(".edit-form textarea").press("Enter");
  await runEnded(prev);
  const edited = ["h:hello edited", "a:" + echo("hello edited")];
  check(JSON.stringify(await transcript()) === JSON.stringify(edited), "the edited message starts the chat again: " + JSON.stringify(await transcript()));
  check(JSON.stringify(await shown()) === JSON.stringify(edited), "the page shows the edited branch: " + JSON.stringify(await shown()));

  // 6. regenerate the answer: asked again from the step before it (a new message in its place)
  const oldAnswer = (await stateMessages()).at(-1).id;
  await page.locator(".msg.ai").last().hover();
  prev = await newestRun();
  await page.locator(".msg.ai").last().locator("[aria-label=Regenerate]").click();
  await runEnded(prev);
  const after = await stateMessages();
  check(after.length === 2 && after.at(-1).type === "ai" && after.at(-1).id !== oldAnswer, "regenerate replaced the answer with a new one");
  check(JSON.stringify(await shown()) === JSON.stringify(edited), "the page shows the regenerated answer once: " + JSON.stringify(await shown()));

  // 7. the chat reloaded shows the branch it is on
  await page.reload();
  await page.waitForSelector("#connection[data-state=live]");
  check(JSON.stringify(await shown()) === JSON.stringify(edited), "a reload shows the current branch: " + JSON.stringify(await shown()));

  // 8. attach: a CSV file goes to the thread for the analyst's tools, an image goes with the next message
  await page.click("#new-thread");
  await page.waitForFunction(() => document.querySelector("#connection").dataset.state === "live" && document.querySelector("#thread-title").textContent === "New chat");
  await page.selectOption("#assistant", { label: "analyst" });
  await page.setInputFiles("#file", new URL("../../../docs/blueprints/sales.csv", import.meta.url).pathname);
  await page.waitForSelector(".note.file");
  check((await page.locator(".note.file").innerText()).includes("sales.csv · 12 rows"), "the uploaded CSV shows with its rows");
  const files = await api("GET", "/threads/" + await threadId() + "/files");
  check(files.length === 1 && files[0].name === "sales.csv", "the CSV is the thread's file");
  let prevRun = await newestRun();
  await send("What are the total units by region in sales.csv?");
  await runEnded(prevRun);
  check(await page.locator(".tool .tool-name").first().innerText() === "aggregate", "the analyst's tool read the file");
  check((await shown()).at(-1).startsWith("a:") && (await transcript()).at(-1).startsWith("a:"), "the analyst answered");
  await page.screenshot({ path: join(artifacts, "chat-page-attach.png") });
  await page.reload();
  await page.waitForSelector("#connection[data-state=live]");
  check(await page.locator(".note.file").count() === 1, "a reloaded chat lists its files");

  await page.click("#new-thread");
  await page.waitForFunction(() => document.querySelector("#connection").dataset.state === "live" && document.querySelector("#thread-title").textContent === "New chat");
  await page.selectOption("#assistant", { label: "agent" });
  const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
  await page.setInputFiles("#file", { name: "dot.png", mimeType: "image/png", buffer: png });
  await page.waitForSelector("#tray .chip img");
  prevRun = await newestRun();
  await send("What is in this picture?");
  await runEnded(prevRun);
  check(await page.locator("#tray").isHidden(), "the tray empties once the message is sent");
  const human = (await stateMessages()).find((m) => m.type === "human");
  check(Array.isArray(human.content) && human.content.some((b) => JSON.stringify(b).includes("data:image/png;base64,")), "the image went with the message: " + JSON.stringify(human.content).slice(0, 200));
  check(await page.locator(".msg.user .images img").count() === 1, "the message shows its image");

  check(consoleErrors.length === 0, "no console errors: " + JSON.stringify(consoleErrors));
  summary.checks = checks;
});
console.log(JSON.stringify(summary));
