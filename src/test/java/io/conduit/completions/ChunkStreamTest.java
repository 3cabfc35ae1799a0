package io.conduit.completions;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.checkpoint.JsonCodec;
import io.conduit.runs.LangChainMessages;
import io.conduit.runs.RunEvent;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A run's classic events, as the run's log holds them (message chunks made by {@link LangChainMessages}), translated
 * into OpenAI's streamed chunks and into one {@code chat.completion}.
 */
class ChunkStreamTest {

    private long seq;

    private RunEvent event(String mode, String ns, String data) {
        return new RunEvent(seq++, "run-1", mode, ns, data);
    }

    private RunEvent chunk(JsonNode message) {
        return event("messages", "", "[" + message + ",{\"langgraph_node\":\"planner\"}]");
    }

    private RunEvent usage(String node, int in, int out) {
        return event("updates", "", "{\"" + node + "\":{\"usage\":{\"calls\":1,\"inputTokens\":" + in + ",\"outputTokens\":" + out + ",\"costUsd\":0.0}}}");
    }

    /** A turn with a server tool: the planner's call, the tool's result, the generator's streamed answer. */
    private List<RunEvent> turnWithATool() {
        List<RunEvent> events = new ArrayList<>();
        events.add(event("metadata", "", "{\"run_id\":\"run-1\",\"attempt\":1}"));
        events.add(chunk(LangChainMessages.toolCallChunk("m1", 0, "call_1", "get_current_time", "")));
        events.add(chunk(LangChainMessages.toolCallChunk("m1", 0, null, null, "{\"timezone\":\"UTC\"}")));
        events.add(usage("planner", 30, 5));
        events.add(event("messages", "", "[{\"type\":\"tool\",\"content\":\"12:00\",\"tool_call_id\":\"call_1\",\"id\":\"t1\"},{}]"));
        events.add(chunk(LangChainMessages.reasoningChunk("m2", "thinking ")));
        events.add(chunk(LangChainMessages.textChunk("m2", "It is ")));
        events.add(chunk(LangChainMessages.textChunk("m2", "noon.")));
        events.add(event("messages", "tool_executor:abc", "[" + LangChainMessages.textChunk("m9", "inside a subgraph") + ",{}]"));
        events.add(usage("generator", 40, 3));
        events.add(event("values", "", "{\"messages\":[]}"));
        events.add(event("end", "", "null"));
        return events;
    }

    private static List<String> frames(List<RunEvent> events, boolean includeUsage) {
        ChunkStream stream = new ChunkStream(new CompletionJson("chatcmpl-run-1", "agent", 1700000000L), includeUsage);
        StringBuilder all = new StringBuilder();
        events.stream().filter(RunReading::reads).forEach(e -> all.append(stream.apply(e)));
        List<String> out = new ArrayList<>();
        for (String frame : all.toString().split("\n\n")) {
            assertThat(frame).startsWith("data: ");
            out.add(frame.substring("data: ".length()));
        }
        return out;
    }

    private static JsonNode json(String s) throws Exception {
        return JsonCodec.MAPPER.readTree(s);
    }

