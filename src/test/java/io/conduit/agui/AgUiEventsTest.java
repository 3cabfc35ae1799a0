package io.conduit.agui;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.checkpoint.JsonCodec;
import io.conduit.runs.ProtocolRunFollower;
import io.conduit.runs.RunEvent;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The translation of a run's thread-protocol events into AG-UI's, event by event. */
class AgUiEventsTest {

    private final AgUiEvents t = new AgUiEvents("t1", "r1");
    private final List<ObjectNode> out = new ArrayList<>();

    /** Feeds one protocol event ({@code {"type":"event","method":...,"params":{namespace,data}}}). */
    private AgUiEventsTest feed(String method, String ns, String data) {
        String namespace = ns.isEmpty() ? "[]" : "[\"" + ns.replace("|", "\",\"") + "\"]";
        out.addAll(t.on("{\"type\":\"event\",\"event_id\":\"1\",\"seq\":1,\"method\":\"" + method + "\",\"params\":{\"namespace\":"
                + namespace + ",\"timestamp\":1,\"data\":" + data + "}}"));
        return this;
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
        return feed("lifecycle", "", "{\"event\":\"running\",\"graph_name\":\"agent\"}");
    }

    private AgUiEventsTest task(String ns, String node, String how) {
        return feed("lifecycle", ns, "{\"event\":\"" + how + "\",\"graph_name\":\"" + node + "\"}");
    }

    private AgUiEventsTest msg(String ns, String data) {
        return feed("messages", ns, data);
    }

    @Test
    void aTurnWithReasoningTextAndAToolCallInOrder() {
        running().task("planner:1", "planner", "started")
                .msg("planner:1", "{\"event\":\"message-start\",\"role\":\"ai\",\"id\":\"m1\"}")
                .msg("planner:1", "{\"event\":\"content-block-start\",\"index\":0,\"content\":{\"type\":\"reasoning\",\"reasoning\":\"\"}}")
                .msg("planner:1", "{\"event\":\"content-block-delta\",\"index\":0,\"delta\":{\"type\":\"reasoning-delta\",\"reasoning\":\"hmm\"}}")
                .msg("planner:1", "{\"event\":\"content-block-finish\",\"index\":0,\"content\":{\"type\":\"reasoning\",\"reasoning\":\"hmm\"}}")
                .msg("planner:1", "{\"event\":\"content-block-start\",\"index\":1,\"content\":{\"type\":\"text\",\"text\":\"\"}}")
                .msg("planner:1", "{\"event\":\"content-block-delta\",\"index\":1,\"delta\":{\"type\":\"text-delta\",\"text\":\"Let me \"}}")
                .msg("planner:1", "{\"event\":\"content-block-delta\",\"index\":1,\"delta\":{\"type\":\"text-delta\",\"text\":\"look.\"}}")
                .msg("planner:1", "{\"event\":\"content-block-start\",\"index\":2,\"content\":{\"type\":\"tool_call_chunk\",\"id\":\"c1\",\"name\":\"search\",\"args\":\"\"}}")
                .msg("planner:1", "{\"event\":\"content-block-delta\",\"index\":2,\"delta\":{\"type\":\"tool-call-delta\",\"args\":\"{\\\"q\\\":\"}}")
                .msg("planner:1", "{\"event\":\"content-block-delta\",\"index\":2,\"delta\":{\"type\":\"tool-call-delta\",\"args\":\"\\\"x\\\"}\"}}")
                .msg("planner:1", "{\"event\":\"message-finish\",\"reason\":\"tool_calls\"}")
                .task("planner:1", "planner", "completed")
                .task("tool_executor:2", "tool_executor", "started")
                .feed("updates", "", "{\"messages\":[{\"type\":\"tool\",\"id\":\"tm1\",\"tool_call_id\":\"c1\",\"content\":\"found\",\"status\":\"success\"}]}")
                .task("tool_executor:2", "tool_executor", "completed");

        assertThat(types()).containsExactly("RUN_STARTED", "STEP_STARTED",
                "REASONING_START", "REASONING_MESSAGE_START", "REASONING_MESSAGE_CONTENT", "REASONING_MESSAGE_END", "REASONING_END",
                "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END",
                "TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_ARGS", "TOOL_CALL_END", "STEP_FINISHED",
                "STEP_STARTED", "TOOL_CALL_RESULT", "STEP_FINISHED");
        assertThat(out.get(0).toString()).isEqualTo("{\"type\":\"RUN_STARTED\",\"threadId\":\"t1\",\"runId\":\"r1\"}");
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
        running().task("tool_executor:1", "tool_executor", "started").task("tool_executor:2", "tool_executor", "started")
                .task("tool_executor:1", "tool_executor", "completed").task("tool_executor:2", "tool_executor", "completed");
        assertThat(types()).containsExactly("RUN_STARTED", "STEP_STARTED", "STEP_FINISHED");
    }

