// The chat page with API keys on (conduit.auth.mode=api-key), in headless Chromium driven by playwright-core: the page
// itself loads without a key and asks for one (its API calls are 401); with the key entered, it lists the assistants,
// opens a chat whose WebSocket names a single-use ticket (a browser cannot send the key in a header), streams an
// answer, and the chat belongs to the key's principal. No console error once the key is set.
// Usage: node chat-page-key.mjs <baseUrl> <API key> <the key's principal> <artifactDir>. Prints one JSON line: the
// summary, or {"skipped": why} when Chromium cannot run here. A failed check exits 1 with "FAILED ...".
import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deleteThreads, launchChromium, runInBrowser } from "./browser-run.mjs";

const [base, key, owner, artifacts] = process.argv.slice(2);
let checks = 0;
function check(ok, what) {
  checks++;
  if (!ok) throw new Error(what);
}

mkdirSync(artifacts, { recursive: true });
const profile = join(tmpdir(), "conduit-chat-key-" + process.pid);
const browser = await launchChromium(profile);
const page = browser.pages()[0] ?? await browser.newPage();
page.setDefaultTimeout(60000);
let consoleErrors = [];
page.on("console", (m) => { if (m.type() === "error") consoleErrors.push(m.text()); });
page.on("pageerror", (e) => consoleErrors.push("uncaught: " + e.message));
const sockets = [];
page.on("websocket", (ws) => sockets.push(ws.url()));
const created = new Set(); // the chat the page makes, deleted at the end

await runInBrowser({
  browser, page, profile, screenshot: join(artifacts, "chat-page-key-failed.png"),
  cleanUp: () => deleteThreads(base, created, { "x-api-key": key }),
}, async () => {
  await page.goto(base + "/");
  check(await page.title() === "Conduit chat", "the page itself is served without a key");
  await page.waitForFunction(() => window.conduitChat.page.ready);
  check(await page.evaluate(() => document.body.classList.contains("needs-key")), "without a key the page asks for one");
  check((await page.locator("#toast").innerText()).includes("API key"), "and says so");
  check(await page.locator("#assistant option").count() === 0, "nothing of the API is shown without a key");

  consoleErrors = []; // the 401s above are logged by Chromium as failed loads: expected
  await page.fill("#api-key", key);
  await Promise.all([page.waitForNavigation(), page.click("#key-form button")]);
  await page.waitForFunction(() => window.conduitChat.page.ready);
  check(!(await page.evaluate(() => document.body.classList.contains("needs-key"))), "with the key the page no longer asks");
  check(await page.evaluate(() => sessionStorage.getItem("conduit.apiKey")) !== null, "the key is kept in this tab's sessionStorage");
  const assistants = await page.locator("#assistant option").allInnerTexts();
  check(assistants.some((a) => a.includes("agent")), "the assistants are listed: " + assistants);

  const before = await page.evaluate(() => window.conduitChat.page.threadId);
  await page.click("#new-thread");
  await page.waitForFunction((t) => window.conduitChat.page.threadId !== t && window.conduitChat.page.connection
    && document.querySelector("#connection").dataset.state === "live", before);
  const thread = await page.evaluate(() => window.conduitChat.page.threadId);
  created.add(thread);
  check(await page.evaluate(() => window.conduitChat.page.connection.transport) === "websocket", "the chat streams over the WebSocket");
  check(sockets.some((u) => u.includes("/threads/" + thread + "/stream/events") && /[?&]ticket=/.test(u)), "its WebSocket names a ticket: " + sockets);
  check(!sockets.some((u) => u.includes(key)), "the key itself is never in a URL");

  await page.fill("#input", "good morning");
  await page.press("#input", "Enter");
  await page.waitForFunction(() => document.querySelectorAll(".usage").length > 0 && !document.body.classList.contains("busy"));
  const answer = (await page.locator(".msg.ai .bubble").allInnerTexts()).join("").trim();
  check(answer.length > 0, "the answer streamed");

  const res = await fetch(base + "/threads/" + encodeURIComponent(thread), { headers: { "x-api-key": key, accept: "application/json" } });
  check(res.status === 200 && (await res.json()).metadata.owner === owner, "the chat belongs to the key's principal");
  const anonymous = await fetch(base + "/threads/" + encodeURIComponent(thread), { headers: { accept: "application/json" } });
  check(anonymous.status === 401, "and no one without a key reads it");

  await page.screenshot({ path: join(artifacts, "chat-page-key.png") });
  check(consoleErrors.length === 0, "no console error with the key: " + consoleErrors.join(" | "));
});
console.log(JSON.stringify({ checks }));
