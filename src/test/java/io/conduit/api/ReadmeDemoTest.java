package io.conduit.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.DocCommands;
import io.conduit.kernel.JsonCodec;
import io.quarkus.test.junit.QuarkusTest;
import java.util.Optional;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * The README's first conversation ("Talk to the assistant"), its curl commands run as written on the default script:
 * the Agent Server API's stream and state, then the same turn through AG-UI, the AI SDK and chat completions.
 */
@QuarkusTest
class ReadmeDemoTest {

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    @ConfigProperty(name = "conduit.simulator.script")
    Optional<String> script;

    @Test
    void theReadmesCommandsTalkToTheDefaultAssistantThroughEveryDoor() throws Exception {
        assertThat(script).as("the default script, not a test's").isEmpty();
        String run = UUID.randomUUID().toString();
        DocCommands readme = DocCommands.of("README.md", "## Talk to the assistant")
                .replacing("\"thread_id\": \"t1\"", "\"thread_id\": \"readme-1-" + run + "\"").replacing("threads/t1/", "threads/readme-1-" + run + "/")
                .replacing("\"threadId\":\"t2\"", "\"threadId\":\"readme-2-" + run + "\"")
                .replacing("\"id\": \"t3\"", "\"id\": \"readme-3-" + run + "\"")
                .replacing("X-Conduit-Thread: t4", "X-Conduit-Thread: readme-4-" + run);
        assertThat(readme.commands()).hasSize(8);
        readme.run(0, port);

        String stream = readme.run(1, port);
        assertThat(stream).contains("event: metadata", "event: messages", "event: values", "event: end");
        assertThat(stream).as("the verifier's re-plan").contains("planning_retry");
        JsonNode state = JsonCodec.MAPPER.readTree(readme.run(2, port));
        JsonNode messages = state.get("values").get("messages");
        assertThat(messages.get(1).get("tool_calls")).as("two tools at once").hasSize(2);
        assertThat(messages.get(messages.size() - 1).get("content").asText()).startsWith("Here is a plan for your week");

        assertThat(readme.run(3, port)).contains("\"type\":\"TOOL_CALL_RESULT\"", "\"type\":\"RUN_FINISHED\"");
        assertThat(readme.run(4, port)).contains("\"type\":\"tool-output-available\"", "\"type\":\"finish\"");
        String completion = readme.run(5, port);
        assertThat(completion).contains("\"content\":\"Here ").endsWith("data: [DONE]\n\n");
        // MCP: the default assistant as a tool, its answer as text
        assertThat(readme.run(6, port)).contains("\"result\"", "Here is a plan for your week").doesNotContain("\"isError\":true");
        // A2A: the task streamed to its end
        assertThat(readme.run(7, port)).contains("status-update", "\"completed\"");
    }
}
