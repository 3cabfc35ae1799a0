package io.conduit.completions;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.kernel.JsonCodec;
import io.quarkus.test.junit.QuarkusTest;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * The assistants used as models by the official {@code openai} npm client (src/test/js/openai-assistant.mjs), against
 * the whole service: the agent on the simulator over HTTP, runs in Postgres. The client's strict stream accumulator
 * throws on a missing role or finish reason, so its success is part of what is checked.
 */
@QuarkusTest
class OpenAiFrontDoorNpmClientTest {

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    @Test
    void anOpenAiClientUsesAnAssistantAsAModelStreamedOrNotWithMemoryPerConversation() throws Exception {
        if (!new File("src/test/js/node_modules/openai/package.json").isFile()) {
            fail("The openai npm client is not installed: run `npm ci --prefix src/test/js` and test again.");
        }
        String conversation = "conv-" + UUID.randomUUID();
        JsonNode r = io.conduit.NodeClient.run("openai-assistant.mjs", 120, "http://localhost:" + port + "/v1", conversation);

        assertThat(texts(r.get("models"))).contains("agent", io.conduit.runs.graphs.GraphRegistry.assistantId("agent"));

        JsonNode streamed = r.get("streamed");
        assertThat(streamed.get("role").asText()).isEqualTo("assistant");
        assertThat(streamed.get("finish").asText()).isEqualTo("stop");
        assertThat(streamed.get("content").asText()).endsWith("You said: hello from the front door");
        assertThat(streamed.get("model").asText()).isEqualTo("agent");
        assertThat(streamed.get("id").asText()).startsWith("chatcmpl-");

        JsonNode whole = r.get("whole");
        assertThat(whole.get("object").asText()).isEqualTo("chat.completion");
        assertThat(whole.get("content").asText()).endsWith("You said: hello, not streamed");
        assertThat(whole.get("finish").asText()).isEqualTo("stop");
        assertThat(whole.get("usage").get("prompt_tokens").asInt()).isPositive();
        assertThat(whole.get("usage").get("completion_tokens").asInt()).isPositive();

        // the time tool ran on the server: the client saw text only, in OpenAI's order
        List<JsonNode> chunks = new ArrayList<>();
        r.get("toolChunks").forEach(chunks::add);
        assertThat(chunks.get(0).get("choices").get(0).get("delta").get("role").asText()).isEqualTo("assistant");
        assertThat(chunks).allSatisfy(c -> assertThat(c.toString()).doesNotContain("tool_calls"));
        JsonNode usageChunk = chunks.get(chunks.size() - 1);
        assertThat(usageChunk.get("choices")).isEmpty();
        assertThat(usageChunk.get("usage").get("total_tokens").asInt())
                .isEqualTo(usageChunk.get("usage").get("prompt_tokens").asInt() + usageChunk.get("usage").get("completion_tokens").asInt());
        JsonNode last = chunks.get(chunks.size() - 2).get("choices").get(0);
        assertThat(last.get("finish_reason").asText()).isEqualTo("stop");
        assertThat(chunks.subList(0, chunks.size() - 2)).allSatisfy(c -> assertThat(c.get("choices").get(0).get("finish_reason").isNull()).isTrue());
        StringBuilder text = new StringBuilder();
        chunks.forEach(c -> c.get("choices").forEach(ch -> text.append(ch.get("delta").path("content").asText(""))));
        assertThat(text.toString()).isNotBlank();

        // one conversation: the second call's model saw the first turn, and the thread holds both turns (and not
        // the message the second request sent before its newest)
        JsonNode first = r.get("first");
        JsonNode second = r.get("second");
        assertThat(second.get("content").asText()).endsWith("You said: do you remember me");
        assertThat(second.get("usage").get("prompt_tokens").asInt())
                .as("the model read the first turn too").isGreaterThan(first.get("usage").get("prompt_tokens").asInt() + 8);
        JsonNode state = JsonCodec.MAPPER.readTree(given().when().get("/threads/{t}/state", conversation).then().statusCode(200).extract().asString());
        List<String> said = new ArrayList<>();
        state.get("values").get("messages").forEach(m -> said.add(m.get("type").asText() + ": " + m.get("content").asText()));
        assertThat(said).containsExactly("human: my name is Ada Lovelace", "ai: " + first.get("content").asText(),
                "human: do you remember me", "ai: " + second.get("content").asText());

        JsonNode notFound = r.get("notFound");
        assertThat(notFound.get("status").asInt()).isEqualTo(404);
        assertThat(notFound.get("code").asText()).isEqualTo("model_not_found");
        assertThat(notFound.get("param").asText()).isEqualTo("model");
    }

    private static List<String> texts(JsonNode arr) {
        List<String> out = new ArrayList<>();
        arr.forEach(n -> out.add(n.asText()));
        return out;
    }
}
