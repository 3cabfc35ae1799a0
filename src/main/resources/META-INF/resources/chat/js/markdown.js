// A small Markdown subset rendered safely: every character of the source is HTML-escaped first, then only
// markup this module writes itself is added (paragraphs, headings, lists, quotes, code, emphasis, http(s) links).
// Model output can therefore never inject an element, an attribute or a script.

const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes text for use in HTML element content and in double-quoted attribute values. */
export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** Inline markup of one escaped line: code spans first (their content is left as is), then links and emphasis. */
function inline(escaped) {
  const parts = escaped.split(/(`[^`]+`)/g);
  return parts.map((part, i) => {
    if (i % 2 === 1) return "<code>" + part.slice(1, -1) + "</code>";
    return part
      // [text](url): only absolute http(s) and mailto targets; the url is already escaped, so it cannot close the attribute
      .replace(/\[([^\]]+)\]\(((?:https?:\/\/|mailto:)[^\s)]+)\)/g,
        (_, text, url) => '<a href="' + url + '" target="_blank" rel="noopener noreferrer">' + text + "</a>")
      .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
      .replace(/__([^_]+)__/g, "<strong>$1</strong>")
      .replace(/(^|[^*\w])\*([^*\s][^*]*?)\*(?!\w)/g, "$1<em>$2</em>")
      .replace(/(^|[^_\w])_([^_\s][^_]*?)_(?!\w)/g, "$1<em>$2</em>");
  }).join("");
}

/** Renders Markdown source to HTML. Unclosed code fences (text still streaming in) render as code so far. */
export function renderMarkdown(source) {
  const lines = escapeHtml(source ?? "").replace(/\r\n?/g, "\n").split("\n");
  const out = [];
  let paragraph = [];
  let list = null; // {tag, items}
  let quote = [];

  const flushParagraph = () => {
    if (paragraph.length) out.push("<p>" + paragraph.map(inline).join("<br>") + "</p>");
    paragraph = [];
  };
  const flushList = () => {
    if (list) out.push("<" + list.tag + ">" + list.items.map((it) => "<li>" + inline(it) + "</li>").join("") + "</" + list.tag + ">");
    list = null;
  };
  const flushQuote = () => {
    if (quote.length) out.push("<blockquote>" + quote.map(inline).join("<br>") + "</blockquote>");
    quote = [];
  };
  const flushAll = () => { flushParagraph(); flushList(); flushQuote(); };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = line.match(/^\s*```\s*([\w+-]*)\s*$/);
    if (fence) {
      flushAll();
      const code = [];
      i++;
      while (i < lines.length && !/^\s*```\s*$/.test(lines[i])) code.push(lines[i++]);
      const lang = fence[1] ? ' data-lang="' + fence[1] + '"' : "";
      out.push("<pre" + lang + "><code>" + code.join("\n") + "</code></pre>");
      continue;
    }
    const heading = line.match(/^(#{1,4})\s+(.*)$/);
    const bullet = line.match(/^\s*[-*+]\s+(.*)$/);
    const numbered = line.match(/^\s*\d+[.)]\s+(.*)$/);
    const quoted = line.match(/^&gt;\s?(.*)$/);
    if (heading) {
      flushAll();
      const level = heading[1].length + 2; // h3..h6: headings inside a chat bubble stay small
      out.push("<h" + level + ">" + inline(heading[2]) + "</h" + level + ">");
    } else if (bullet || numbered) {
      flushParagraph(); flushQuote();
      const tag = bullet ? "ul" : "ol";
      if (list && list.tag !== tag) flushList();
      if (!list) list = { tag, items: [] };
      list.items.push((bullet || numbered)[1]);
    } else if (quoted) {
      flushParagraph(); flushList();
      quote.push(quoted[1]);
    } else if (line.trim() === "") {
      flushAll();
    } else {
      flushList(); flushQuote();
      paragraph.push(line);
    }
  }
  flushAll();
  return out.join("");
}
