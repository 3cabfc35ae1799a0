package io.conduit.blueprints.request;

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
 * The request blueprint's demo as its page shows it ("Try it" in docs/blueprints/request.md), its curl commands run
 * as written, on the simulator's default script: an ambiguous request asked about, the reply, then the plan, its
 * steps (one with a tool), and the checked answer with its suggestions, nothing given up on.
 */
@QuarkusTest
class RequestDemoTest {

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    @ConfigProperty(name = "conduit.simulator.script")
    Optional<String> script;

    @Test
    void thePagesDemoClarifiesPlansSolvesAndAnswers() throws Exception {
        assertThat(script).as("the default script, not a test's").isEmpty();
        String thread = "request-demo-" + UUID.randomUUID();
        DocCommands demo = DocCommands.of("docs/blueprints/request.md", "## Try it")
                .replacing("\"r1\"", "\"" + thread + "\"").replacing("threads/r1/", "threads/" + thread + "/");
        assertThat(demo.commands()).hasSize(3);
        demo.run(0, port);

        JsonNode asked = json(demo.run(1, port));
        assertThat(asked.has("__interrupt__")).as("the ambiguous request is asked about: %s", asked).isTrue();
        JsonNode question = asked.get("__interrupt__").get(0).get("value");
        assertThat(question.get("action").asText()).isEqualTo("clarify");
        assertThat(question.get("question").asText()).containsIgnoringCase("invoice");
        assertThat(question.get("round").asInt()).isEqualTo(1);

        JsonNode done = json(demo.run(2, port));
        assertThat(done.has("__interrupt__") || done.has("__error__")).as("%s", done).isFalse();
        JsonNode processing = done.get("processing");
        assertThat(processing.get("clarifications").toString()).isEqualTo("[\"the one from March\"]");
        assertThat(processing.get("plan")).hasSize(2);
        assertThat(processing.get("results")).hasSize(2);
        assertThat(processing.get("results").get(1).asText()).as("the second step used a tool").startsWith("get_current_time: ");
        assertThat(processing.get("errors")).as("nothing was given up on").isEmpty();
        JsonNode output = done.get("output");
        assertThat(output.get("text").asText()).isNotBlank().doesNotContain("no rule for").containsIgnoringCase("invoice");
        assertThat(output.get("suggestions").size()).isBetween(1, 3);
        List<String> nodes = new ArrayList<>();
        done.get("turn_metrics").get("calls").forEach(c -> nodes.add(c.get("node").asText()));
        assertThat(nodes).containsSubsequence("clarify", "plan", "solve", "solve", "answer");
    }

    private static JsonNode json(String body) throws Exception {
        return JsonCodec.MAPPER.readTree(body.strip());
    }
}
