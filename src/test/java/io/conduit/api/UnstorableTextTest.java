package io.conduit.api;

import static io.conduit.api.Api.checkpointRuns;
import static io.conduit.api.Api.join;
import static io.conduit.api.Api.newThread;
import static io.conduit.api.Api.run;
import static io.conduit.api.Api.start;
import static io.conduit.api.Api.state;
import static io.conduit.api.Api.tree;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Text no store can keep as it was sent, on the Postgres stores: NUL (PostgreSQL's text and jsonb refuse it), a lone
 * surrogate (UTF-8 has no encoding for one: it was stored as {@code ?}) and bytes that are not UTF-8 (they were read as
 * U+FFFD). Each is refused with 422 {@code invalid_input} naming the field (the body, for bytes), on every endpoint that
 * stores a client's JSON, and nothing is written: the thread's metadata and state, the store, the assistants and the
 * runs are as they were.
 */
@QuarkusTest
class UnstorableTextTest {

    /** A defect put where a template has {@code @@}, inside a JSON string. */
    enum Defect {
        NUL("\\u0000", null),
        LONE_SURROGATE("\\ud800", null),
        NOT_UTF8(null, new byte[]{(byte) 0xff}),
        /** A surrogate encoded as if it were a character (CESU-8): not UTF-8, though a lenient decoder reads it. */
        ENCODED_SURROGATE(null, new byte[]{(byte) 0xed, (byte) 0xa0, (byte) 0x80}),
        /** NUL in two bytes (Java's modified UTF-8): not UTF-8, though a lenient decoder reads it. */
        OVERLONG_NUL(null, new byte[]{(byte) 0xc0, (byte) 0x80});

        private final String escape;
        private final byte[] bytes;

        Defect(String escape, byte[] bytes) {
            this.escape = escape;
            this.bytes = bytes;
        }

        byte[] in(String template) {
            if (escape != null) {
                return template.replace("@@", escape).getBytes(StandardCharsets.UTF_8);
            }
            String[] parts = template.split("@@", -1);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            for (int i = 0; i < parts.length; i++) {
                if (i > 0) {
                    out.writeBytes(bytes);
                }
                out.writeBytes(parts[i].getBytes(StandardCharsets.UTF_8));
            }
            return out.toByteArray();
        }

        /** The field the refusal names: the JSON path of a bad character; the body, for bytes that are not UTF-8. */
        String field(String path) {
            return escape != null ? path : "body";
        }
    }

    private static Response send(String method, String path, byte[] body) {
        return given().contentType("application/json").body(body).when().request(method, path);
    }

    private static void refused(Response r, String field) {
        r.then().statusCode(422).contentType(containsString("application/json")).body("code", equalTo("invalid_input"))
                .body("detail", startsWith(field + ":"));
    }

    private static JsonNode record(String thread) {
        return tree(given().when().get("/threads/{t}", thread).then().statusCode(200).extract().asString());
    }

    private static String fresh(String prefix) {
        return prefix + "-" + UUID.randomUUID();
    }

    private static void noThread(String thread) {
        given().when().get("/threads/{t}", thread).then().statusCode(404);
    }

    @Test
    void threadMetadataIsRefusedAndLeftAsItWas() {
        String thread = newThread("text-metadata");
        given().contentType("application/json").body(Map.of("metadata", Map.of("note", "ok"))).when().patch("/threads/{t}", thread)
                .then().statusCode(200);
        JsonNode before = record(thread);
        for (Defect d : Defect.values()) {
            refused(send("PATCH", "/threads/" + thread, d.in("{\"metadata\": {\"note\": \"a@@b\"}}")), d.field("metadata.note"));
            refused(send("PATCH", "/threads/" + thread, d.in("{\"metadata\": {\"deep\": [1, {\"k@@\": 2}]}}")), d.field("metadata.deep[1]"));
            String created = fresh("text-created");
            refused(send("POST", "/threads", d.in("{\"thread_id\": \"" + created + "\", \"metadata\": {\"note\": \"a@@b\"}}")),
                    d.field("metadata.note"));
            noThread(created);
            refused(send("POST", "/threads/search", d.in("{\"metadata\": {\"note\": \"a@@b\"}}")), d.field("metadata.note"));
            refused(send("POST", "/threads/count", d.in("{\"metadata\": {\"note\": \"a@@b\"}}")), d.field("metadata.note"));
        }
        assertThat(record(thread)).as("metadata and updated_at unchanged").isEqualTo(before);
    }

    @Test
    void stateValuesAreRefusedAndTheStateIsUnchanged() {
        String thread = newThread("text-state");
        join(thread, start(thread, run("hello")));
        String checkpoint = state(thread).path("checkpoint_id").asText();
        List<String> history = checkpointRuns(thread);
        for (Defect d : Defect.values()) {
            refused(send("POST", "/threads/" + thread + "/state", d.in("{\"values\": {\"messages\": [{\"role\": \"user\", \"content\": \"a@@b\"}]}}")),
                    d.field("values.messages[0].content"));
            refused(send("POST", "/threads/" + thread + "/state", d.in("{\"values\": {\"summary\": \"a@@b\"}}")), d.field("values.summary"));
            refused(send("POST", "/threads/" + thread + "/state", d.in("{\"values\": {}, \"as_node\": \"plan@@ner\"}")), d.field("as_node"));
        }
        assertThat(state(thread).path("checkpoint_id").asText()).isEqualTo(checkpoint);
        assertThat(checkpointRuns(thread)).isEqualTo(history);
    }

    @Test
    void storeItemsAreRefusedAndNothingIsStored() {
        String label = fresh("text-store");
        for (Defect d : Defect.values()) {
            refused(send("PUT", "/store/items", d.in("{\"namespace\": [\"" + label + "\"], \"key\": \"k@@\", \"value\": {\"v\": 1}}")), d.field("key"));
            refused(send("PUT", "/store/items", d.in("{\"namespace\": [\"" + label + "\"], \"key\": \"k\", \"value\": {\"v\": \"a@@b\"}}")),
                    d.field("value.v"));
            refused(send("PUT", "/store/items", d.in("{\"namespace\": [\"" + label + "\"], \"key\": \"k\", \"value\": {\"v@@\": 1}}")),
                    d.field("value"));
            refused(send("PUT", "/store/items", d.in("{\"namespace\": [\"" + label + "\", \"l@@\"], \"key\": \"k\", \"value\": {}}")),
                    d.field("namespace[1]"));
            refused(send("POST", "/store/items/search", d.in("{\"namespace_prefix\": [\"" + label + "\"], \"filter\": {\"v\": \"a@@b\"}}")),
                    d.field("filter.v"));
        }
        // query parameters (sent as written: %00 is NUL): the store's own rule, as they are no JSON body
        given().urlEncodingEnabled(false).when().get("/store/items?namespace=" + label + "&key=k%00").then().statusCode(422).body("code", equalTo("invalid_input"))
                .body("detail", startsWith("key:"));
        given().urlEncodingEnabled(false).when().get("/store/items?namespace=" + label + ".a%00&key=k").then().statusCode(422).body("code", equalTo("invalid_input"))
                .body("detail", startsWith("namespace:"));
        given().contentType("application/json").body(Map.of("namespace_prefix", List.of(label))).when().post("/store/items/search")
                .then().statusCode(200).body("items.size()", equalTo(0));
        given().contentType("application/json").body(Map.of("prefix", List.of(label))).when().post("/store/namespaces")
                .then().statusCode(200).body("namespaces.size()", equalTo(0));
    }

    @Test
    void assistantsAreRefusedAndLeftAsTheyWere() {
        String marker = fresh("text-assistant");
        String id = given().contentType("application/json").body(Map.of("graph_id", "agent", "metadata", Map.of("marker", marker)))
                .when().post("/assistants").then().statusCode(200).extract().path("assistant_id");
        JsonNode before = tree(given().when().get("/assistants/{a}", id).then().statusCode(200).extract().asString());
        for (Defect d : Defect.values()) {
            String m = "{\"graph_id\": \"agent\", \"metadata\": {\"marker\": \"" + marker + "\"}, ";
            refused(send("POST", "/assistants", d.in(m + "\"context\": {\"note\": \"a@@b\"}}")), d.field("context.note"));
            refused(send("POST", "/assistants", d.in(m + "\"config\": {\"configurable\": {\"system_prompt\": \"a@@b\"}}}")),
                    d.field("config.configurable.system_prompt"));
            refused(send("POST", "/assistants", d.in("{\"graph_id\": \"agent\", \"metadata\": {\"marker\": \"" + marker + "\", \"note\": \"a@@b\"}}")),
                    d.field("metadata.note"));
            refused(send("POST", "/assistants", d.in(m + "\"description\": \"a@@b\"}")), d.field("description"));
            refused(send("PATCH", "/assistants/" + id, d.in("{\"metadata\": {\"note\": \"a@@b\"}}")), d.field("metadata.note"));
            refused(send("POST", "/assistants/search", d.in("{\"metadata\": {\"note\": \"a@@b\"}}")), d.field("metadata.note"));
        }
        given().contentType("application/json").body(Map.of("metadata", Map.of("marker", marker))).when().post("/assistants/search")
                .then().statusCode(200).body("size()", equalTo(1));
        given().contentType("application/json").body(Map.of()).when().post("/assistants/{a}/versions", id).then().statusCode(200)
                .body("size()", equalTo(1));
        assertThat(tree(given().when().get("/assistants/{a}", id).then().statusCode(200).extract().asString())).isEqualTo(before);
    }

    @Test
    void runsAreRefusedOnEveryPathAndNoneIsWritten() {
        String thread = newThread("text-runs");
        long threadsBefore = threads();
        for (Defect d : Defect.values()) {
            for (String path : List.of("/threads/" + thread + "/runs", "/threads/" + thread + "/runs/stream", "/threads/" + thread + "/runs/wait",
                    "/runs", "/runs/stream", "/runs/wait")) {
                String say = "\"assistant_id\": \"agent\", \"input\": {\"messages\": [{\"role\": \"user\", \"content\": \"hello";
                refused(send("POST", path, d.in("{" + say + " @@ there\"}]}}")), d.field("input.messages[0].content"));
                refused(send("POST", path, d.in("{" + say + "\"}]}, \"metadata\": {\"note\": \"a@@b\"}}")), d.field("metadata.note"));
                refused(send("POST", path, d.in("{" + say + "\"}]}, \"config\": {\"configurable\": {\"user_id\": \"a@@b\"}}}")),
                        d.field("config.configurable.user_id"));
                refused(send("POST", path, d.in("{" + say + "\"}]}, \"command\": {\"resume\": \"a@@b\"}}")), d.field("command.resume"));
            }
        }
        given().when().get("/threads/{t}/runs", thread).then().statusCode(200).body("size()", equalTo(0));
        assertThat(checkpointRuns(thread)).isEmpty();
        assertThat(threads()).as("no temporary thread of a stateless run").isEqualTo(threadsBefore);
    }

    @Test
    void theOtherDoorsRefuseAndWriteNothing() {
        for (Defect d : Defect.values()) {
            String thread = fresh("text-doors");
            refused(send("POST", "/ag-ui", d.in("{\"threadId\": \"" + thread + "\", \"runId\": \"r1\", \"messages\": [{\"id\": \"u1\", \"role\": \"user\", "
                    + "\"content\": \"a@@b\"}], \"tools\": [], \"context\": [], \"state\": {}, \"forwardedProps\": {}}")), d.field("messages[0].content"));
            refused(send("POST", "/ag-ui", d.in("{\"threadId\": \"" + thread + "\", \"runId\": \"r1\", \"messages\": [{\"id\": \"u1\", \"role\": \"user\", "
                    + "\"content\": \"hello\"}], \"tools\": [{\"name\": \"pick\", \"description\": \"a@@b\", \"parameters\": {}}]}")),
                    d.field("tools[0].description"));
            refused(send("POST", "/ai-sdk/chat", d.in("{\"id\": \"" + thread + "\", \"messages\": [{\"id\": \"m1\", \"role\": \"user\", "
                    + "\"parts\": [{\"type\": \"text\", \"text\": \"a@@b\"}]}]}")), d.field("messages[0].parts[0].text"));
            given().contentType("application/json").header("X-Conduit-Thread", thread)
                    .body(d.in("{\"model\": \"agent\", \"messages\": [{\"role\": \"user\", \"content\": \"a@@b\"}]}"))
                    .when().post("/v1/chat/completions").then().statusCode(400).body("error.type", equalTo("invalid_request_error"))
                    .body("error.code", equalTo("invalid_value")).body("error.message", startsWith(d.field("messages[0].content") + ":"));
            given().contentType("application/json")
                    .body(d.in("{\"id\": 1, \"method\": \"run.start\", \"params\": {\"assistant_id\": \"agent\", \"metadata\": {\"note\": \"a@@b\"}}}"))
                    .when().post("/threads/{t}/commands", thread).then().statusCode(200).body("type", equalTo("error"))
                    .body("error", equalTo("invalid_argument")).body("message", startsWith(d.field("params.metadata.note") + ":"));
            noThread(thread);
        }
    }

    private static long threads() {
        return Long.parseLong(given().contentType("application/json").body("{}").when().post("/threads/count")
                .then().statusCode(200).extract().asString().trim());
    }
}
