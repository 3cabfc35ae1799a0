package io.conduit.aisdk;

import static io.conduit.runs.events.ScriptedRun.task;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.agent.AgentState;
import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ToolCall;
import io.conduit.graph.GraphEvent.Tag;
import io.conduit.graph.GraphEvent;
import io.conduit.graph.Interrupt;
import io.conduit.graph.Update;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.RunStatus;
import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.RunEventListener;
import io.conduit.runs.events.ScriptedRun;
import io.conduit.runs.events.TextDelta;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The UI message stream translated from a scripted run's log entries: a turn with reasoning, a tool call whose id
 * comes late and its server result; a failed run, a cancelled one, one stopped before it began, a model call cut
 * mid-message, an interrupt, subgraph events; merged text deltas; nothing after the end; a replay that gives the live
 * frames byte for byte; and a replay of a run whose entries were shed.
 */
class UiMessageStreamTest {

    private static final Tag PLANNER = task("planner", "t1");

    private static ScriptedRun run() {
        return new ScriptedRun(UiStreamFormat.view(Duration.ofMinutes(2))).began();
    }

    /** The parts of the frames, in order; {@code [DONE]} as a text node. */
    static List<JsonNode> parts(List<RunEvent> frames) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (RunEvent e : frames) {
            for (String frame : e.data().split("\n\n")) {
                assertThat(frame).startsWith("data: ").doesNotContain("\n");
                String data = frame.substring(6);
                out.add(data.equals("[DONE]") ? JsonCodec.MAPPER.getNodeFactory().textNode("[DONE]") : JsonCodec.MAPPER.readTree(data));
            }
        }
        return out;
    }

    static List<String> types(List<JsonNode> parts) {
        return parts.stream().map(p -> p.isTextual() ? p.asText() : p.path("type").asText()).toList();
    }

    private static GraphEvent.ChildEnded modelCallEnded(Tag tag, Object output, String error) {
        return new GraphEvent.ChildEnded(tag, "call-1", "chat_model", "planner", output, error);
    }

    @Test
    void aFailedRunClosesWhatIsOpenThenSaysTheErrorAndFinishes() throws Exception {
        ScriptedRun r = run().on(new GraphEvent.TaskStarted(PLANNER, "t1"))
                .on(new GraphEvent.Token(PLANNER, "m1", "Hel\"lo"))
                .on(modelCallEnded(PLANNER, null, "the model failed"))
                .ended(RunStatus.ERROR, "the model failed");
        List<JsonNode> parts = parts(r.live());
        assertThat(types(parts)).containsExactly("start", "start-step", "text-start", "text-delta", "text-end", "finish-step", "error", "finish", "[DONE]");
        assertThat(parts.get(0).get("messageId").asText()).isEqualTo(ScriptedRun.RUN);
        assertThat(parts.get(3).get("delta").asText()).isEqualTo("Hel\"lo");
        assertThat(parts.get(3).get("id").asText()).isEqualTo(parts.get(2).get("id").asText()).isEqualTo("m1-0");
        assertThat(parts.get(6).get("errorText").asText()).isEqualTo("the model failed");
        assertThat(parts.get(7).get("finishReason").asText()).isEqualTo("error");
        assertThat(r.closed()).isTrue();
    }

    @Test
    void nothingIsSaidAfterTheEnd() throws Exception {
        ScriptedRun r = run().on(new GraphEvent.Token(PLANNER, "m1", "Hi"));
        r.entry(new io.conduit.runs.events.RunNotice.Ended(RunStatus.SUCCESS, null, true));
        int frames = r.live().size();
        r.on(new GraphEvent.Token(PLANNER, "m2", "late")).entry(new io.conduit.runs.events.RunNotice.Ended(RunStatus.ERROR, "late", false));
        assertThat(r.live()).hasSize(frames);
        assertThat(types(parts(r.live()))).endsWith("text-end", "finish-step", "finish", "[DONE]");
    }

    @Test
    void aCancelledRunAbortsAndOneStoppedBeforeItBeganToo() throws Exception {
        ScriptedRun cancelled = run().on(new GraphEvent.TaskStarted(PLANNER, "t1")).on(new GraphEvent.Token(PLANNER, "m1", "tick")).cancelled();
        assertThat(types(parts(cancelled.live()))).containsExactly("start", "start-step", "text-start", "text-delta", "text-end", "finish-step",
                "abort", "[DONE]");
        ScriptedRun stopped = new ScriptedRun(UiStreamFormat.view(Duration.ofMinutes(2))).stoppedBeforeItBegan("UserInterrupt", "cancelled");
        String all = String.join("", stopped.live().stream().map(RunEvent::data).toList());
        assertThat(all).isEqualTo("data: {\"type\":\"start\",\"messageId\":\"r-1\"}\n\n"
                + "data: {\"type\":\"abort\",\"reason\":\"the run was cancelled\"}\n\ndata: [DONE]\n\n");
    }

    @Test
    void aRunThatEndsWithoutAnyEntryStillEndsItsStream() throws Exception {
        ScriptedRun r = new ScriptedRun(UiStreamFormat.view(Duration.ofMinutes(2)));
        List<RunEvent> seen = new ArrayList<>();
        boolean[] ended = new boolean[1];
        r.replay(new UiStreamEnd(ScriptedRun.RUN, new RunEventListener() {
            @Override
            public void onEvent(RunEvent e) {
                seen.add(e);
            }

            @Override
            public void onEnd() {
                ended[0] = true;
            }
        }));
        r.close();
        assertThat(types(parts(seen))).containsExactly("start", "abort", "[DONE]");
        assertThat(ended[0]).isTrue();
    }

    @Test
    void anInterruptIsADataPartAndTheRunFinishes() throws Exception {
        Interrupt asked = new Interrupt("i1", Map.of("question", "Which one?", "choices", List.of("a", "b")), "ask", "t2", Interrupt.When.DURING);
        Interrupt breakpoint = new Interrupt("i2", null, "ask", "t2", Interrupt.When.BEFORE);
        ScriptedRun r = run().on(new GraphEvent.Interrupted(ScriptedRun.root(), List.of(asked, breakpoint), "cp-1")).ended(RunStatus.INTERRUPTED, null);
        List<JsonNode> parts = parts(r.live());
        assertThat(types(parts)).containsExactly("start", "data-interrupt", "finish", "[DONE]");
        assertThat(parts.get(1).get("id").asText()).isEqualTo("i1");
        assertThat(parts.get(1).at("/data/id").asText()).isEqualTo("i1");
        assertThat(parts.get(1).at("/data/value/choices/1").asText()).isEqualTo("b");
        assertThat(parts.get(2).get("finishReason").asText()).isEqualTo("other");
    }

    @Test
    void aToolCallWhoseIdComesLateIsAnnouncedWhenItIsKnownAndItsOutputFollows() throws Exception {
        Tag tools = task("tool_executor", "t2");
        Tag other = task("tool_executor", "t3");
        AssistantMessage done = new AssistantMessage("m1", "", List.of(new ToolCall("c1", "recall", "{\"key\": \"cat\"}")), null, "planner");
        ScriptedRun r = run().on(new GraphEvent.TaskStarted(PLANNER, "t1"))
                .on(new GraphEvent.ToolCallChunk(PLANNER, "m1", 0, null, "recall", "{\"key\":"))
                .on(new GraphEvent.ToolCallChunk(PLANNER, "m1", 0, null, null, "\"cat\"}"))
                .on(modelCallEnded(PLANNER, done, null))
                .on(new GraphEvent.TaskFinished(PLANNER, "t1", Update.of(AgentState.MESSAGES, done)))
                .on(new GraphEvent.ChildStarted(tools, "x", "tool", "recall", Map.of("key", "cat"), "c1"))
                .on(new GraphEvent.ChildEnded(tools, "x", "tool", "recall", "nothing", null))
                .on(new GraphEvent.ChildStarted(other, "y", "tool", "recall", Map.of(), "never-shown"))
                .on(new GraphEvent.ChildEnded(other, "y", "tool", "recall", 1, null))
                .on(new GraphEvent.Custom(tools, "planning_retry", Map.of("attempt", 1)))
                .ended(RunStatus.SUCCESS, null);
        List<JsonNode> parts = parts(r.live());
        assertThat(types(parts)).containsExactly("start", "start-step", "tool-input-start", "tool-input-delta", "tool-input-available",
                "tool-output-available", "data-planning_retry", "finish-step", "finish", "[DONE]");
        assertThat(parts.get(2).get("toolCallId").asText()).isEqualTo("c1");
        assertThat(parts.get(2).get("toolName").asText()).isEqualTo("recall");
        assertThat(parts.get(2).get("providerExecuted").asBoolean()).isTrue();
        assertThat(parts.get(3).get("inputTextDelta").asText()).isEqualTo("{\"key\":\"cat\"}");
        assertThat(parts.get(4).get("input").toString()).isEqualTo("{\"key\":\"cat\"}");
        assertThat(parts.get(5).get("output").asText()).isEqualTo("nothing");
        assertThat(parts.get(6).at("/data/attempt").asInt()).isEqualTo(1);
    }

    @Test
    void aStepLastsUntilTheNextModelCallAndSubgraphEventsAreNotShown() throws Exception {
        ScriptedRun r = run().on(new GraphEvent.TaskStarted(PLANNER, "t1"));
        for (String id : List.of("m1", "m2")) {
            r.on(new GraphEvent.Reasoning(PLANNER, id, "hmm"))
                    .on(modelCallEnded(PLANNER, new AssistantMessage(id, "", List.of(), "hmm", "planner"), null));
        }
        Tag inner = task("sub:t9", "inner", "t10");
        r.on(new GraphEvent.Token(inner, "m3", "not shown")).on(new GraphEvent.Custom(inner, "inside", 1)).ended(RunStatus.SUCCESS, null);
        List<JsonNode> parts = parts(r.live());
        assertThat(types(parts)).containsExactly("start", "start-step", "reasoning-start", "reasoning-delta", "reasoning-end",
                "finish-step", "start-step", "reasoning-start", "reasoning-delta", "reasoning-end", "finish-step", "finish", "[DONE]");
        assertThat(parts.get(2).get("id").asText()).isNotEqualTo(parts.get(7).get("id").asText());
    }

    @Test
    void anAnswerWrittenWholeIsShownAsIfItStreamed() throws Exception {
        AssistantMessage refusal = new AssistantMessage("m9", "I cannot help with that.", List.of(), null, "ingress");
        Tag ingress = task("ingress", "t0");
        ScriptedRun r = run().on(new GraphEvent.TaskStarted(ingress, "t0"))
                .on(new GraphEvent.TaskFinished(ingress, "t0", Update.of(AgentState.MESSAGES, refusal))).ended(RunStatus.SUCCESS, null);
        List<JsonNode> parts = parts(r.live());
        assertThat(types(parts)).containsExactly("start", "start-step", "text-start", "text-delta", "text-end", "finish-step", "finish", "[DONE]");
        assertThat(parts.get(3).get("delta").asText()).isEqualTo("I cannot help with that.");
    }

    @Test
    void textDeltasAreFramesOfTheirOwnThatAnOutboxMayMerge() throws Exception {
        ScriptedRun r = run().on(new GraphEvent.Token(PLANNER, "m1", "a \\ b\n")).on(new GraphEvent.Token(PLANNER, "m1", "é ✓"));
        List<RunEvent> deltas = r.live().stream().filter(e -> e.text() != null).toList();
        assertThat(deltas).hasSize(2);
        RunEvent a = deltas.get(0);
        RunEvent b = deltas.get(1);
        assertThat(a.text().key()).isEqualTo(b.text().key());
        // what a slow subscriber's outbox makes of them (TextMerge): the last frame, the texts joined in its text's place
        String merged = b.data().substring(0, b.text().start()) + a.data().substring(a.text().start(), a.text().end())
                + b.data().substring(b.text().start(), b.text().end()) + b.data().substring(b.text().end());
        RunEvent both = new RunEvent(b.seq(), b.runId(), b.mode(), b.ns(), merged,
                new TextDelta(b.text().key(), b.text().start(), b.text().end() + a.text().end() - a.text().start()));
        List<JsonNode> parts = parts(List.of(both));
        assertThat(types(parts)).containsExactly("text-delta");
        assertThat(parts.get(0).get("delta").asText()).isEqualTo("a \\ b\né ✓");
    }

    @Test
    void aReplayGivesTheLiveFramesByteForByte() {
        ScriptedRun r = run().on(new GraphEvent.TaskStarted(PLANNER, "t1"))
                .on(new GraphEvent.Reasoning(PLANNER, "m1", "think"))
                .on(new GraphEvent.Token(PLANNER, "m1", "Hello"))
                .on(new GraphEvent.ToolCallChunk(PLANNER, "m1", 0, "c1", "recall", "{}"))
                .on(modelCallEnded(PLANNER, null, null))
                .ended(RunStatus.SUCCESS, null);
        List<RunEvent> replayed = r.replay();
        assertThat(replayed).isEqualTo(r.live());
        assertThat(String.join("", replayed.stream().map(RunEvent::data).toList()))
                .isEqualTo(String.join("", r.live().stream().map(RunEvent::data).toList()));
        assertThat(replayed.stream().map(RunEvent::seq).toList()).isSorted().doesNotHaveDuplicates().startsWith(1L);
    }

    @Test
    void aReplayOfAShedRunSaysSoThenGivesTheQuestionAndTheEnd() throws Exception {
        ScriptedRun r = new ScriptedRun(UiStreamFormat.view(Duration.ofMinutes(2)), 1L, 4096).began().on(new GraphEvent.TaskStarted(PLANNER, "t1"));
        for (int i = 0; i < 400; i++) { // ~30 bytes a token in the log: well past its 4 KB bound
            r.on(new GraphEvent.Token(PLANNER, "m1", "token " + i + " "));
        }
        Interrupt asked = new Interrupt("i1", "Sure?", "ask", "t2", Interrupt.When.DURING);
        r.on(new GraphEvent.Interrupted(ScriptedRun.root(), List.of(asked), "cp-1")).ended(RunStatus.INTERRUPTED, null);
        assertThat(types(parts(r.live()))).endsWith("text-end", "data-interrupt", "finish-step", "finish", "[DONE]");
        List<JsonNode> replayed = parts(r.replay());
        assertThat(types(replayed)).containsExactly("start", "error", "data-interrupt", "finish", "[DONE]");
        assertThat(replayed.get(1).get("errorText").asText()).contains("dropped to bound memory");
    }
}
