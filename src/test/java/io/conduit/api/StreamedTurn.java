package io.conduit.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.api.SseClient.Sse;
import java.time.Duration;
import java.util.List;
import org.assertj.core.api.AbstractStringAssert;

/**
 * One run of the default assistant made with {@code POST /threads/{id}/runs/stream} and read to its end by a real SSE
 * client, then checked as a client would: how the stream ended, the tokens it brought, the run's record.
 */
record StreamedTurn(String thread, List<Sse> events) {

    /** Long enough for a model's retries and its idle timeout on a loaded machine; a stuck run fails here. */
    private static final Duration WITHIN = Duration.ofSeconds(30);

    static StreamedTurn on(String thread, String text) {
        try (SseClient sse = SseClient.post("/threads/" + thread + "/runs/stream",
                Api.json(Api.run(text, "stream_mode", List.of("messages-tuple", "values"))))) {
            assertThat(sse.status()).isEqualTo(200);
            return new StreamedTurn(thread, sse.toEnd(WITHIN));
        }
    }

    String runId() {
        return events.getFirst().data().get("run_id").asText();
    }

    /** The text of the model's message chunks, in the order they came. */
    List<String> tokens() {
        return events.stream().filter(e -> e.event().equals("messages"))
                .map(e -> e.data().get(0))
                .filter(m -> m.path("type").asText().equals("AIMessageChunk") && !m.path("content").asText().isEmpty())
                .map(m -> m.path("content").asText()).toList();
    }

    /** The stream ended with {@code end}, its tokens add up to {@code answer}, the run is {@code success}. */
    void succeeded(String answer) {
        assertThat(events).extracting(Sse::event).as("%s", events).doesNotContain("error").last().isEqualTo("end");
        assertThat(String.join("", tokens())).isEqualTo(answer);
        assertThat(Api.status(thread, runId())).isEqualTo("success");
        JsonNode messages = Api.state(thread).path("values").path("messages");
        assertThat(messages.get(messages.size() - 1).path("content").asText()).isEqualTo(answer);
    }

    /**
     * The stream ended with an {@code error} event, a code and a one-line sentence (no stack trace); the run and its
     * thread are recorded {@code error} (so the thread is not {@code busy}). Returns the sentence, to check further.
     */
    AbstractStringAssert<?> failed() {
        assertThat(events).extracting(Sse::event).as("%s", events).last().isEqualTo("error");
        assertThat(events).extracting(Sse::event).doesNotContain("end");
        JsonNode error = events.getLast().data();
        String message = error.path("message").asText();
        assertThat(error.path("error").asText()).as("a machine-readable code").isEqualTo("node_failed");
        assertThat(message).as("a sentence, no stack trace").isNotBlank().doesNotContain("\n").doesNotContain("\tat ")
                .doesNotContain("Exception");
        assertThat(Api.status(thread, runId())).isEqualTo("error");
        assertThat(Api.threadStatus(thread)).isEqualTo("error");
        return assertThat(message);
    }
}
