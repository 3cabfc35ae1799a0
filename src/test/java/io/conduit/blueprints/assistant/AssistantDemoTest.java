package io.conduit.blueprints.assistant;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.DocCommands;
import io.conduit.kernel.JsonCodec;
import io.quarkus.test.junit.QuarkusTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * The assistant's demo as its page shows it ("Try it" in docs/blueprints/assistant.md), its curl commands run as
 * written, on the simulator's default script: a memory kept in one thread and found in another for the same user,
 * follow-up questions, and a handoff to the researcher streamed under its own namespace.
 */
@QuarkusTest
class AssistantDemoTest {

    record Sse(String event, JsonNode data) {
    }

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    @ConfigProperty(name = "conduit.simulator.script")
    Optional<String> script;

    @Test
    void thePagesDemoRemembersAcrossThreadsSuggestsAndHandsOff() throws Exception {
        assertThat(script).as("the default script, not a test's").isEmpty();
        String run = UUID.randomUUID().toString();
        DocCommands demo = DocCommands.of("docs/blueprints/assistant.md", "## Try it")
                .replacing("assistant1", "assistant-demo-1-" + run).replacing("assistant2", "assistant-demo-2-" + run)
                .replacing("\"ada\"", "\"ada-" + run + "\"");
        assertThat(demo.commands()).hasSize(6);
        demo.run(0, port);

        JsonNode remembered = json(demo.run(1, port));
        assertThat(remembered.has("__error__")).as("%s", remembered).isFalse();
        assertThat(toolResults(remembered, "add_memory")).singleElement().asString().containsIgnoringCase("green");
        assertThat(last(remembered)).doesNotContain("You said").containsIgnoringCase("green");
        assertThat(remembered.get("suggestions").get("questions")).hasSize(3);

        demo.run(2, port);
        JsonNode recalled = json(demo.run(3, port));
        assertThat(toolResults(recalled, "search_memory")).singleElement().asString().contains("my favourite colour is green");
        assertThat(last(recalled)).doesNotContain("You said");

        List<Sse> handoff = sse(demo.run(4, port));
        assertThat(handoff.stream().map(Sse::event)).as("the researcher's tokens, under its namespace")
                .anyMatch(e -> e.startsWith("messages|researcher:"));
        JsonNode values = handoff.stream().filter(e -> e.event().equals("values")).reduce((a, b) -> b).orElseThrow().data();
        assertThat(toolResults(values, "handoff")).singleElement().asString().startsWith("Research report").contains("favourite colour");
        assertThat(last(values)).doesNotContain("You said").containsIgnoringCase("researcher");
        assertThat(handoff.stream().filter(e -> e.event().equals("custom")).map(e -> e.data().path("name").asText()))
                .contains("suggestions");

        JsonNode items = json(demo.run(5, port)).get("items");
        assertThat(items).singleElement().satisfies(i -> assertThat(i.get("value").get("text").asText()).contains("green"));
    }

    private static JsonNode json(String body) throws Exception {
        return JsonCodec.MAPPER.readTree(body.strip());
    }

    /** The turn's results of {@code tool}, each one that is not an error. */
    private static List<String> toolResults(JsonNode values, String tool) {
        List<String> out = new ArrayList<>();
        JsonNode messages = values.get("messages");
        for (int i = messages.size() - 1; i >= 0 && !messages.get(i).get("type").asText().equals("human"); i--) {
            JsonNode m = messages.get(i);
            if (m.get("type").asText().equals("tool") && m.get("name").asText().equals(tool)) {
                assertThat(m.path("status").asText()).as("%s", m).isNotEqualTo("error");
                out.add(m.get("content").asText());
            }
        }
        return out;
    }

    private static String last(JsonNode values) {
        JsonNode messages = values.get("messages");
        return messages.get(messages.size() - 1).get("content").asText();
    }

    private static List<Sse> sse(String body) throws Exception {
        List<Sse> out = new ArrayList<>();
        for (String frame : body.split("\r?\n\r?\n")) {
            String event = null;
            StringBuilder data = new StringBuilder();
            for (String line : frame.split("\r?\n")) {
                if (line.startsWith("event: ")) {
                    event = line.substring(7);
                } else if (line.startsWith("data: ")) {
                    data.append(line.substring(6));
                }
            }
            if (event != null && !data.isEmpty()) {
                out.add(new Sse(event, JsonCodec.MAPPER.readTree(data.toString())));
            }
        }
        return out;
    }
}
