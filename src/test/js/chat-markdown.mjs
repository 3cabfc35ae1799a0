// The chat page's Markdown renderer (src/main/resources/META-INF/resources/chat/js/markdown.js: vendored marked,
// highlight.js and DOMPurify) in headless Chromium, on hostile and ordinary input: nothing the model writes becomes
// an element, an attribute or a script that runs; tables and highlighted code render. The page's folder is served
// by a small static server on a free port of this script. Prints one JSON line (or {"skipped": why} where Chromium
// cannot run); exits 1 on a failure.
import { createServer } from "node:http";
import { readFile } from "node:fs";
import { join, extname, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = fileURLToPath(new URL("../../main/resources/META-INF/resources/chat/", import.meta.url));
const TYPES = { ".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css", ".html": "text/html" };
const server = createServer((req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname)).replace(/^(\.\.[/\\])+/, "");
  if (path === "/") { res.writeHead(200, { "content-type": "text/html" }); res.end("<!doctype html><title>md</title><div id=out></div>"); return; }
  readFile(join(root, path), (err, data) => {
    if (err) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { "content-type": TYPES[extname(path)] || "application/octet-stream" });
    res.end(data);
  });
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const base = "http://127.0.0.1:" + server.address().port;

let browser;
try {
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"], timeout: 60000 });
} catch (e) {
  server.close();
  console.log(JSON.stringify({ skipped: "Chromium cannot run here: " + String(e.message).split("\n")[0] }));
  process.exit(0);
}
const page = await browser.newPage();
const errors = [];
page.on("pageerror", (e) => errors.push(e.message));
page.on("dialog", (d) => { errors.push("a dialog opened: " + d.message()); d.dismiss(); });
let checks = 0;
const fail = async (what) => {
  console.error("FAILED " + what);
  await browser.close();
  server.close();
  process.exit(1);
};
try {
  await page.goto(base + "/");
  await page.evaluate(async () => { window.md = await import("/js/markdown.js"); });

  /** Renders `input` into the page (as the chat does, with innerHTML) and answers what the DOM then holds. */
  const render = (input) => page.evaluate((src) => {
    const out = document.getElementById("out");
    out.innerHTML = window.md.renderMarkdown(src);
    const all = [...out.querySelectorAll("*")];
    return {
      html: out.innerHTML, text: out.textContent,
      tags: [...new Set(all.map((e) => e.tagName.toLowerCase()))],
      handlers: all.flatMap((e) => [...e.attributes].map((a) => a.name)).filter((n) => n.startsWith("on")),
      hrefs: [...out.querySelectorAll("a")].map((a) => a.getAttribute("href")),
    };
  }, input);
  const expect = async (input, test, what) => {
    checks++;
    const got = await render(input);
    if (!test(got)) await fail(what + " for " + JSON.stringify(input) + ": " + got.html);
  };
  const safe = (g) => !g.tags.some((t) => ["script", "img", "iframe", "style", "object", "svg", "form"].includes(t)) && g.handlers.length === 0;

  // hostile input: shown as text or dropped, never run
  await expect('<img src=x onerror="window.pwned=1">', (g) => safe(g) && g.text.includes("<img src=x onerror="), "raw HTML shows as text");
  await expect("<script>window.pwned=1</script>", (g) => safe(g) && g.text.includes("<script>"), "a script shows as text");
  await expect("<svg onload=window.pwned=1>", (g) => safe(g), "svg with a handler");
  await expect("**<b onmouseover=x()>x</b>**", (g) => safe(g) && g.tags.includes("strong"), "HTML inside emphasis");
  await expect("[x](javascript:window.pwned=1)", (g) => safe(g) && !g.hrefs.some((h) => h && h.startsWith("javascript")), "javascript: links lose their href");
  await expect("[x](data:text/html,hi)", (g) => !g.hrefs.some((h) => h && h.startsWith("data")), "data: links lose their href");
  await expect("![x](https://tracker.example/p.png)", (g) => safe(g), "images are not loaded");
  await expect('[x](https://a.example/"onmouseover="alert(1))', (g) => safe(g), "a quote cannot leave the href");
  await expect("```html\n<div onclick=\"x()\">\n```", (g) => safe(g) && g.tags.includes("pre") && g.text.includes('<div onclick="x()">'), "HTML in a code block is code");
  checks++;
  if (await page.evaluate(() => window.pwned) !== undefined) await fail("a script ran");

  // what the model writes renders
  await expect("[docs](https://example.com/a?b=1&c=2)", (g) => g.hrefs[0] === "https://example.com/a?b=1&c=2"
    && g.html.includes('target="_blank"') && g.html.includes('rel="noopener noreferrer"'), "an http link opens in a new tab");
  await expect("| name | qty |\n| --- | ---: |\n| apple | 3 |\n| pear | 5 |", (g) => g.tags.includes("table") && g.tags.includes("th")
    && g.text.includes("apple") && g.text.includes("pear"), "a table");
  await expect("```python\ndef f(x):\n    return x + 1\n```", (g) => g.html.includes("hljs-keyword") && g.html.includes('data-lang="python"'), "highlighted python");
  await expect("```java\npublic class A {}\n```", (g) => g.html.includes("hljs-keyword"), "highlighted java");
  await expect("```\nstill streaming <b>", (g) => g.tags.includes("pre") && g.text.includes("still streaming <b>"), "an unclosed fence is code so far");
  await expect("# Title\n- one\n- *two*\n\n1. a\n2. b", (g) => ["h1", "ul", "ol", "em", "li"].every((t) => g.tags.includes(t)), "headings and lists");
  await expect("> quoted\n\nline one\nline two", (g) => g.tags.includes("blockquote") && g.html.includes("line one<br>line two"), "quotes and line breaks");
  await expect("snake_case_name", (g) => g.text.trim() === "snake_case_name" && !g.tags.includes("em"), "no emphasis inside a word with underscores");
  await expect("", (g) => g.html === "", "nothing");
  checks++;
  if (await page.evaluate(() => window.md.escapeHtml(`<>&"'`)) !== "&lt;&gt;&amp;&quot;&#39;") await fail("escapeHtml");
  checks++;
  if (errors.length) await fail("page errors: " + JSON.stringify(errors));
} catch (e) {
  await fail(e.stack || e.message);
}
await browser.close();
server.close();
console.log(JSON.stringify({ checks }));
