package io.conduit.blueprints.analyst;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.kernel.JsonCodec;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The analyst end to end over the HTTP API: a generated 10,000-row CSV uploaded to a thread (Postgres), a question
 * the simulator (over HTTP, through LangChain4j) answers with a scripted filter_and_aggregate call; the numbers are
 * checked in the tool's result, which the service computed over the stored file, and in the streamed answer.
 */
@QuarkusTest
@TestProfile(AnalystOnSimulatorTest.Script.class)
class AnalystOnSimulatorTest {

    public static class Script implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("conduit.simulator.script", Path.of("src", "test", "resources", "analyst", "script.json").toAbsolutePath().toString());
        }
    }

    private static final String[] REGIONS = {"north", "south", "east", "west"};

    /** Row i: region by i mod 4, units (37 i) mod 100, price ((i mod 13) + 1) / 2. */
    static String sales(int rows) {
        StringBuilder b = new StringBuilder("id,region,units,price\n");
        for (int i = 0; i < rows; i++) {
            b.append(i).append(',').append(REGIONS[i % 4]).append(',').append((i * 37) % 100).append(',').append(((i % 13) + 1) * 0.5).append('\n');
        }
        return b.toString();
    }

    @Test
    void aQuestionOverA10000RowCsvIsAnsweredThroughFilterAndAggregate() throws Exception {
        // what the tool must find, worked out here independently of the service
        long count = 0;
        long units = 0;
        double price = 0;
        for (int i = 0; i < 10_000; i++) {
            if (i % 4 == 0 && (i * 37) % 100 >= 50) {
                count++;
                units += (i * 37) % 100;
                price += ((i % 13) + 1) * 0.5;
            }
        }
        assertThat(count).isEqualTo(1200);
        assertThat(units).isEqualTo(88800);
        assertThat(price / count).isEqualTo(3.50125);

        String thread = "analyst-" + UUID.randomUUID();
        given().contentType("application/json").body(Map.of("thread_id", thread)).when().post("/threads").then().statusCode(200);
        given().multiPart("file", "sales.csv", sales(10_000).getBytes(StandardCharsets.UTF_8), "text/csv")
                .when().post("/threads/{t}/files", thread).then().statusCode(201)
                .body("csv.row_count", org.hamcrest.Matchers.equalTo(10_000));

        String body = given().contentType("application/json")
                .body(Map.of("assistant_id", "analyst",
                        "input", Map.of("messages", List.of(Map.of("role", "user",
                                "content", "In sales.csv, how many north orders had at least 50 units, what were their total units and average price?"))),
                        "stream_mode", List.of("values", "messages-tuple", "events")))
                .when().post("/threads/{t}/runs/stream", thread)
                .then().statusCode(200).extract().asString();
        List<Event> events = parse(body);
        assertThat(events.get(events.size() - 1).event()).isEqualTo("end");

        // the tool call and its result, computed by the service over the stored file
        JsonNode toolEnd = events.stream().filter(e -> e.event().equals("events") && e.data().get("event").asText().equals("on_tool_end"))
                .findFirst().orElseThrow().data();
        assertThat(toolEnd.get("name").asText()).isEqualTo("filter_and_aggregate");
        JsonNode result = JsonCodec.MAPPER.readTree(toolEnd.get("data").get("output").asText());
        assertThat(result.get("rows").asLong()).isEqualTo(1200);
        assertThat(result.get("groups").toString()).isEqualTo("[{\"count\":1200,\"sum(units)\":88800,\"avg(price)\":3.50125}]");

        // the answer streamed token by token, with the same numbers
        StringBuilder streamed = new StringBuilder();
        for (Event e : events) {
            if (e.event().equals("messages") && e.data().get(0).get("type").asText().startsWith("AI")) {
                streamed.append(e.data().get(0).path("content").asText(""));
            }
        }
        assertThat(streamed.toString()).contains("1200", "88800", "3.50125");

        // the run's final values: the files read by load_metadata, the answer, and the turn save_messages recorded
        JsonNode values = events.stream().filter(e -> e.event().equals("values")).reduce((a, b) -> b).orElseThrow().data();
        JsonNode files = values.get("files").get("files");
        assertThat(files.get(0).get("name").asText()).isEqualTo("sales.csv");
        assertThat(files.get(0).get("rowCount").asLong()).isEqualTo(10_000);
        JsonNode messages = values.get("messages");
        JsonNode answer = messages.get(messages.size() - 1);
        assertThat(answer.get("content").asText()).isEqualTo("North orders with at least 50 units: 1200 of them, 88800 units in total, at an average price of 3.50125.");
        JsonNode turn = values.get("turns").get(0);
        assertThat(turn.get("tools").toString()).isEqualTo("[\"filter_and_aggregate\"]");
        assertThat(turn.get("iterations").asInt()).isEqualTo(1);
        assertThat(turn.get("answer").asText()).isEqualTo(answer.get("content").asText());
    }

    @Test
    void theAgentStopsCallingToolsAfterFiveRounds() throws Exception {
        String thread = "analyst-" + UUID.randomUUID();
        given().contentType("application/json").body(Map.of("thread_id", thread)).when().post("/threads").then().statusCode(200);
        given().multiPart("file", "sales.csv", sales(20).getBytes(StandardCharsets.UTF_8), "text/csv")
                .when().post("/threads/{t}/files", thread).then().statusCode(201);
        String body = given().contentType("application/json")
                .body(Map.of("assistant_id", "analyst", "input", Map.of("messages", List.of(Map.of("role", "user", "content", "keep looking"))),
                        "stream_mode", List.of("values", "events")))
                .when().post("/threads/{t}/runs/stream", thread).then().statusCode(200).extract().asString();
        List<Event> events = parse(body);
        long tools = events.stream().filter(e -> e.event().equals("events") && e.data().get("event").asText().equals("on_tool_end")).count();
        assertThat(tools).isEqualTo(5); // the script has seven rounds; the sixth call binds no tools
        JsonNode values = events.stream().filter(e -> e.event().equals("values")).reduce((a, b) -> b).orElseThrow().data();
        JsonNode messages = values.get("messages");
        assertThat(messages.get(messages.size() - 1).get("content").asText()).isEqualTo("That is all I could find.");
        assertThat(values.get("turns").get(0).get("iterations").asInt()).isEqualTo(5);
    }

    @Test
    void anImageAttachedToAQuestionGoesToTheModelAndStaysOnTheMessage() throws Exception {
        String thread = "analyst-" + UUID.randomUUID();
        given().contentType("application/json").body(Map.of("thread_id", thread)).when().post("/threads").then().statusCode(200);
        String png = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
        String body = given().contentType("application/json")
                .body(Map.of("assistant_id", "analyst", "input", Map.of("messages", List.of(Map.of("role", "user", "content", List.of(
                                Map.of("type", "text", "text", "what does this chart show"),
                                Map.of("type", "image_url", "image_url", Map.of("url", png)))))),
                        "stream_mode", List.of("values")))
                .when().post("/threads/{t}/runs/stream", thread).then().statusCode(200).extract().asString();
        List<Event> events = parse(body);
        JsonNode values = events.stream().filter(e -> e.event().equals("values")).reduce((a, b) -> b).orElseThrow().data();
        JsonNode messages = values.get("messages");
        // the model (the simulator, over OpenAI's wire format with an image part) answered the text
        assertThat(messages.get(messages.size() - 1).get("content").asText())
                .isEqualTo("I can only answer questions about the uploaded files. You said: what does this chart show");
        JsonNode question = messages.get(0).get("content");
        assertThat(question.get(1).get("image_url").get("url").asText()).isEqualTo(png);
    }

    record Event(String event, JsonNode data) {
    }

    static List<Event> parse(String body) throws Exception {
        List<Event> out = new ArrayList<>();
        for (String frame : body.split("\n\n")) {
            String event = null;
            StringBuilder data = new StringBuilder();
            for (String line : frame.split("\n")) {
                if (line.startsWith("event: ")) {
                    event = line.substring(7);
                } else if (line.startsWith("data: ")) {
                    data.append(line.substring(6));
                }
            }
            if (event != null) {
                out.add(new Event(event, data.isEmpty() ? null : JsonCodec.MAPPER.readTree(data.toString())));
            }
        }
        return out;
    }
}
