package io.conduit.llm.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads an OpenAI chat-completions stream strictly: every frame is exactly {@code data: <one line of JSON>}, frames
 * are separated by a blank line, and the last one is {@code data: [DONE]}. Returns the chunks in order.
 */
final class SseFrames {

    private static final ObjectMapper JSON = new ObjectMapper();

    private SseFrames() {
    }

    static List<JsonNode> chunks(String body) throws Exception {
        assertThat(body).as("the stream ends with [DONE] and a blank line").endsWith("data: [DONE]\n\n");
        String[] frames = body.substring(0, body.length() - 2).split("\n\n", -1);
        List<JsonNode> chunks = new ArrayList<>();
        for (int i = 0; i < frames.length - 1; i++) {
            String frame = frames[i];
            assertThat(frame).as("frame %d", i).startsWith("data: {").doesNotContain("\n").doesNotContain("\r");
            chunks.add(JSON.readTree(frame.substring("data: ".length())));
        }
        assertThat(frames[frames.length - 1]).isEqualTo("data: [DONE]");
        return chunks;
    }

    /** The chunks that carry a choice (all but the usage chunk). */
    static List<JsonNode> choiceChunks(List<JsonNode> chunks) {
        return chunks.stream().filter(c -> !c.get("choices").isEmpty()).toList();
    }

    /** The concatenated text of one delta field ({@code content}, {@code reasoning_content}) over the stream. */
    static String text(List<JsonNode> chunks, String field) {
        StringBuilder sb = new StringBuilder();
        for (JsonNode c : choiceChunks(chunks)) {
            JsonNode v = c.get("choices").get(0).get("delta").get(field);
            if (v != null && v.isTextual()) {
                sb.append(v.asText());
            }
        }
        return sb.toString();
    }
}
