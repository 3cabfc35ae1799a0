// The chat page's Markdown renderer (src/main/resources/META-INF/resources/chat/js/markdown.js) on hostile and
// ordinary input: nothing the model writes becomes an element or an attribute. Prints one JSON line; exits 1 on a failure.
import { renderMarkdown, escapeHtml } from "../../main/resources/META-INF/resources/chat/js/markdown.js";

let checks = 0;
function expect(input, html) {
  checks++;
  const got = renderMarkdown(input);
  if (got !== html) {
    console.error("FAILED " + JSON.stringify(input) + "\n  got:      " + got + "\n  expected: " + html);
    process.exit(1);
  }
}

expect("<img src=x onerror=alert(1)>", "<p>&lt;img src=x onerror=alert(1)&gt;</p>");
expect("<script>alert(1)</script>", "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>");
expect("**<b>x</b>**", "<p><strong>&lt;b&gt;x&lt;/b&gt;</strong></p>");
expect("`<i>`", "<p><code>&lt;i&gt;</code></p>");
expect("```html\n<div onclick=\"x()\">\n```", '<pre data-lang="html"><code>&lt;div onclick=&quot;x()&quot;&gt;</code></pre>');
expect("```\nstill streaming <b>", "<pre><code>still streaming &lt;b&gt;</code></pre>");
// links: only http(s) and mailto; a quote cannot leave the attribute
expect("[x](javascript:alert(1))", "<p>[x](javascript:alert(1))</p>");
expect("[x](data:text/html,hi)", "<p>[x](data:text/html,hi)</p>");
expect('[x](https://a.example/"onmouseover="alert(1))',
  '<p><a href="https://a.example/&quot;onmouseover=&quot;alert(1" target="_blank" rel="noopener noreferrer">x</a>)</p>');
expect("[docs](https://example.com/a?b=1&c=2)", '<p><a href="https://example.com/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer">docs</a></p>');
// the subset
expect("# Title\n- one\n- *two*\n\n1. a\n2. b", "<h3>Title</h3><ul><li>one</li><li><em>two</em></li></ul><ol><li>a</li><li>b</li></ol>");
expect("> quoted\nline one\nline two", "<blockquote>quoted</blockquote><p>line one<br>line two</p>");
expect("snake_case_name and 2*3*4", "<p>snake_case_name and 2*3*4</p>");
expect("", "");
checks++;
if (escapeHtml(`<>&"'`) !== "&lt;&gt;&amp;&quot;&#39;") { console.error("FAILED escapeHtml"); process.exit(1); }
console.log(JSON.stringify({ checks }));
