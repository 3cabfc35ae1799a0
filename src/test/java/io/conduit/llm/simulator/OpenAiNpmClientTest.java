package io.conduit.llm.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.junit.QuarkusTest;
import java.io.File;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * The simulator judged by the official {@code openai} npm client, whose strict stream accumulator throws on a
 * missing role, finish reason or tool-call type. The client lives in src/test/js; {@code .ci/run} installs it.
 */
@QuarkusTest
class OpenAiNpmClientTest {

    private static final File CLIENTS = new File("src/test/js");

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    @Test
    void theOfficialClientAccumulatesTextToolCallsUsageAndErrors() throws Exception {
        if (!new File(CLIENTS, "node_modules/openai/package.json").isFile()) {
            fail("The openai npm client is not installed: run `npm install --prefix src/test/js` (CI runs `npm ci`) and test again.");
        }
        JsonNode r = io.conduit.NodeClient.run("openai-client.mjs", 60, "http://localhost:" + port + "/simulator/v1");

        assertThat(r.get("text").asText()).isEqualTo("This is the Conduit simulator, not a real model. You said: hello from npm");
        assertThat(r.get("textRole").asText()).isEqualTo("assistant");
        assertThat(r.get("textFinish").asText()).isEqualTo("stop");

        assertThat(r.get("toolFinish").asText()).isEqualTo("tool_calls");
        JsonNode calls = r.get("toolCalls");
        assertThat(calls).hasSize(2);
        assertThat(calls.get(0).get("name").asText()).isEqualTo("get_current_time");
        assertThat(calls.get(0).get("arguments").toString()).isEqualTo("{\"timezone\":\"UTC\"}");
        assertThat(calls.get(1).get("name").asText()).isEqualTo("recall");
        assertThat(calls.get(1).get("arguments").toString()).isEqualTo("{\"key\":\"week\"}");
        assertThat(calls.get(0).get("type").asText()).isEqualTo("function");
        assertThat(calls.get(0).get("id").asText()).startsWith("call_").isNotEqualTo(calls.get(1).get("id").asText());

        JsonNode usage = r.get("usage");
        assertThat(usage.isObject()).as("the usage chunk was seen").isTrue();
        assertThat(usage.get("prompt_tokens").asInt()).isEqualTo(2);
        assertThat(usage.get("total_tokens").asInt()).isEqualTo(usage.get("prompt_tokens").asInt() + usage.get("completion_tokens").asInt());
        assertThat(r.get("content").asText()).endsWith("You said: hello usage");
        assertThat(usage.get("completion_tokens").asInt()).isEqualTo(r.get("content").asText().split(" ").length);

        JsonNode error = r.get("error");
        assertThat(error.get("status").asInt()).isEqualTo(400);
        assertThat(error.get("code").asText()).isEqualTo("empty_array");
        assertThat(error.get("type").asText()).isEqualTo("invalid_request_error");
    }
}
