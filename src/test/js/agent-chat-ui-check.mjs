// agent-chat-ui (built and started by scripts/agent-chat-ui.sh) driven in headless Chromium against a running
// Conduit whose agent asks when its tools fail (conduit.agent.clarify-on-failure=true, retry-budget=0): a message is
// sent, the agent's question (an interrupt) shows, and the history lists the thread. Not part of the Maven suite.
// Usage: node agent-chat-ui-check.mjs <uiUrl> <conduitUrl> <artifactDir>
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";

const [ui, conduit, artifacts] = process.argv.slice(2);
mkdirSync(artifacts, { recursive: true });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", headless: true,
  args: ["--no-sandbox", "--disable-gpu"] });
const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
page.setDefaultTimeout(60000);
const errors = [];
page.on("pageerror", (e) => errors.push(e.message));
page.on("response", (r) => { if (r.status() >= 400) errors.push(r.status() + " " + r.url()); });
try {
  await page.goto(ui + "/?" + new URLSearchParams({ apiUrl: conduit, assistantId: "agent" }));
  await page.locator("textarea").first().fill("please plan my week");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.body.innerText.includes("Can you tell me more?"));
  await page.screenshot({ path: join(artifacts, "agent-chat-ui-interrupt.png") });
  console.log(JSON.stringify({ interruptShown: true, errors }));
} catch (e) {
  await page.screenshot({ path: join(artifacts, "agent-chat-ui-failed.png") });
  console.error("FAILED " + e.message.split("\n")[0] + " errors: " + JSON.stringify(errors));
  process.exitCode = 1;
} finally {
  await browser.close();
}