    @Test
    void roleFirstTextThenFinishThenUsageThenDoneAndNoToolCalls() throws Exception {
        List<String> frames = frames(turnWithATool(), true);

        assertThat(frames.get(frames.size() - 1)).isEqualTo("[DONE]");
        List<JsonNode> chunks = new ArrayList<>();
        for (String f : frames.subList(0, frames.size() - 1)) {
            chunks.add(json(f));
        }
        assertThat(chunks).allSatisfy(c -> {
            assertThat(c.get("id").asText()).isEqualTo("chatcmpl-run-1");
            assertThat(c.get("object").asText()).isEqualTo("chat.completion.chunk");
            assertThat(c.get("model").asText()).isEqualTo("agent");
            assertThat(c.get("created").asLong()).isEqualTo(1700000000L);
            assertThat(c.toString()).doesNotContain("tool_calls").doesNotContain("get_current_time").doesNotContain("subgraph");
        });
        JsonNode first = chunks.get(0).get("choices").get(0);
        assertThat(first.get("delta").get("role").asText()).isEqualTo("assistant");
        assertThat(first.get("delta").get("reasoning_content").asText()).isEqualTo("thinking ");
        assertThat(chunks.stream().skip(1).filter(c -> c.get("choices").size() > 0)
                .noneMatch(c -> c.get("choices").get(0).get("delta").has("role"))).isTrue();

        StringBuilder text = new StringBuilder();
        chunks.forEach(c -> c.get("choices").forEach(ch -> text.append(ch.get("delta").path("content").asText(""))));
        assertThat(text).hasToString("It is noon.");

        JsonNode finish = chunks.get(chunks.size() - 2);
        assertThat(finish.get("choices").get(0).get("finish_reason").asText()).isEqualTo("stop");
        assertThat(finish.get("choices").get(0).get("delta").isEmpty()).isTrue();
        assertThat(chunks.subList(0, chunks.size() - 2)).allSatisfy(c -> assertThat(c.get("choices").get(0).get("finish_reason").isNull()).isTrue());
        assertThat(chunks.subList(0, chunks.size() - 1)).allSatisfy(c -> assertThat(c.get("usage").isNull()).isTrue());

        JsonNode usage = chunks.get(chunks.size() - 1);
        assertThat(usage.get("choices")).isEmpty();
        assertThat(usage.get("usage").toString()).isEqualTo("{\"prompt_tokens\":70,\"completion_tokens\":8,\"total_tokens\":78}");
    }

    @Test
    void withoutIncludeUsageThereIsNoUsageAnywhere() {
        List<String> frames = frames(turnWithATool(), false);
        assertThat(frames).noneMatch(f -> f.contains("usage"));
        assertThat(frames.get(frames.size() - 2)).contains("\"finish_reason\":\"stop\"");
        assertThat(frames.get(frames.size() - 1)).isEqualTo("[DONE]");
    }

    @Test
    void aRunThatSaysNothingStillOpensWithTheRoleAndFinishes() throws Exception {
        List<String> frames = frames(List.of(event("end", "", "null")), false);
        assertThat(frames).hasSize(2);
        JsonNode only = json(frames.get(0)).get("choices").get(0);
        assertThat(only.get("delta").toString()).isEqualTo("{\"role\":\"assistant\",\"content\":\"\"}");
        assertThat(only.get("finish_reason").asText()).isEqualTo("stop");
    }

    @Test
    void theTextsOfSeveralMessagesAreJoinedByABlankLine() {
        List<RunEvent> events = List.of(chunk(LangChainMessages.textChunk("a", "Let me look.")),
                chunk(LangChainMessages.textChunk("b", "Found it.")), event("end", "", "null"));
        WholeCompletion.Answer answer = WholeCompletion.answer(events, new CompletionJson("chatcmpl-x", "agent", 1L));
        assertThat(answer.completion()).contains("\"content\":\"Let me look.\\n\\nFound it.\"");
    }

    @Test
    void anInterruptEndsTheAnswerWithItsQuestionAndChoices() throws Exception {
        List<RunEvent> events = List.of(chunk(LangChainMessages.textChunk("a", "A quiz.")),
                event("updates", "", "{\"__interrupt__\":[{\"id\":\"i1\",\"value\":{\"action\":\"answer_question\",\"question_text\":\"2+2?\",\"choices\":[\"3\",\"4\"]}}]}"),
                event("values", "", "{\"__interrupt__\":[{\"id\":\"i1\",\"value\":{}}]}"),
                event("end", "", "null"));
        List<String> frames = frames(events, false);
        StringBuilder text = new StringBuilder();
        for (String f : frames.subList(0, frames.size() - 1)) {
            json(f).get("choices").forEach(ch -> text.append(ch.get("delta").path("content").asText("")));
        }
        assertThat(text).hasToString("A quiz.\n\n2+2?\nA) 3\nB) 4");
        assertThat(frames.get(frames.size() - 2)).contains("\"finish_reason\":\"stop\"");
    }

