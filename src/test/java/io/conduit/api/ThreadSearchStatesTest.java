package io.conduit.api;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.checkpoint.Checkpoint;
import io.conduit.checkpoint.CheckpointSource;
import io.conduit.checkpoint.Checkpointer;
import io.conduit.checkpoint.Stored;
import io.conduit.kernel.TimeOrderedIds;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A search lists each thread with its values; one thread whose state cannot be read (its checkpoint holds a channel
 * its graph no longer declares: a graph changed under stored threads) is listed without them, and does not fail the
 * page with a 500, while {@code GET /threads/{id}} still says what is wrong with it.
 */
@QuarkusTest
class ThreadSearchStatesTest {

    @Inject
    Checkpointer checkpointer;

    @Test
    void aThreadWhoseStateCannotBeReadIsListedWithoutValues() {
        String tag = UUID.randomUUID().toString();
        String good = "search-good-" + UUID.randomUUID();
        String bad = "search-bad-" + UUID.randomUUID();
        for (String t : List.of(good, bad)) {
            given().contentType("application/json").body(Map.of("thread_id", t, "metadata", Map.of("case", tag)))
                    .when().post("/threads").then().statusCode(200);
        }
        given().contentType("application/json").body(Map.of("values", Api.say("hello"))).when().post("/threads/{t}/state", good)
                .then().statusCode(200);
        String id = TimeOrderedIds.next();
        checkpointer.put(new Checkpoint(bad, "", id, null, -1, CheckpointSource.INPUT, null, Map.of("draft", Stored.json("\"x\"")), Map.of(),
                List.of(), Map.of("source", "test"), TimeOrderedIds.millisOf(id), 1), null).await().indefinitely();

        Response r = given().contentType("application/json").body(Map.of("metadata", Map.of("case", tag))).when().post("/threads/search");

        assertThat(r.statusCode()).as(r.asString()).isEqualTo(200);
        assertThat(r.<List<String>>path("thread_id")).containsExactlyInAnyOrder(good, bad);
        assertThat(r.<List<String>>path("find { it.thread_id == '" + good + "' }.values.messages.content")).contains("hello");
        assertThat(r.<Map<String, Object>>path("find { it.thread_id == '" + bad + "' }.values")).isNullOrEmpty();
        assertThat(given().when().get("/threads/{t}/state", bad).then().statusCode(500).extract().<String>path("code")).isEqualTo("state_corrupted");
    }
}
