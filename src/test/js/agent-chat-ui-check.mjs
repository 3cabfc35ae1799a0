// agent-chat-ui (built and started by scripts/agent-chat-ui.sh) driven in headless Chromium against a running
// Conduit whose agent asks when its tools fail (conduit.agent.clarify-on-failure=true, retry-budget=0): a message is
// sent, the agent's question (an interrupt) shows with agent-chat-ui's answer form, the answer is typed and sent, the
// run goes on with it; then a fresh page lists the thread in the history by its first message and reopens it.
// Not part of the Maven suite (see docs/agent-chat-ui.md). Usage: node agent-chat-ui-check.mjs <uiUrl> <conduitUrl> <artifactDir>
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";

const [ui, conduit, artifacts] = process.argv.slice(2);
const FIRST = "please plan my week " + Date.now();
const ANSWER = "the week of the conference";
mkdirSync(artifacts, { recursive: true });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", headless: true,
  args: ["--no-sandbox", "--disable-gpu"] });
const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
page.setDefaultTimeout(60000);
const errors = [];
page.on("pageerror", (e) => errors.push(e.message));
page.on("response", (r) => { if (r.status() >= 400) errors.push(r.status() + " " + r.url()); });
const shows = (text) => page.waitForFunction((t) => document.body.innerText.includes(t), text);
const steps = [];
try {
  const query = new URLSearchParams({ apiUrl: conduit, assistantId: "agent" });
  await page.goto(ui + "/?" + query);
  await page.locator("textarea").first().fill(FIRST);
  await page.keyboard.press("Enter");
  // the review form: the ask_user action's arguments, its question and the answer to fill in, and a Submit button
  const field = (label) => page.locator("p", { hasText: new RegExp("^" + label + "$") }).locator("xpath=following-sibling::textarea");
  const question = await field("Question").inputValue();
  if (!question.includes("Can you tell me more?")) throw new Error("the form's question: " + question);
  steps.push("question shown");
  await field("Answer").fill(ANSWER);
  await page.screenshot({ path: join(artifacts, "agent-chat-ui-interrupt.png") });
  await page.getByRole("button", { name: "Submit", exact: true }).click();
  steps.push("answer sent");
  // the answer becomes the user's message and the run goes on: to an answer, or to the agent's next question
  await shows(ANSWER);
  // the run the answer started: join it (Conduit answers when it ends)
  const threadId = new URL(page.url()).searchParams.get("threadId");
  const runs = await (await fetch(conduit + "/threads/" + threadId + "/runs")).json();
  await fetch(conduit + "/threads/" + threadId + "/runs/" + runs[0].run_id + "/join");
  const thread = await (await fetch(conduit + "/threads/" + threadId)).json();
  const humans = thread.values.messages.filter((m) => m.type === "human").map((m) => m.content);
  if (JSON.stringify(humans) !== JSON.stringify([FIRST, ANSWER])) throw new Error("the thread's user messages: " + JSON.stringify(humans));
  steps.push("answer in the thread (" + thread.status + ")");
  await page.screenshot({ path: join(artifacts, "agent-chat-ui-answered.png") });
  // a fresh page: the history lists the thread by its first message, and opening it shows the conversation
  await page.goto(ui + "/?" + new URLSearchParams({ ...Object.fromEntries(query), chatHistoryOpen: "true" }));
  const entry = page.getByRole("button", { name: FIRST });
  await entry.first().click();
  await shows(ANSWER);
  if (new URL(page.url()).searchParams.get("threadId") !== threadId) throw new Error("history opened " + page.url());
  steps.push("history lists and reopens it");
  await page.screenshot({ path: join(artifacts, "agent-chat-ui-history.png") });
  console.log(JSON.stringify({ steps, errors }));
} catch (e) {
  await page.screenshot({ path: join(artifacts, "agent-chat-ui-failed.png") });
  console.error("FAILED after " + JSON.stringify(steps) + ": " + e.message.split("\n")[0] + " errors: " + JSON.stringify(errors));
  process.exitCode = 1;
} finally {
  await browser.close();
}
