package io.conduit.api;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A run that continues a thread (here from a static breakpoint) first tells the state it starts from, as LangGraph's
 * loop does: a {@code values} event before any step, whose checkpoint is the one the thread stopped at. That state is
 * no new checkpoint: the {@code checkpoints} stream tells only those the run writes, each with its parent.
 */
@QuarkusTest
class ResumedRunStreamTest {

    @Test
    void aContinuedRunStartsWithItsStateAndTellsOnlyTheCheckpointsItWrites() throws Exception {
        String thread = Api.newThread("resumed-stream");
        Api.join(thread, Api.start(thread, Api.run("Please plan my week", "interrupt_before", List.of("tool_executor"))));
        com.fasterxml.jackson.databind.JsonNode before = Api.state(thread);
        String stoppedAt = before.path("checkpoint").path("checkpoint_id").asText();

        Map<String, Object> resume = new HashMap<>();
        resume.put("assistant_id", "agent");
        resume.put("input", null);
        resume.put("stream_mode", List.of("values", "checkpoints"));
        String body = given().contentType("application/json").body(Api.json(resume)).when()
                .post("/threads/{t}/runs/stream", thread).then().statusCode(200).extract().asString();
        List<SseClient.Sse> events = SseClient.parse(body).stream().filter(e -> !e.event().equals("metadata")).toList();

        assertThat(events.get(0).event()).as("the first event").isEqualTo("values");
        assertThat(events.get(0).data()).as("the state it starts from").isEqualTo(before.path("values"));
        List<SseClient.Sse> checkpoints = events.stream().filter(e -> e.event().equals("checkpoints")).toList();
        assertThat(checkpoints).isNotEmpty();
        assertThat(checkpoints.get(0).data().path("parent_config").path("configurable").path("checkpoint_id").asText())
                .as("the first checkpoint the run writes follows the one it started at").isEqualTo(stoppedAt);
        for (SseClient.Sse c : checkpoints) {
            assertThat(c.data().path("config").path("configurable").path("checkpoint_id").asText()).as("no checkpoint is its own parent")
                    .isNotEqualTo(c.data().path("parent_config").path("configurable").path("checkpoint_id").asText());
        }
    }
}
