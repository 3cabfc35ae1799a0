package io.conduit.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.http.answer.RunReading;
import io.conduit.http.answer.WholeAnswer;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.events.RunEvent;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A tool call's result from a run's answer (text as the client reads it; a failed run a result with {@code isError}),
 * the check of its arguments, and tool names made MCP-valid.
 */
class ToolResultsTest {

    @Test
    void anAnswerIsItsTextUnescapedAndAFailedRunIsAnErrorResult() {
        List<RunEvent> answered = List.of(RunEvent.withText(1, "r", RunReading.TEXT, "", "m", "", "Line \"one\"\n", ""),
                RunEvent.withText(2, "r", RunReading.TEXT, "", "m", "", "two", ""), new RunEvent(3, "r", RunReading.END, "", "{}"));
        JsonNode ok = ToolCalls.result(WholeAnswer.of(answered));
        assertThat(ok.get("isError").asBoolean()).isFalse();
        assertThat(ok.get("content").get(0).get("type").asText()).isEqualTo("text");
        assertThat(ok.get("content").get(0).get("text").asText()).isEqualTo("Line \"one\"\ntwo");

        List<RunEvent> failed = List.of(RunEvent.withText(1, "r", RunReading.TEXT, "", "m", "", "partial", ""),
                new RunEvent(2, "r", RunReading.FAILED, "", "node_failed: the model is unreachable"));
        JsonNode error = ToolCalls.result(WholeAnswer.of(failed));
        assertThat(error.get("isError").asBoolean()).isTrue();
        assertThat(error.get("content").get(0).get("text").asText()).isEqualTo("The run failed: node_failed: the model is unreachable");
    }

    @Test
    void argumentsAreCheckedAgainstTheToolsSchema() throws Exception {
        assertThat(ToolCalls.input("agent", JsonCodec.MAPPER.readTree("{\"input\":\"hi\"}"))).isEqualTo("hi");
        for (String bad : new String[]{"null", "[]", "\"hi\"", "{}", "{\"input\":1}", "{\"input\":\"\"}", "{\"input\":\"hi\",\"x\":1}"}) {
            assertThatThrownBy(() -> ToolCalls.input("agent", JsonCodec.MAPPER.readTree(bad))).as(bad)
                    .isInstanceOfSatisfying(JsonRpc.Failure.class, f -> assertThat(f.code).isEqualTo(JsonRpc.INVALID_PARAMS));
        }
    }

    @Test
    void toolNamesAreMadeValid() {
        assertThat(AssistantTools.validName("agent")).isEqualTo("agent");
        assertThat(AssistantTools.validName("Support desk: tier 2!")).isEqualTo("Support_desk__tier_2_");
        assertThat(AssistantTools.validName("Répondeur")).isEqualTo("R_pondeur");
        assertThat(AssistantTools.validName("")).isEqualTo("_");
        assertThat(AssistantTools.validName("x".repeat(300))).hasSize(128);
    }
}
