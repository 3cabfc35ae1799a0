package io.conduit.completions;

import static io.conduit.runs.events.ScriptedRun.task;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.agent.AgentState;
import io.conduit.agent.Usage;
import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.TokenUsage;
import io.conduit.agent.message.ToolMessage;
import io.conduit.agent.message.UserMessage;
import io.conduit.graph.GraphEvent.Tag;
import io.conduit.graph.GraphEvent;
import io.conduit.graph.Interrupt;
import io.conduit.graph.Update;
import io.conduit.http.answer.AnswerFormat;
import io.conduit.http.answer.RunReading;
import io.conduit.http.answer.TerminalGuard;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.RunStatus;
import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.ScriptedRun;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A scripted run's log entries translated into the answer's pieces ({@link RunReading}), then framed as OpenAI's
 * streamed chunks ({@link ChunkStream}) and as one {@code chat.completion} ({@link WholeCompletion}).
 */
class ChunkStreamTest {

    private static final Tag PLANNER = task("planner", "t1");
    private static final Tag TOOLS = task("tool_executor", "t2");
    private static final Tag GENERATOR = task("generator", "t3");

    private static ScriptedRun run() {
        return new ScriptedRun(AnswerFormat.view(Duration.ofMinutes(10))).began();
    }

    private static Update usage(int in, int out) {
        return Update.of(AgentState.USAGE, new Usage(1, in, out, 0.0));
    }

    /** A turn with a server tool: the planner's call, the tool's result, the generator's streamed answer. */
    private static List<RunEvent> turnWithATool() {
        return run()
                .on(new GraphEvent.ToolCallChunk(PLANNER, "m1", 0, "call_1", "get_current_time", ""))
                .on(new GraphEvent.ToolCallChunk(PLANNER, "m1", 0, null, null, "{\"timezone\":\"UTC\"}"))
                .on(new GraphEvent.TaskFinished(PLANNER, "t1", usage(30, 5)))
                .on(new GraphEvent.TaskFinished(TOOLS, "t2",
                        Update.of(AgentState.MESSAGES, new ToolMessage("t1", "call_1", "get_current_time", "12:00", false))))
                .on(new GraphEvent.Reasoning(GENERATOR, "m2", "thinking "))
                .on(new GraphEvent.Token(GENERATOR, "m2", "It is "))
                .on(new GraphEvent.Token(GENERATOR, "m2", "noon."))
                .on(new GraphEvent.Token(task("tool_executor:abc", "inner", "t9"), "m9", "inside a subgraph"))
                .on(new GraphEvent.TaskFinished(GENERATOR, "t3", usage(40, 3)))
                .ended(RunStatus.SUCCESS, null).live();
    }

