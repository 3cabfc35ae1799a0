package io.conduit.api;

import static io.conduit.api.Api.json;
import static io.conduit.api.Api.newThread;
import static io.conduit.api.Api.run;
import static io.conduit.api.Api.status;
import static io.conduit.api.Api.threadStatus;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A cancel of a run whose model has said its first token and pauses (ten minutes) before the next: the model call in
 * flight is stopped, so the run's stream ends with the cancel's error and the run is {@code interrupted}, without
 * waiting for that token. The waits are guards against a hang, far below the pause.
 */
@QuarkusTest
@TestProfile(PausingModel.class)
class CancelDuringModelPauseTest {

    private static final Duration GUARD = Duration.ofSeconds(60);

    @Test
    void aCancelAtTheFirstTokenStopsTheModelCallInFlight() {
        String thread = newThread("pause");
        try (SseClient s = SseClient.post("/threads/" + thread + "/runs/stream",
                json(run("take your time", "stream_mode", List.of("messages-tuple"))))) {
            String runId = s.await(e -> e.event().equals("metadata"), GUARD).data().get("run_id").asText();
            s.await(e -> e.event().equals("messages"), GUARD);

            given().when().post("/threads/{t}/runs/{r}/cancel?wait=1", thread, runId).then().statusCode(200);

            List<SseClient.Sse> events = s.toEnd(GUARD);
            SseClient.Sse last = events.get(events.size() - 1);
            assertThat(last.event()).isEqualTo("error");
            assertThat(last.data().get("error").asText()).isEqualTo("UserInterrupt");
            assertThat(status(thread, runId)).isEqualTo("interrupted");
            assertThat(threadStatus(thread)).as("the thread is free for its next run").isNotEqualTo("busy");
        }
    }
}
