package io.conduit.llm.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.checkpoint.JsonCodec;
import io.quarkus.test.junit.QuarkusTest;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * The simulator's wire format, judged by the official {@code openai} npm client: its strict stream accumulator
 * throws on a missing role, finish reason or tool-call type. The client lives in src/test/js (installed by
 * {@code .ci/run}, or {@code npm install --prefix src/test/js}).
 */
@QuarkusTest
class OpenAiNpmClientTest {

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    @Test
    void theOfficialClientAccumulatesTextToolCallsAndUsage() throws Exception {
        File clients = new File("src/test/js");
        assertThat(new File(clients, "node_modules/openai")).as("the openai npm client is missing: run npm install --prefix src/test/js").exists();
        Process node = new ProcessBuilder("node", "openai-client.mjs", "http://localhost:" + port + "/simulator/v1")
                .directory(clients).redirectErrorStream(true).start();
        // a bound against a hung process, not a timing assertion
        assertThat(node.waitFor(60, TimeUnit.SECONDS)).as("node finished").isTrue();
        String out = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(node.exitValue()).as(out).isZero();
        JsonNode r = JsonCodec.MAPPER.readTree(out.substring(out.lastIndexOf('\n') + 1));

        assertThat(r.get("text").asText()).isEqualTo("This is the Conduit simulator, not a real model. You said: hello from npm");
        assertThat(r.get("textFinish").asText()).isEqualTo("stop");
        assertThat(r.get("toolFinish").asText()).isEqualTo("tool_calls");
        JsonNode calls = r.get("toolCalls");
        assertThat(calls).hasSize(2);
        assertThat(calls.get(0).get("name").asText()).isEqualTo("get_current_time");
        assertThat(calls.get(0).get("arguments").toString()).isEqualTo("{\"timezone\":\"UTC\"}");
        assertThat(calls.get(1).get("name").asText()).isEqualTo("recall");
        assertThat(calls.get(1).get("arguments").toString()).isEqualTo("{\"key\":\"week\"}");
        assertThat(calls.get(0).get("id").asText()).isNotEqualTo(calls.get(1).get("id").asText());
        assertThat(calls.get(0).get("type").asText()).isEqualTo("function");
        assertThat(r.get("usage").get("completion_tokens").asInt()).isGreaterThan(0);
        assertThat(r.get("usage").get("total_tokens").asInt())
                .isEqualTo(r.get("usage").get("prompt_tokens").asInt() + r.get("usage").get("completion_tokens").asInt());
        assertThat(r.get("content").asText()).endsWith("You said: hello usage");
        assertThat(r.get("chunks").asInt()).isGreaterThan(5);
        assertThat(r.get("plain").asText()).endsWith("You said: hi");
    }
}
