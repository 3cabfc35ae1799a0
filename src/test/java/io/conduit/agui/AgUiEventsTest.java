package io.conduit.agui;

import static io.conduit.agui.ScriptedRuns.root;
import static io.conduit.agui.ScriptedRuns.task;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.agent.AgentState;
import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.message.ToolMessage;
import io.conduit.agent.message.UserMessage;
import io.conduit.graph.GraphEvent.Tag;
import io.conduit.graph.GraphEvent;
import io.conduit.graph.Interrupt;
import io.conduit.graph.Update;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.RunStatus;
import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.RunNotice;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The translation of a run's log entries (engine events and the worker's notices) into AG-UI's events, entry by entry. */
class AgUiEventsTest {

    private final List<RunEvent> frames = new ArrayList<>();
    private final AgUiEvents t = new AgUiEvents(frames::add, ScriptedRuns.began(true));
    private final List<ObjectNode> out = new ArrayList<>();

    private AgUiEventsTest feed(Object... entries) {
        for (Object entry : entries) {
            int from = frames.size();
            t.on(entry, 0);
            for (RunEvent f : frames.subList(from, frames.size())) {
                out.add(json(f));
            }
        }
        return this;
    }

    private static ObjectNode json(RunEvent frame) {
        try {
            return (ObjectNode) JsonCodec.MAPPER.readTree(frame.data());
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + frame.data(), e);
        }
    }

    private List<String> types() {
        return out.stream().map(e -> e.get("type").asText()).toList();
    }

    private ObjectNode only(String type) {
        List<ObjectNode> of = out.stream().filter(e -> e.get("type").asText().equals(type)).toList();
        assertThat(of).hasSize(1);
        return of.get(0);
    }

    private AgUiEventsTest running() {
        return feed(ScriptedRuns.began(true));
    }

    @Test
    void aTurnWithReasoningTextAndAToolCallInOrder() {
        Tag planner = task("planner", "1");
        Tag tools = task("tool_executor", "2");
        AssistantMessage m1 = new AssistantMessage("m1", "Let me look.", List.of(new ToolCall("c1", "search", "{\"q\":\"x\"}")), "hmm", "planner");
        running().feed(new GraphEvent.TaskStarted(planner, "1"),
                new GraphEvent.Reasoning(planner, "m1", "hmm"),
                new GraphEvent.Token(planner, "m1", "Let me "),
                new GraphEvent.Token(planner, "m1", "look."),
                new GraphEvent.ToolCallChunk(planner, "m1", 0, "c1", "search", "{\"q\":"),
                new GraphEvent.ToolCallChunk(planner, "m1", 0, null, null, "\"x\"}"),
                new GraphEvent.ChildEnded(planner, "child-1", "chat_model", "planner", m1, null),
                new GraphEvent.TaskFinished(planner, "1", Update.of(AgentState.MESSAGES, m1)),
                new GraphEvent.TaskStarted(tools, "2"),
                new GraphEvent.TaskFinished(tools, "2", Update.of(AgentState.MESSAGES, new ToolMessage("tm1", "c1", "search", "found", false))));

        assertThat(types()).containsExactly("RUN_STARTED", "STEP_STARTED",
                "REASONING_START", "REASONING_MESSAGE_START", "REASONING_MESSAGE_CONTENT", "REASONING_MESSAGE_END", "REASONING_END",
                "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END",
                "TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_ARGS", "TOOL_CALL_END", "STEP_FINISHED",
                "STEP_STARTED", "TOOL_CALL_RESULT", "STEP_FINISHED");
        assertThat(out.get(0).toString()).isEqualTo("{\"type\":\"RUN_STARTED\",\"threadId\":\"t-1\",\"runId\":\"r-1\"}");
        assertThat(out.get(3).get("messageId").asText()).isEqualTo("m1-reasoning").isNotEqualTo(out.get(7).get("messageId").asText());
        assertThat(out.get(3).get("role").asText()).isEqualTo("reasoning");
        assertThat(out.get(7).toString()).isEqualTo("{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}");
        assertThat(out.get(11).toString()).isEqualTo("{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c1\",\"toolCallName\":\"search\",\"parentMessageId\":\"m1\"}");
        assertThat(out.get(12).get("delta").asText() + out.get(13).get("delta").asText()).isEqualTo("{\"q\":\"x\"}");
        assertThat(only("TOOL_CALL_RESULT").toString())
                .isEqualTo("{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"tm1\",\"toolCallId\":\"c1\",\"content\":\"found\",\"role\":\"tool\"}");
    }

    @Test
    void parallelTasksOfOneNodeShareOneStep() {
        Tag first = task("tool_executor", "1");
        Tag second = task("tool_executor", "2");
        running().feed(new GraphEvent.TaskStarted(first, "1"), new GraphEvent.TaskStarted(second, "2"),
                new GraphEvent.TaskFinished(first, "1", Update.none()), new GraphEvent.TaskFinished(second, "2", Update.none()));
        assertThat(types()).containsExactly("RUN_STARTED", "STEP_STARTED", "STEP_FINISHED");
    }

    @Test
    void theEndClosesWhatIsOpenThenSendsBothSnapshotsThenRunFinished() {
        Tag planner = task("planner", "1");
        AssistantMessage m1 = new AssistantMessage("m1", "Hello", List.of(new ToolCall("c1", "search", "{\"q\":1}")), "r", "planner");
        running().feed(new GraphEvent.TaskStarted(planner, "1"),
                new GraphEvent.Values(root(1), ScriptedRuns.state("plan", new UserMessage("u1", "hi"), m1,
                        new ToolMessage("tm1", "c1", "search", "boom", true)), "cp-1"),
                new GraphEvent.Token(planner, "m2", "Hi"),
                new RunNotice.Ended(RunStatus.SUCCESS, null, true),
                new GraphEvent.Custom(root(2), null, 1)); // after the end: nothing

        assertThat(types()).containsExactly("RUN_STARTED", "STEP_STARTED", "STATE_SNAPSHOT", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT",
                "TEXT_MESSAGE_END", "STEP_FINISHED", "MESSAGES_SNAPSHOT", "STATE_SNAPSHOT", "RUN_FINISHED");
        assertThat(out.get(2).get("snapshot").has("messages")).isFalse();
        assertThat(out.get(2).get("snapshot").get("phase").asText()).isEqualTo("plan");
        assertThat(only("MESSAGES_SNAPSHOT").get("messages").toString()).isEqualTo("[{\"id\":\"u1\",\"role\":\"user\",\"content\":\"hi\"},"
                + "{\"id\":\"m1\",\"role\":\"assistant\",\"content\":\"Hello\",\"toolCalls\":[{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"search\",\"arguments\":\"{\\\"q\\\":1}\"}}]},"
                + "{\"id\":\"tm1\",\"role\":\"tool\",\"content\":\"boom\",\"toolCallId\":\"c1\",\"error\":\"boom\"}]");
        assertThat(only("RUN_FINISHED").toString()).isEqualTo("{\"type\":\"RUN_FINISHED\",\"threadId\":\"t-1\",\"runId\":\"r-1\",\"outcome\":{\"type\":\"success\"}}");
    }

    @Test
    void anInterruptIsTheOutcomeWithTheQuestionAndItsPayload() {
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("question", "Which cat?");
        payload.put("choices", Arrays.asList("a", null));
        running().feed(new GraphEvent.Interrupted(root(1), List.of(new Interrupt("i1", payload, "verifier", "v", Interrupt.When.DURING)), "cp-1"),
                new RunNotice.Ended(RunStatus.INTERRUPTED, null, true));
        assertThat(only("RUN_FINISHED").get("outcome").toString()).isEqualTo("{\"type\":\"interrupt\",\"interrupts\":[{\"id\":\"i1\","
                + "\"reason\":\"input_required\",\"message\":\"Which cat?\",\"metadata\":{\"payload\":{\"question\":\"Which cat?\",\"choices\":[\"a\",null]}}}]}");
    }

    @Test
    void aRunStoppedWithoutAQuestionIsCancelledAndAFailedOneIsRunError() {
        running().feed(new RunNotice.Ended(RunStatus.INTERRUPTED, null, false));
        assertThat(only("RUN_FINISHED").get("outcome").toString()).isEqualTo("{\"type\":\"cancelled\"}");

        List<RunEvent> failed = new ArrayList<>();
        AgUiEvents f = new AgUiEvents(failed::add, ScriptedRuns.began(true));
        f.on(ScriptedRuns.began(true), 0);
        f.on(new RunNotice.Said("node_failed", "boom"), 0);
        f.on(new RunNotice.Ended(RunStatus.ERROR, "node_failed: boom", false), 0);
        f.on(new RunNotice.Said("late", "late"), 0);
        assertThat(failed).extracting(RunEvent::data).containsExactly("{\"type\":\"RUN_STARTED\",\"threadId\":\"t-1\",\"runId\":\"r-1\"}",
                "{\"type\":\"RUN_ERROR\",\"message\":\"node_failed: boom\",\"code\":\"run_failed\"}");
    }

    @Test
    void aRunStoppedBeforeItStartedIsRunErrorAndCustomEventsAreCustom() {
        running().feed(new GraphEvent.Custom(root(1), "planning_retry", Map.of("attempt", 1)), new GraphEvent.Custom(root(1), null, "x"));
        assertThat(out.get(1).toString()).isEqualTo("{\"type\":\"CUSTOM\",\"name\":\"planning_retry\",\"value\":{\"attempt\":1}}");
        assertThat(out.get(2).toString()).isEqualTo("{\"type\":\"CUSTOM\",\"name\":\"custom\",\"value\":\"x\"}");

        List<RunEvent> stopped = new ArrayList<>();
        AgUiEvents s = new AgUiEvents(stopped::add, ScriptedRuns.began(false));
        s.on(ScriptedRuns.began(false), 0);
        s.on(new RunNotice.Said("run_cancelled", "the run was stopped before it started"), 0);
        s.on(new RunNotice.Ended(RunStatus.INTERRUPTED, null, false), 0);
        assertThat(stopped).extracting(AgUiFormat::sse)
                .containsExactly("data: {\"type\":\"RUN_ERROR\",\"message\":\"the run was stopped before it started\",\"code\":\"run_stopped\"}\n\n");
    }

    @Test
    void eventsCarryNoNullField() {
        aTurnWithReasoningTextAndAToolCallInOrder();
        feed(new RunNotice.Ended(RunStatus.SUCCESS, null, true));
        for (ObjectNode e : out) {
            e.fields().forEachRemaining(f -> assertThat(f.getValue().isNull()).as("%s.%s", e.get("type"), f.getKey()).isFalse());
        }
        JsonNode last = out.get(out.size() - 1);
        assertThat(last.get("type").asText()).isEqualTo("RUN_FINISHED");
        assertThat(JsonCodec.MAPPER.valueToTree(out).toString()).doesNotContain("null");
    }
}