    @Test
    void theEndClosesWhatIsOpenThenSendsBothSnapshotsThenRunFinished() {
        running().task("planner:1", "planner", "started")
                .feed("values", "", "{\"messages\":[{\"type\":\"human\",\"id\":\"u1\",\"content\":\"hi\"},"
                        + "{\"type\":\"ai\",\"id\":\"m1\",\"content\":[{\"type\":\"reasoning\",\"reasoning\":\"r\"},{\"type\":\"text\",\"text\":\"Hello\"},"
                        + "{\"type\":\"tool_call\",\"id\":\"c1\",\"name\":\"search\",\"args\":{\"q\":1}}],\"tool_calls\":[{\"type\":\"tool_call\",\"id\":\"c1\",\"name\":\"search\",\"args\":{\"q\":1}}]},"
                        + "{\"type\":\"tool\",\"id\":\"tm1\",\"tool_call_id\":\"c1\",\"content\":\"boom\",\"status\":\"error\"}],\"phase\":\"plan\",\"summary\":null}")
                .msg("planner:1", "{\"event\":\"message-start\",\"role\":\"ai\",\"id\":\"m2\"}")
                .msg("planner:1", "{\"event\":\"content-block-start\",\"index\":0,\"content\":{\"type\":\"text\",\"text\":\"\"}}")
                .feed("lifecycle", "", "{\"event\":\"completed\",\"graph_name\":\"agent\"}")
                .feed("custom", "", "{\"payload\":1}"); // after the end: nothing

        assertThat(types()).containsExactly("RUN_STARTED", "STEP_STARTED", "STATE_SNAPSHOT", "TEXT_MESSAGE_START",
                "TEXT_MESSAGE_END", "STEP_FINISHED", "MESSAGES_SNAPSHOT", "STATE_SNAPSHOT", "RUN_FINISHED");
        assertThat(out.get(2).get("snapshot").has("messages")).isFalse();
        assertThat(out.get(2).get("snapshot").get("phase").asText()).isEqualTo("plan");
        assertThat(only("MESSAGES_SNAPSHOT").get("messages").toString()).isEqualTo("[{\"id\":\"u1\",\"role\":\"user\",\"content\":\"hi\"},"
                + "{\"id\":\"m1\",\"role\":\"assistant\",\"content\":\"Hello\",\"toolCalls\":[{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"search\",\"arguments\":\"{\\\"q\\\":1}\"}}]},"
                + "{\"id\":\"tm1\",\"role\":\"tool\",\"content\":\"boom\",\"toolCallId\":\"c1\",\"error\":\"boom\"}]");
        assertThat(only("RUN_FINISHED").toString()).isEqualTo("{\"type\":\"RUN_FINISHED\",\"threadId\":\"t1\",\"runId\":\"r1\",\"outcome\":{\"type\":\"success\"}}");
        assertThat(t.ended()).isTrue();
    }

    @Test
    void anInterruptIsTheOutcomeWithTheQuestionAndItsPayload() {
        running().feed("input.requested", "", "{\"interrupt_id\":\"i1\",\"payload\":{\"question\":\"Which cat?\",\"choices\":[\"a\",null]}}")
                .feed("lifecycle", "", "{\"event\":\"interrupted\",\"graph_name\":\"agent\"}");
        assertThat(only("RUN_FINISHED").get("outcome").toString()).isEqualTo("{\"type\":\"interrupt\",\"interrupts\":[{\"id\":\"i1\","
                + "\"reason\":\"input_required\",\"message\":\"Which cat?\",\"metadata\":{\"payload\":{\"question\":\"Which cat?\",\"choices\":[\"a\",null]}}}]}");
    }

    @Test
    void aRunStoppedWithoutAQuestionIsCancelledAndAFailedOneIsRunError() {
        running().feed("lifecycle", "", "{\"event\":\"interrupted\",\"graph_name\":\"agent\"}");
        assertThat(only("RUN_FINISHED").get("outcome").toString()).isEqualTo("{\"type\":\"cancelled\"}");

        AgUiEvents failed = new AgUiEvents("t1", "r2");
        List<ObjectNode> f = new ArrayList<>();
        f.addAll(failed.on("{\"type\":\"event\",\"method\":\"lifecycle\",\"params\":{\"namespace\":[],\"data\":{\"event\":\"running\"}}}"));
        f.addAll(failed.on("{\"type\":\"event\",\"method\":\"lifecycle\",\"params\":{\"namespace\":[],\"data\":{\"event\":\"failed\",\"error\":\"node_failed: boom\"}}}"));
        assertThat(f.get(1).toString()).isEqualTo("{\"type\":\"RUN_ERROR\",\"message\":\"node_failed: boom\",\"code\":\"run_failed\"}");
        assertThat(failed.on(new RunEvent(9, "r2", ProtocolRunFollower.STOPPED, "", "late"))).isEmpty();
    }

    @Test
    void aRunStoppedBeforeItStartedIsRunErrorAndCustomEventsAreCustom() {
        feed("custom:planning_retry", "", "{\"name\":\"planning_retry\",\"payload\":{\"attempt\":1}}");
        feed("custom", "", "{\"payload\":\"x\"}");
        assertThat(out.get(0).toString()).isEqualTo("{\"type\":\"CUSTOM\",\"name\":\"planning_retry\",\"value\":{\"attempt\":1}}");
        assertThat(out.get(1).toString()).isEqualTo("{\"type\":\"CUSTOM\",\"name\":\"custom\",\"value\":\"x\"}");
        assertThat(t.frames(new RunEvent(9, "r1", ProtocolRunFollower.STOPPED, "", "the run was stopped before it started")))
                .isEqualTo("data: {\"type\":\"RUN_ERROR\",\"message\":\"the run was stopped before it started\",\"code\":\"run_stopped\"}\n\n");
    }

    @Test
    void eventsCarryNoNullField() {
        aTurnWithReasoningTextAndAToolCallInOrder();
        feed("lifecycle", "", "{\"event\":\"completed\"}");
        for (ObjectNode e : out) {
            e.fields().forEachRemaining(f -> assertThat(f.getValue().isNull()).as("%s.%s", e.get("type"), f.getKey()).isFalse());
        }
        JsonNode last = out.get(out.size() - 1);
        assertThat(last.get("type").asText()).isEqualTo("RUN_FINISHED");
        assertThat(JsonCodec.MAPPER.valueToTree(out).toString()).doesNotContain("null");
    }
}
