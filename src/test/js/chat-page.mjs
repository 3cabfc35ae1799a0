// The chat page (served at / by the service) driven in headless Chromium by playwright-core: a turn with streamed
// text and tool cards whose connection is dropped mid-answer (it resumes from its last seq), Markdown that cannot
// inject HTML, an interrupt answered in its box, a quiz question answered with a choice button, a stop pressed on
// a paced turn, a reload mid-answer, rename/search/delete in the thread list, and the page at phone width.
// Usage: node chat-page.mjs <baseUrl> <artifactDir>. Prints one JSON line: the summary, or {"skipped": why} when
// Chromium cannot run here. Any failed check, and any console error of the page, exits 1 with "FAILED ...".
import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deleteThreads, launchChromium, runInBrowser } from "./browser-run.mjs";

const [base, artifacts] = process.argv.slice(2);
let checks = 0;
function check(ok, what) {
  checks++;
  if (!ok) throw new Error(what); // runInBrowser keeps a screenshot and exits 1
}

mkdirSync(artifacts, { recursive: true });
const profile = join(tmpdir(), "conduit-chat-page-" + process.pid);
const browser = await launchChromium(profile);

const consoleErrors = [];
const page = browser.pages()[0] ?? await browser.newPage();
page.on("console", (m) => { if (m.type() === "error") consoleErrors.push(m.text()); });
page.on("pageerror", (e) => consoleErrors.push("uncaught: " + e.message));
page.on("dialog", (d) => d.type() === "prompt" ? d.accept("Weekly plan") : d.accept());
page.setDefaultTimeout(60000);
// the chats the page creates, deleted at the end so that the next run's list (and screenshot) starts clean
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
async function lastAiText() {
  const st = await api("GET", "/threads/" + await threadId() + "/state");
  const ai = st.values.messages.filter((m) => m.type === "ai" && textOf(m));
  return textOf(ai[ai.length - 1]);
}
const usageLines = () => page.locator(".usage").count();
/** Clicks "New chat" and waits until the new chat is open and connected. */
async function newChat() {
  const before = await threadId();
  await page.click("#new-thread");
  await page.waitForFunction((t) => window.conduitChat.page.threadId !== t && window.conduitChat.page.connection
    && document.querySelector("#connection").dataset.state === "live", before);
}
async function send(text) {
  await page.fill("#input", text);
  await page.press("#input", "Enter");
}
/** Waits for the turn under way to end: one more usage line than `before`. */
const turnEnded = (before) => page.waitForFunction((n) => document.querySelectorAll(".usage").length > n && !document.body.classList.contains("busy"), before);
const bubbles = async () => (await page.locator(".msg.ai:not([hidden]) .bubble").allInnerTexts()).filter((t) => t.trim());
const occurrences = (haystack, needle) => haystack.split(needle).length - 1;
const words = (n, w) => Array.from({ length: n }, (_, i) => w + i).join(" ");