    @Test
    void aFailedRunEndsTheStreamWithAnErrorTheClientThrows() throws Exception {
        List<RunEvent> events = List.of(chunk(LangChainMessages.textChunk("a", "Half")),
                event("error", "", "{\"error\":\"node_failed\",\"message\":\"the model is down\"}"));
        List<String> frames = frames(events, true);
        JsonNode error = json(frames.get(frames.size() - 2));
        assertThat(error.get("error").get("message").asText()).contains("node_failed: the model is down");
        assertThat(error.get("error").get("type").asText()).isEqualTo("server_error");
        assertThat(error.get("error").get("code").asText()).isEqualTo("run_failed");
        assertThat(frames.get(frames.size() - 1)).isEqualTo("[DONE]");

        WholeCompletion.Answer whole = WholeCompletion.answer(events, new CompletionJson("chatcmpl-x", "agent", 1L));
        assertThat(whole.completion()).isNull();
        assertThat(whole.error().status()).isEqualTo(500);
    }

    @Test
    void theWholeAnswerIsOneChatCompletionWithUsage() throws Exception {
        JsonNode c = json(WholeCompletion.answer(turnWithATool(), new CompletionJson("chatcmpl-run-1", "agent", 5L)).completion());
        assertThat(c.get("object").asText()).isEqualTo("chat.completion");
        JsonNode choice = c.get("choices").get(0);
        assertThat(choice.get("message").get("role").asText()).isEqualTo("assistant");
        assertThat(choice.get("message").get("content").asText()).isEqualTo("It is noon.");
        assertThat(choice.get("message").get("reasoning_content").asText()).isEqualTo("thinking ");
        assertThat(choice.get("message").has("tool_calls")).isFalse();
        assertThat(choice.get("finish_reason").asText()).isEqualTo("stop");
        assertThat(c.get("usage").get("total_tokens").asInt()).isEqualTo(78);
    }

    @Test
    void aGraphWithoutAUsageChannelCountsItsAiMessagesUsage() throws Exception {
        List<RunEvent> events = List.of(
                event("updates", "", "{\"ask\":{\"messages\":[{\"type\":\"ai\",\"content\":\"Q\",\"id\":\"a\",\"usage_metadata\":"
                        + "{\"input_tokens\":11,\"output_tokens\":2,\"total_tokens\":13}},{\"type\":\"human\",\"content\":\"x\",\"id\":\"h\"}]}}"),
                event("updates", "", "{\"judge\":{\"messages\":[{\"type\":\"ai\",\"content\":\"R\",\"id\":\"b\",\"usage_metadata\":"
                        + "{\"input_tokens\":20,\"output_tokens\":5,\"total_tokens\":25}}]}}"),
                event("end", "", "null"));
        JsonNode c = json(WholeCompletion.answer(events, new CompletionJson("chatcmpl-x", "tutor", 1L)).completion());
        assertThat(c.get("usage").toString()).isEqualTo("{\"prompt_tokens\":31,\"completion_tokens\":7,\"total_tokens\":38}");
    }

    @Test
    void aLogThatEndsWithoutTheRunsEndStillFinishesTheAnswer() {
        List<RunEvent> seen = new ArrayList<>();
        boolean[] ended = new boolean[1];
        TerminalGuard guard = new TerminalGuard("run-1", new io.conduit.runs.RunEventListener() {
            @Override
            public void onEvent(RunEvent e) {
                seen.add(e);
            }

            @Override
            public void onEnd() {
                ended[0] = true;
            }
        });
        guard.onEvent(event("metadata", "", "{}"));
        guard.onEnd();
        assertThat(seen).hasSize(2);
        assertThat(seen.get(1).terminal()).isTrue();
        assertThat(ended[0]).isTrue();
    }
}
