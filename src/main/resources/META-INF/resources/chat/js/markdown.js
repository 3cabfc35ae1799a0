// Model output as Markdown (GitHub's flavour: tables, task lists, strikethrough) with highlighted code, rendered
// safely. Three vendored libraries, no build step (vendor/README.md says which versions and where from):
// marked parses, highlight.js colours fenced code of a few common languages, and DOMPurify sanitizes the result.
// Raw HTML in the source is shown as text, never parsed; the sanitizer then keeps only the tags and attributes this
// page's Markdown makes, and links only to http(s) and mailto. Model output can therefore never inject an element,
// an attribute or a script.
import { Marked } from "../vendor/marked.esm.js";
import DOMPurify from "../vendor/purify.es.mjs";
import hljs from "../vendor/highlight/core.min.js";
import bash from "../vendor/highlight/languages/bash.min.js";
import css from "../vendor/highlight/languages/css.min.js";
import java from "../vendor/highlight/languages/java.min.js";
import javascript from "../vendor/highlight/languages/javascript.min.js";
import json from "../vendor/highlight/languages/json.min.js";
import python from "../vendor/highlight/languages/python.min.js";
import shell from "../vendor/highlight/languages/shell.min.js";
import sql from "../vendor/highlight/languages/sql.min.js";
import typescript from "../vendor/highlight/languages/typescript.min.js";
import xml from "../vendor/highlight/languages/xml.min.js";
import yaml from "../vendor/highlight/languages/yaml.min.js";

for (const [name, grammar] of Object.entries({ bash, css, java, javascript, json, python, shell, sql, typescript, xml, yaml })) {
  hljs.registerLanguage(name, grammar);
}

const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes text for use in HTML element content and in double-quoted attribute values. */
export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

const markdown = new Marked({
  gfm: true,
  breaks: true, // a chat's single newlines are line breaks
  renderer: {
    // raw HTML is text: the model's `<img onerror=…>` shows as written
    html: ({ text }) => escapeHtml(text),
    code({ text, lang }) {
      const language = ((lang || "").match(/^[\w+-]+/)?.[0] || "").toLowerCase();
      const known = language && hljs.getLanguage(language);
      const body = known ? hljs.highlight(text, { language, ignoreIllegals: true }).value : escapeHtml(text);
      const attrs = language ? ' data-lang="' + escapeHtml(language) + '"' : "";
      return "<pre" + attrs + '><code class="hljs' + (known ? " language-" + language : "") + '">' + body + "</code></pre>";
    },
  },
});

// only what the renderer above makes; `class` carries highlight.js's token names
const ALLOWED_TAGS = ["p", "br", "strong", "em", "del", "code", "pre", "span", "a", "ul", "ol", "li", "blockquote", "hr",
  "h1", "h2", "h3", "h4", "h5", "h6", "table", "thead", "tbody", "tr", "th", "td", "input"];
const ALLOWED_ATTR = ["href", "title", "class", "align", "start", "data-lang", "type", "checked", "disabled"];

const purify = DOMPurify();
purify.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName === "A") {
    node.setAttribute("target", "_blank");
    node.setAttribute("rel", "noopener noreferrer");
  }
  if (node.tagName === "INPUT" && node.getAttribute("type") !== "checkbox") node.remove(); // task lists only
});

/** Renders Markdown source to sanitized HTML. Unclosed code fences (text still streaming in) render as code so far. */
export function renderMarkdown(source) {
  const html = markdown.parse(String(source ?? "").replace(/\r\n?/g, "\n"));
  return purify.sanitize(html, {
    ALLOWED_TAGS, ALLOWED_ATTR, ADD_ATTR: ["target", "rel"],
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i,
  });
}