    private static List<String> frames(List<RunEvent> pieces, boolean includeUsage) {
        ChunkStream stream = new ChunkStream(new CompletionJson("chatcmpl-run-1", "agent", 1700000000L), includeUsage);
        StringBuilder all = new StringBuilder();
        pieces.forEach(e -> all.append(stream.apply(e)));
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
    void theChunksAreWhatJacksonWouldWrite() throws Exception {
        for (String f : frames(turnWithATool(), true)) {
            if (!f.equals("[DONE]")) {
                assertThat(json(f).toString()).isEqualTo(f);
            }
        }
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
        List<String> frames = frames(run().ended(RunStatus.SUCCESS, null).live(), false);
        assertThat(frames).hasSize(2);
        JsonNode only = json(frames.get(0)).get("choices").get(0);
        assertThat(only.get("delta").toString()).isEqualTo("{\"role\":\"assistant\",\"content\":\"\"}");
        assertThat(only.get("finish_reason").asText()).isEqualTo("stop");
    }

    @Test
    void theTextsOfSeveralMessagesAreJoinedByABlankLine() {
        AssistantMessage found = new AssistantMessage("b", "Found \"it\".", List.of(), null, "generator");
        List<RunEvent> pieces = run().on(new GraphEvent.Token(PLANNER, "a", "Let me look."))
                .on(new GraphEvent.TaskFinished(GENERATOR, "t3", Update.of(AgentState.MESSAGES, found))).ended(RunStatus.SUCCESS, null).live();
        WholeCompletion.Answer answer = WholeCompletion.answer(pieces, new CompletionJson("chatcmpl-x", "agent", 1L));
        assertThat(answer.completion()).contains("\"content\":\"Let me look.\\n\\nFound \\\"it\\\".\"");
    }

    @Test
    void anInterruptEndsTheAnswerWithItsQuestionAndChoices() throws Exception {
        JsonNode question = JsonCodec.MAPPER.readTree("{\"action\":\"answer_question\",\"question_text\":\"2+2?\",\"choices\":[\"3\",\"4\"]}");
        Interrupt quiz = new Interrupt("i1", question,
                "quiz", "t4", Interrupt.When.DURING);
        List<RunEvent> pieces = run().on(new GraphEvent.Token(PLANNER, "a", "A quiz."))
                .on(new GraphEvent.Interrupted(ScriptedRun.root(), List.of(quiz), "cp-1")).ended(RunStatus.INTERRUPTED, null).live();
        List<String> frames = frames(pieces, false);
        StringBuilder text = new StringBuilder();
        for (String f : frames.subList(0, frames.size() - 1)) {
            json(f).get("choices").forEach(ch -> text.append(ch.get("delta").path("content").asText("")));
        }
        assertThat(text).hasToString("A quiz.\n\n2+2?\nA) 3\nB) 4");
        assertThat(frames.get(frames.size() - 2)).contains("\"finish_reason\":\"stop\"");
    }

    @Test
    void aFailedRunEndsTheStreamWithAnErrorTheClientThrows() throws Exception {
        List<RunEvent> pieces = run().on(new GraphEvent.Token(PLANNER, "a", "Half"))
                .entry(new io.conduit.runs.events.RunNotice.Said("node_failed", "the model is down"))
                .entry(new io.conduit.runs.events.RunNotice.Ended(RunStatus.ERROR, "the model is down", false)).close().live();
        List<String> frames = frames(pieces, true);
        JsonNode error = json(frames.get(frames.size() - 2));
        assertThat(error.get("error").get("message").asText()).contains("node_failed: the model is down");
        assertThat(error.get("error").get("type").asText()).isEqualTo("server_error");
        assertThat(error.get("error").get("code").asText()).isEqualTo("run_failed");
        assertThat(frames.get(frames.size() - 1)).isEqualTo("[DONE]");

        WholeCompletion.Answer whole = WholeCompletion.answer(pieces, new CompletionJson("chatcmpl-x", "agent", 1L));
        assertThat(whole.completion()).isNull();
        assertThat(whole.error().status()).isEqualTo(500);
    }

    @Test
    void theWholeAnswerIsOneChatCompletionWithUsage() throws Exception {
        String completion = WholeCompletion.answer(turnWithATool(), new CompletionJson("chatcmpl-run-1", "agent", 5L)).completion();
        JsonNode c = json(completion);
        assertThat(c.toString()).isEqualTo(completion);
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
        Tag ask = task("ask", "t5");
        Tag judge = task("judge", "t6");
        Update asked = Update.none().add(AgentState.MESSAGES, List.of(
                new AssistantMessage("a", "Q", List.of(), null, null, new TokenUsage(11, 2)), new UserMessage("h", "x")));
        Update judged = Update.of(AgentState.MESSAGES, new AssistantMessage("b", "R", List.of(), null, null, new TokenUsage(20, 5)));
        List<RunEvent> pieces = run().on(new GraphEvent.TaskFinished(ask, "t5", asked))
                .on(new GraphEvent.TaskFinished(judge, "t6", judged))
                .ended(RunStatus.SUCCESS, null).live();
        JsonNode c = json(WholeCompletion.answer(pieces, new CompletionJson("chatcmpl-x", "tutor", 1L)).completion());
        assertThat(c.get("usage").toString()).isEqualTo("{\"prompt_tokens\":31,\"completion_tokens\":7,\"total_tokens\":38}");
        assertThat(c.at("/choices/0/message/content").asText()).isEqualTo("Q\n\nR");
    }

    @Test
    void aStreamOfTextPiecesIsMergeableAndAReplayGivesTheLivePieces() {
        ScriptedRun r = run().on(new GraphEvent.Token(PLANNER, "a", "x\"y")).on(new GraphEvent.Token(PLANNER, "a", "z"));
        r.ended(RunStatus.SUCCESS, null);
        RunEvent first = r.live().get(0);
        assertThat(first.text()).isNotNull();
        assertThat(first.data().substring(first.text().start(), first.text().end())).isEqualTo("x\\\"y");
        assertThat(first.text().key()).isEqualTo(r.live().get(1).text().key());
        assertThat(r.replay()).isEqualTo(r.live());
    }

    @Test
    void aRunStoppedBeforeItBeganFailsTheAnswerWithWhy() {
        List<RunEvent> pieces = new ScriptedRun(AnswerFormat.view(Duration.ofMinutes(10)))
                .stoppedBeforeItBegan("UserInterrupt", "run r-1 was cancelled").live();
        assertThat(WholeCompletion.answer(pieces, new CompletionJson("chatcmpl-x", "agent", 1L)).error().message())
                .isEqualTo("The run failed: UserInterrupt: run r-1 was cancelled");
    }

    @Test
    void aLogThatEndsWithoutTheRunsEndStillFinishesTheAnswer() {
        List<RunEvent> seen = new ArrayList<>();
        boolean[] ended = new boolean[1];
        TerminalGuard guard = new TerminalGuard("run-1", new io.conduit.runs.events.RunEventListener() {
            @Override
            public void onEvent(RunEvent e) {
                seen.add(e);
            }

            @Override
            public void onEnd() {
                ended[0] = true;
            }
        });
        guard.onEvent(RunEvent.withText(1, "run-1", RunReading.TEXT, "", "a", "", "Hi", ""));
        guard.onEnd();
        assertThat(seen).hasSize(2);
        assertThat(seen.get(1).terminal()).isTrue();
        assertThat(ended[0]).isTrue();
        assertThat(WholeCompletion.answer(seen, new CompletionJson("chatcmpl-x", "agent", 1L)).completion()).contains("\"content\":\"Hi\"");
    }

    @Test
    void aRunOfAnotherShapeSaysNothingOfItsOwnState() {
        List<RunEvent> pieces = run().on(new GraphEvent.Values(ScriptedRun.root(), null, "cp-1"))
                .on(new GraphEvent.Custom(PLANNER, "progress", Map.of("step", 1))).ended(RunStatus.SUCCESS, null).live();
        assertThat(pieces).extracting(RunEvent::mode).containsExactly(RunReading.END);
    }
}