const summary = {};
await runInBrowser({
  browser, page, profile, screenshot: join(artifacts, "chat-page-failure.png"),
  context: async () => ["the conversation ends with: " + (await page.locator("#messages").innerText().catch(() => "")).slice(-700)],
  detail: (e) => "\n" + (e.stack || "") + "\nconsole errors: " + JSON.stringify(consoleErrors),
  cleanUp: () => deleteThreads(base, created),
}, async () => {
  await page.goto(base + "/");
  check(await page.title() === "Conduit chat", "GET / from a browser is the chat page");
  await page.waitForFunction(() => window.conduitChat.page.ready);
  const assistants = await page.locator("#assistant option").allInnerTexts();
  check(assistants.some((a) => a.includes("agent")) && assistants.some((a) => a.includes("tutor")), "the assistant picker lists the assistants: " + assistants);

  // 1. a turn with tool calls in a new chat; the connection is dropped when the first card shows, and resumes
  // from its last seq (the database may hold chats of earlier runs: this run's are named with a nonce)
  const nonce = "n" + Date.now().toString(36);
  const firstMessage = "Please plan my week " + nonce;
  await newChat();
  await send(firstMessage);
  await page.waitForSelector(".tool");
  await page.evaluate(() => window.conduitChat.dropConnection());
  await turnEnded(0);
  check(await page.locator("#connection").getAttribute("data-state") === "live", "the connection is live again after the drop");
  const cards = page.locator(".tool");
  check(await cards.count() >= 3, "each tool call is a card (" + await cards.count() + ")");
  check(await page.locator(".tool.running").count() === 0, "every card finished");
  await cards.nth(1).locator("summary").click();
  const args = await cards.nth(1).locator(".tool-args").innerText();
  const result = await cards.nth(1).locator(".tool-result");
  check(await cards.nth(1).locator(".tool-name").innerText() === "recall" && args.includes('"week"'), "a card shows the call's name and arguments: " + args);
  check(await result.isVisible() && (await result.getAttribute("data-label")) === "result", "an open card shows the tool's result");
  check(await page.locator(".note.replan").count() === 1, "the verifier's re-plan shows as a note");
  const answer1 = await lastAiText();
  const shown1 = await bubbles();
  check(shown1.length === 1 && shown1[0].trim() === answer1.trim(), "the streamed answer equals the state's, across the drop: " + JSON.stringify(shown1) + " vs " + JSON.stringify(answer1));
  check(/\d+ in · \d+ out tokens/.test(await page.locator(".usage").first().innerText()), "the turn shows its tokens and latency");
  check((await page.locator("#thread-title").innerText()) === firstMessage, "a new chat is titled after its first message");

  // 2. model output is Markdown, rendered without letting HTML in (the simulator echoes the message)
  await send("Render <img src=x onerror=\"window.pwned=1\"> and **bold** and `<script>` please");
  await turnEnded(1);
  const last = page.locator(".msg.ai .bubble").last();
  check(await last.locator("img, script").count() === 0 && await page.locator("#messages img").count() === 0, "no element from the model's text");
  check(await page.evaluate(() => window.pwned === undefined), "no script ran");
  check(await last.locator("strong").innerText() === "bold" && await last.locator("code").innerText() === "<script>", "Markdown is rendered");
  check((await last.innerText()).includes('<img src=x onerror="window.pwned=1">'), "the HTML shows as text");

  // 3. an interrupt: the assistant asks, the answer box resumes the run
  await send("what do you know about my cat");
  await page.waitForSelector(".interrupt .interrupt-question");
  check((await page.locator(".interrupt-question").innerText()).includes("Can you tell me more?"), "the interrupt's question shows");
  check(await page.locator("body.busy").count() === 0, "an interrupted run leaves the composer free");
  const beforeAnswer = await usageLines();
  await page.fill(".interrupt-form input", "It is called Felix");
  await page.click(".interrupt-form button");
  await page.waitForSelector(".interrupt.answered");
  await turnEnded(beforeAnswer);
  check((await page.locator("#messages").innerText()).includes("It is called Felix"), "the answer is part of the conversation");

  const liveReplans = await page.locator(".note.replan").count();
  const liveUsage = await usageLines();

  // 4. the tutor's quiz: a question with choices, answered with a button (a thread of the tutor)
  await newChat();
  await page.selectOption("#assistant", { label: "tutor" });
  await send("Quiz me on photosynthesis please");
  await page.waitForSelector(".interrupt .choice");
  const choices = await page.locator(".interrupt .choice").allInnerTexts();
  check(choices.length === 4, "the quiz question offers its choices as buttons: " + choices);
  check((await page.locator(".interrupt-head").innerText()).toLowerCase().includes("question 1 of 3"), "the question's number shows");
  await page.locator(".interrupt .choice").first().click();
  await page.waitForFunction(() => document.querySelectorAll(".interrupt").length === 2);
  check(await page.locator(".interrupt.answered").count() === 1, "the first question is answered");
  check((await page.locator(".interrupt-head").last().innerText()).toLowerCase().includes("question 2 of 3"), "the second question follows the answer");
  check(await page.locator(".interrupt .choice.chosen").count() === 1, "the chosen answer stays marked");
  check(!(await bubbles()).some((b) => b.startsWith("Question 1 of 3")), "the quiz question shows once, as its card");
  await page.screenshot({ path: join(artifacts, "chat-page.png") }); // the showcase (README)

  // back to the first chat, with the thread list (rename and search)
  await page.fill("#search", nonce);
  check(await page.locator(".thread").count() === 1, "the search finds the chat by its title");
  await page.locator(".thread .thread-open").first().click();
  await page.waitForFunction((t) => document.querySelector("#thread-title").textContent === t, firstMessage);
  await page.locator(".thread [aria-label=Rename]").first().click();
  await page.waitForFunction(() => document.querySelector("#thread-title").textContent === "Weekly plan");
  const meta = (await api("GET", "/threads/" + await threadId())).metadata;
  check(meta.title === "Weekly plan", "rename writes the thread's metadata");
  await page.fill("#search", "");
  await page.waitForSelector("#connection[data-state=live]");
  const history = await page.locator("#messages").innerText();
  check(occurrences(history, answer1.trim()) === 1, "the reopened chat shows each answer once");
  check(await page.locator(".tool").count() >= 5 && await page.locator(".tool.running").count() === 0, "the reopened chat shows its finished cards");
  check(occurrences(history, "It is called Felix") === 2, "the interrupt's answer shows once, and once in the reply that echoes it");
  check(await page.locator(".note.replan").count() === liveReplans, "the reopened chat keeps its re-plan notes (" + liveReplans + ")");
  check(await usageLines() === liveUsage, "the reopened chat keeps each turn's usage line (" + liveUsage + ")");
  check(/\d+ in · \d+ out tokens.* total/.test(await page.locator(".usage").first().innerText()), "the reopened chat keeps each turn's tokens and latency");

  // 5. stop: a paced answer is cancelled mid-way
  const long = "Stop me " + words(400, "w"); // 8 s of answer at 20 ms a token: stopped long before its end
  const before = await usageLines();
  await send(long);
  await page.waitForFunction(() => (document.querySelector(".msg.ai.streaming .bubble")?.textContent || "").length > 20);
  await page.click("#stop");
  await turnEnded(before);
  check(await page.locator(".note", { hasText: "Stopped" }).count() === 1, "the stopped turn says so");
  const runs = await api("GET", "/threads/" + await threadId() + "/runs?limit=1");
  check(runs[0].status === "interrupted", "the run was cancelled through the cancel endpoint: " + runs[0].status);
  const stopped = (await bubbles()).at(-1);
  const full = "This is the Conduit simulator, not a real model. You said: " + long;
  check(stopped.length > 0 && stopped.length < full.length && full.startsWith(stopped.trim()), "the stopped answer is a beginning of the full one: " + stopped.length);

  // 6. a reload mid-answer: the answer completes, without repeated text
  const reloadText = "Reload me " + words(300, "r"); // 6 s of answer: reloaded in the middle
  const expected = "This is the Conduit simulator, not a real model. You said: " + reloadText;
  await send(reloadText);
  await page.waitForFunction(() => (document.querySelector(".msg.ai.streaming .bubble")?.textContent || "").length > 30);
  await page.reload();
  await page.waitForSelector("#connection[data-state=live]");
  await page.waitForSelector(".msg.ai.streaming"); // the answer in progress, replayed from its start, goes on
  check(await page.locator("#stop").isVisible(), "the reloaded page can stop the run in progress");
  await page.waitForFunction(() => document.querySelectorAll(".usage").length >= 1 && !document.body.classList.contains("busy"));
  const after = await lastAiText();
  check(after === expected, "the state has the full answer");
  const all = await page.locator("#messages").innerText();
  check(occurrences(all, expected) === 1, "the answer shows once, complete");
  check(occurrences(all, "r299") === 2, "its text shows once (the question and the answer each hold the last word once)");
  check(await page.locator(".note", { hasText: "Stopped" }).count() === 1, "the stopped turn keeps its Stopped mark after a reload");
  check((await bubbles()).some((b) => b.trim() === stopped.trim()), "the stopped turn keeps its partial answer after a reload");
  await page.screenshot({ path: join(artifacts, "chat-page-reloaded.png") });

  // 7. delete a chat
  // (by id, not by count: the list shows the newest chats of the whole service, and an older one may take the place)
  const deleted = await page.locator(".thread.selected").getAttribute("data-thread-id");
  await page.locator(".thread.selected [aria-label=Delete]").click();
  await page.waitForFunction((id) => ![...document.querySelectorAll(".thread")].some((t) => t.dataset.threadId === id), deleted);
  check((await fetch(base + "/threads/" + deleted)).status === 404, "the deleted chat's thread is gone");

  // 8. the quiz chat reopened, at desktop and phone width
  await page.locator(".thread .thread-open").first().click();
  await page.waitForSelector(".interrupt:not(.answered) .choice");
  // mid-quiz the answered questions are in the quiz subgraph's state, not yet in the thread's: the pending one shows
  check(await page.locator(".interrupt:not(.answered)").count() === 1, "the reopened quiz shows its pending question");
  await page.screenshot({ path: join(artifacts, "chat-page-reopened.png") });
  // the quiz to its end, then reloaded: each question shows once, as its card with the answer chosen (the tutor
  // writes the questions and answers into the thread's messages at the end)
  for (let q = 2; q <= 3; q++) {
    const beforeAnswer = await usageLines();
    await page.locator(".interrupt:not(.answered) .choice").first().click();
    await turnEnded(beforeAnswer);
  }
  check(!(await bubbles()).some((b) => /^Question \d of 3/.test(b)), "the quiz's questions show once, as cards: " + JSON.stringify(await bubbles()));
  await page.reload();
  await page.waitForSelector("#connection[data-state=live]");
  await page.waitForSelector(".interrupt");
  check(await page.locator(".interrupt.answered").count() === 3 && await page.locator(".interrupt:not(.answered)").count() === 0,
    "the finished quiz reloaded shows its three questions as answered cards: " + await page.locator(".interrupt").count());
  check(await page.locator(".interrupt.answered .choice.chosen").count() === 3, "each with its answer chosen");
  check(!(await bubbles()).some((b) => /^Question \d of 3/.test(b)), "and not again as messages: " + JSON.stringify(await bubbles()));
  await page.setViewportSize({ width: 390, height: 844 });
  // at phone width the thread list slides away (a CSS transition: waited for, not timed)
  await page.waitForFunction(() => document.querySelector("#sidebar").getBoundingClientRect().right <= 0);
  check(await page.locator("#menu").isVisible(), "at phone width a menu button opens the thread list");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  check(overflow <= 0, "nothing overflows at phone width (" + overflow + " px)");
  await page.screenshot({ path: join(artifacts, "chat-page-phone.png") });
  await page.click("#menu");
  await page.waitForFunction(() => document.querySelector("#sidebar").getBoundingClientRect().left >= 0);

  // 9. HTTP instead of a WebSocket (?transport=sse, as when a socket cannot open): a turn streams, a dropped
  // event stream resumes from its last seq, and the text equals the state's
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.goto(base + "/?transport=sse");
  await page.waitForFunction(() => window.conduitChat.page.ready);
  await newChat(); // `/` is a new chat with no thread yet: the button makes one, and its stream
  check(await page.locator("#connection").innerText() === "SSE", "the page says it streams over SSE");
  await page.selectOption("#assistant", { label: "agent" });
  const sseText = "Over SSE " + words(60, "s");
  await send(sseText);
  await page.waitForFunction(() => (document.querySelector(".msg.ai.streaming .bubble")?.textContent || "").length > 20);
  await page.evaluate(() => window.conduitChat.dropConnection());
  await turnEnded(0);
  const sseExpected = "This is the Conduit simulator, not a real model. You said: " + sseText;
  check(await lastAiText() === sseExpected, "the SSE turn's answer is in state");
  check((await bubbles()).join("|") === sseExpected, "the SSE turn streamed every token once across the drop");

  // 10. a reasoning model's thinking (the tutor's advanced answers) streams into a collapsed box above the answer
  await newChat();
  await page.selectOption("#assistant", { label: "tutor" });
  await send("Why does light matter for photosynthesis?");
  await turnEnded(0);
  await page.locator(".thinking summary").click();
  check((await page.locator(".thinking-text").innerText()).startsWith("The student asks why."), "the thinking shows");
  check((await bubbles()).at(-1) === "Because light provides the energy for the reaction.", "the answer follows its thinking");
  await page.screenshot({ path: join(artifacts, "chat-page-thinking.png") });

  check(consoleErrors.length === 0, "no console errors: " + JSON.stringify(consoleErrors));
  summary.checks = checks;
});
console.log(JSON.stringify(summary));
