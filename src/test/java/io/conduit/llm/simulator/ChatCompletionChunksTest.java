package io.conduit.llm.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Tokens and fragments: cut small, they must add back up to exactly what was cut. */
class ChatCompletionChunksTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void tokensAreWordsThatJoinBackExactly() {
        String text = "  Two spaces,\nthen a line  and   gaps ";
        List<String> tokens = TokenCount.split(text);
        assertThat(String.join("", tokens)).isEqualTo(text);
        assertThat(tokens).hasSize(TokenCount.of(text)).hasSize(7);
        assertThat(TokenCount.split("")).isEmpty();
        assertThat(TokenCount.of("   ")).isZero();
    }

    @Test
    void argumentFragmentsJoinBackAndNeverSplitACharacter() {
        String args = "{\"city\":\"Zürich 🏔️ and more text\"}";
        List<String> fragments = ReplyPiece.fragments(args);
        assertThat(fragments).hasSizeGreaterThan(2);
        assertThat(String.join("", fragments)).isEqualTo(args);
        assertThat(fragments).allSatisfy(f -> {
            assertThat(Character.isLowSurrogate(f.charAt(0))).isFalse();
            assertThat(Character.isHighSurrogate(f.charAt(f.length() - 1))).isFalse();
        });
    }

    @Test
    void usageCountsTheWordsOfTheAnswerTheReasoningAndEachCall() throws Exception {
        ChatCompletionChunks wire = new ChatCompletionChunks("chatcmpl-0123456789abcdef0123456789abcdef", "m", 1);
        SimulatedReply calls = SimulatedReply.calls(List.of(new SimulatedReply.Call("a", "{}"), new SimulatedReply.Call("b", "{\"k\": \"v w\"}")))
                .withReasoning("think twice");
        JsonNode completion = JSON.readTree(wire.completion(calls, 7));
        assertThat(completion.get("usage").get("completion_tokens").asInt()).isEqualTo(2 + (1 + 1) + (1 + 3));
        assertThat(completion.get("usage").get("total_tokens").asInt()).isEqualTo(7 + 8);
        JsonNode toolCalls = completion.get("choices").get(0).get("message").get("tool_calls");
        assertThat(toolCalls.get(0).get("id").asText()).isNotEqualTo(toolCalls.get(1).get("id").asText());
    }
}
