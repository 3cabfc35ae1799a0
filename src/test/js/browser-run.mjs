// What the Chromium scripts (chat-page*.mjs, use-stream-reload.mjs) share around their steps: Chromium launched on a
// fresh profile (or {"skipped": why} printed when it cannot run here), and an ending that, on a failure, keeps a
// screenshot and prints "FAILED ..." then exits 1, and in every case closes the browser, cleans up what the steps
// made (threads...) and removes the profile.
import { rmSync } from "node:fs";
import { chromium } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";

/**
 * Chromium in a persistent context on `profile` (playwright's way of giving it a --user-data-dir of our choosing),
 * with `options` over the defaults. When it cannot start, `onSkip` runs (to close a server), {"skipped": why} is
 * printed and the script exits 0: the Java test skips.
 */
export async function launchChromium(profile, options = {}, onSkip = () => {}) {
  try {
    return await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM, headless: true,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"],
      viewport: { width: 1280, height: 860 },
      timeout: 60000,
      ...options,
    });
  } catch (e) {
    onSkip();
    console.log(JSON.stringify({ skipped: "Chromium (" + CHROMIUM + ") cannot run here: " + String(e.message).split("\n")[0] }));
    process.exit(0);
  }
}

/**
 * Runs `steps` and returns what it returns. On a failure: a screenshot of `page` to `screenshot`, then on stderr
 * the lines `context(e)` gives (what the page showed) and "FAILED <message>" with `detail(e)`; the script exits 1
 * once the ending is done. The ending, whatever happened: the browser closed, `cleanUp()` awaited, `profile` removed.
 */
export async function runInBrowser({ browser, page, screenshot, profile, context, detail, cleanUp }, steps) {
  let failed = false;
  try {
    return await steps();
  } catch (e) {
    failed = true;
    await page.screenshot({ path: screenshot }).catch(() => {});
    for (const line of context ? await context(e).catch(() => []) : []) console.error(line);
    console.error("FAILED " + (e.message || e) + (detail ? detail(e) : ""));
  } finally {
    await browser.close().catch(() => {});
    if (cleanUp) await cleanUp().catch(() => {});
    if (profile) rmSync(profile, { recursive: true, force: true });
    if (failed) process.exit(1);
  }
}

/** Deletes the threads `ids` on `base` (the chats a page made), ignoring those already gone. */
export async function deleteThreads(base, ids, headers = {}) {
  for (const id of ids) {
    await fetch(base + "/threads/" + encodeURIComponent(id), { method: "DELETE", headers }).catch(() => {});
  }
}
