package io.conduit.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.NodeClient;
import org.junit.jupiter.api.Test;

/**
 * The chat page's Markdown renderer (vendored marked, highlight.js and DOMPurify) in headless Chromium
 * (src/test/js/chat-markdown.mjs): model output
 * with HTML, scripts, javascript: links and quotes in URLs renders as text, the Markdown subset as markup.
 */
class ChatMarkdownTest {

    @Test
    void modelOutputCannotInjectHtmlAndTheSubsetRenders() throws Exception {
        assertThat(NodeClient.run("chat-markdown.mjs", 60).get("checks").asInt()).isGreaterThan(10);
    }
}
