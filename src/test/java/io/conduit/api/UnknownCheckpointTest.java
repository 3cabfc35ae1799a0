package io.conduit.api;

import static io.conduit.api.Api.checkpointRuns;
import static io.conduit.api.Api.join;
import static io.conduit.api.Api.newThread;
import static io.conduit.api.Api.run;
import static io.conduit.api.Api.start;
import static io.conduit.api.Api.state;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A run from a checkpoint the thread does not have is refused with 404 {@code not_found} (the thread protocol:
 * {@code no_such_checkpoint}) before anything is written: no run row (one that would only end {@code __error__}), no
 * thread, no checkpoint. A known checkpoint still forks.
 */
@QuarkusTest
class UnknownCheckpointTest {

    private static final List<String> RUN_PATHS = List.of("/runs", "/runs/stream", "/runs/wait");

    private static int runs(String thread) {
        return given().when().get("/threads/{t}/runs?limit=1000", thread).then().statusCode(200).extract().path("size()");
    }

    @Test
    void aRunFromAnUnknownCheckpointIs404AndWritesNothing() {
        String thread = newThread("unknown-checkpoint");
        join(thread, start(thread, run("hello")));
        String head = state(thread).path("checkpoint_id").asText();
        List<String> history = checkpointRuns(thread);
        String unknown = UUID.randomUUID().toString();
        for (String path : RUN_PATHS) {
            for (Map<String, Object> body : List.of(run("again", "checkpoint_id", unknown), run("again", "checkpoint_id", "nope"),
                    run("again", "checkpoint", Map.of("checkpoint_id", unknown)))) {
                given().contentType("application/json").body(body).when().post("/threads/{t}" + path, thread)
                        .then().statusCode(404).contentType(containsString("application/json")).body("code", equalTo("not_found"))
                        .body("detail", containsString("checkpoint"));
            }
            // stateless: its temporary thread has no checkpoint at all
            given().contentType("application/json").body(run("again", "checkpoint_id", unknown)).when().post(path)
                    .then().statusCode(404).body("code", equalTo("not_found"));
            // a thread the run would create has none either, and is not created
            String created = "unknown-checkpoint-" + UUID.randomUUID();
            given().contentType("application/json").body(run("again", "checkpoint_id", unknown, "if_not_exists", "create"))
                    .when().post("/threads/{t}" + path, created).then().statusCode(404).body("code", equalTo("not_found"));
            given().when().get("/threads/{t}", created).then().statusCode(404);
        }
        given().contentType("application/json")
                .body(Map.of("id", 1, "method", "run.start", "params", Map.of("assistant_id", "agent", "input", Api.say("again"),
                        "config", Map.of("configurable", Map.of("checkpoint_id", unknown)))))
                .when().post("/threads/{t}/commands", thread).then().statusCode(200).body("type", equalTo("error"))
                .body("error", equalTo("no_such_checkpoint"));
        assertThat(runs(thread)).as("only the first run").isEqualTo(1);
        assertThat(state(thread).path("checkpoint_id").asText()).isEqualTo(head);
        assertThat(checkpointRuns(thread)).isEqualTo(history);
        given().when().get("/threads/{t}", thread).then().statusCode(200).body("status", equalTo("idle"));

        // a checkpoint the thread has still forks
        String fork = start(thread, run("again", "checkpoint_id", head));
        join(thread, fork);
        assertThat(runs(thread)).isEqualTo(2);
        given().when().get("/threads/{t}/runs/{r}", thread, fork).then().statusCode(200).body("status", equalTo("success"));
    }
}
