package io.conduit.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.NodeClient;
import org.junit.jupiter.api.Test;

/**
 * The chat page's Markdown renderer (vendored marked, highlight.js and DOMPurify) in headless Chromium
 * (src/test/js/chat-markdown.mjs, which serves the page's folder itself): model output with HTML, scripts, event
 * handlers, javascript: and data: links and quotes in URLs never becomes an element or attribute that runs; tables
 * and highlighted code render. Skipped, saying why, where Chromium cannot run.
 */
class ChatMarkdownTest {

    @Test
    void modelOutputCannotInjectHtmlAndTablesAndCodeRender() throws Exception {
        JsonNode r = NodeClient.run("chat-markdown.mjs", 120);
        assumeFalse(r.has("skipped"), () -> r.get("skipped").asText());
        assertThat(r.get("checks").asInt()).isGreaterThan(15);
    }
}
