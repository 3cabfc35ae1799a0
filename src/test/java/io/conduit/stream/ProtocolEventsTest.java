package io.conduit.stream;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.agent.AgentState;
import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.TokenUsage;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.message.UserMessage;
import io.conduit.api.RunEventLogs;
import io.conduit.graph.CompiledGraph;
import io.conduit.graph.GraphEvent.Tag;
import io.conduit.graph.GraphEvent;
import io.conduit.graph.Interrupt;
import io.conduit.graph.RunRequest;
import io.conduit.graph.State;
import io.conduit.graph.StateGraph;
import io.conduit.graph.StateSchema;
import io.conduit.graph.Update;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.RunStatus;
import io.conduit.runs.events.Collecting;
import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.RunEventListener;
import io.conduit.runs.events.RunFeed;
import io.conduit.runs.events.ServiceLogs;
import io.conduit.runs.events.ThreadLogs;
import io.conduit.runs.worker.RunExecutor;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The thread protocol's translation alone, over engine events built by hand: what each event becomes, in which order,
 * under which namespace, with which seq (the orderings of ../shared/design/thread-protocol-fixtures).
 */
class ProtocolEventsTest {

    private static final StateSchema SCHEMA = StateSchema.of(AgentState.MESSAGES);
    private static final String THREAD = "t-1";
    private static final String RUN = "r-1";

    private final ThreadLogs store = ServiceLogs.of(Duration.ofMinutes(10), Duration.ofMinutes(2), 1 << 20, 1 << 24, () -> 1_795_451_320_019L);
    private final ProtocolEventLogs logs = new ProtocolEventLogs(store);
    private final List<RunEvent> seen = new ArrayList<>();

    private RunFeed translator(String runId, long firstSeq) {
        if (seen.isEmpty() && logs.find(THREAD) == null) {
            logs.log(THREAD).subscribeThread(-1L, Collecting.into(seen));
        }
        return new RunFeed(store, THREAD, runId, firstSeq, Set.of());
    }

    private RunFeed translator() {
        return translator(RUN, 1L);
    }

    private static Tag root(int step) {
        return new Tag(RUN, THREAD, "", null, step);
    }

    private static Tag node(String node, String task) {
        return new Tag(RUN, THREAD, "", node, 1, task);
    }

    private static JsonNode json(RunEvent e) {
        try {
            return JsonCodec.MAPPER.readTree(e.data());
        } catch (Exception x) {
            throw new AssertionError("not JSON: " + e.data(), x);
        }
    }

    private static JsonNode data(RunEvent e) {
        return json(e).path("params").path("data");
    }

    private List<RunEvent> method(String method) {
        return seen.stream().filter(e -> e.mode().equals(method)).toList();
    }

    private List<String> messageEvents() {
        return method("messages").stream().map(e -> data(e).get("event").asText()).toList();
    }

    private static List<RunEvent> rootTerminals(List<RunEvent> events) {
        return events.stream().filter(RunEvent::terminal).toList();
    }

    /** A state holding these messages, as a run of a one-node graph leaves it. */
    private static State stateWith(ChatMessage... messages) {
        CompiledGraph g = StateGraph.of(SCHEMA).node("a", (s, ctx) -> {
            Update u = Update.none();
            for (ChatMessage m : messages) {
                u = u.set(AgentState.MESSAGES, m);
            }
            return Uni.createFrom().item(u);
        }).edge(StateGraph.START, "a").edge("a", StateGraph.END).compile();
        return g.invoke(RunRequest.on("state-" + System.nanoTime()).input(Update.none())).await().indefinitely().state();
    }

    /** One streamed answer: running first, the node's lifecycle, the message, state, and one terminal event last. */
    private void chatTurn(RunFeed p, String messageId) {
        AssistantMessage answer = new AssistantMessage(messageId, "Hello \"you\"", List.of(), null, "generator", new TokenUsage(12, 3));
        p.running();
        p.on(new GraphEvent.RunStarted(root(-1), "cp-0"));
        p.on(new GraphEvent.TaskStarted(node("model", "task-1"), "task-1"));
        p.on(new GraphEvent.ChildStarted(node("model", "task-1"), "child-1", "chat_model", "generator", Map.of()));
        p.on(new GraphEvent.Token(node("model", "task-1"), messageId, "Hello "));
        p.on(new GraphEvent.Token(node("model", "task-1"), messageId, "\"you\""));
        p.on(new GraphEvent.ChildEnded(node("model", "task-1"), "child-1", "chat_model", "generator", answer, null));
        p.on(new GraphEvent.TaskFinished(node("model", "task-1"), "task-1", Update.of(AgentState.MESSAGES, answer)));
        p.on(new GraphEvent.Values(root(1), stateWith(new UserMessage("u-1", "hi"), answer), "cp-1"));
        p.on(new GraphEvent.RunFinished(root(1), stateWith(answer), "cp-1"));
        p.end(RunStatus.SUCCESS, null);
    }

    @Test
    void aChatTurnOpensWithRunningAndEndsWithOneCompletedInThePeersOrder() {
        chatTurn(translator(), "msg-1");

        List<String> order = seen.stream().map(e -> e.mode() + (e.mode().equals("messages") || e.mode().equals("lifecycle")
                ? ":" + data(e).get("event").asText() : "") + "@" + e.ns()).toList();
        assertThat(order).containsExactly(
                "lifecycle:running@",
                "tasks@",
                "lifecycle:started@model:task-1",
                "messages:message-start@model:task-1",
                "messages:content-block-start@model:task-1",
                "messages:content-block-delta@model:task-1",
                "messages:content-block-delta@model:task-1",
                "messages:content-block-finish@model:task-1",
                "messages:message-finish@model:task-1",
                "updates@",
                "tasks@",
                "lifecycle:completed@model:task-1",
                "checkpoints@",
                "values@",
                "lifecycle:completed@");
        assertThat(rootTerminals(seen)).containsExactly(seen.get(seen.size() - 1));
        assertThat(data(seen.get(0)).get("graph_name").asText()).isEqualTo("agent");
    }

    @Test
    void everyEventIsTheWholeWireJsonOnOneLineWithItsSeqAsEventId() {
        chatTurn(translator(), "msg-1");

        long last = 0;
        for (RunEvent e : seen) {
            assertThat(e.data()).doesNotContain("\n").doesNotContain("\r");
            JsonNode j = json(e);
            assertThat(j.get("type").asText()).isEqualTo("event");
            assertThat(j.get("seq").asLong()).isEqualTo(e.seq()).isGreaterThan(last);
            assertThat(j.get("event_id").asText()).isEqualTo(String.valueOf(e.seq()));
            assertThat(j.get("method").asText()).isEqualTo(e.mode());
            List<String> segments = new ArrayList<>();
            j.path("params").path("namespace").forEach(s -> segments.add(s.asText()));
            assertThat(String.join("|", segments)).isEqualTo(e.ns());
            assertThat(j.path("params").get("timestamp").asLong()).isEqualTo(1_795_451_320_019L);
            assertThat(e.runId()).isEqualTo(RUN);
            last = e.seq();
        }
        assertThat(json(method("updates").get(0)).path("params").get("node").asText()).isEqualTo("model");
        assertThat(logs.find(THREAD).lastSeq()).isEqualTo(last); // what a command answer reports as applied_through_seq
    }

    @Test
    void theStreamedMessageCarriesTheIdOfTheMessageInStateAndItsTextWhole() {
        chatTurn(translator(), "msg-42");

        List<RunEvent> messages = method("messages");
        assertThat(data(messages.get(0)).get("id").asText()).isEqualTo("msg-42");
        assertThat(data(messages.get(0)).get("role").asText()).isEqualTo("ai");
        assertThat(data(messages.get(1)).get("content")).isEqualTo(JsonCodec.MAPPER.createObjectNode().put("type", "text").put("text", ""));
        StringBuilder streamed = new StringBuilder();
        messages.stream().map(ProtocolEventsTest::data).filter(d -> d.get("event").asText().equals("content-block-delta"))
                .forEach(d -> streamed.append(d.get("delta").get("text").asText()));
        assertThat(streamed.toString()).isEqualTo("Hello \"you\"");
        assertThat(data(messages.get(4)).get("content").get("text").asText()).isEqualTo("Hello \"you\"");
        assertThat(data(messages.get(5)).get("reason").asText()).isEqualTo("stop");
        assertThat(data(messages.get(5)).get("usage")).isEqualTo(JsonCodec.MAPPER.createObjectNode()
                .put("input_tokens", 12).put("output_tokens", 3).put("total_tokens", 15)); // the SDK's UsageInfo

        JsonNode values = data(method("values").get(0));
        JsonNode ai = values.get("messages").get(1);
        assertThat(ai.get("id").asText()).isEqualTo("msg-42");
        assertThat(ai.get("type").asText()).isEqualTo("ai");
        assertThat(ai.get("content").get(0).get("text").asText()).isEqualTo("Hello \"you\"");
        assertThat(ai.get("usage_metadata").get("total_tokens").asInt()).isEqualTo(15);
        assertThat(values.get("messages").get(0).get("content").asText()).isEqualTo("hi");
        assertThat(values.has("__interrupt__")).isFalse();

        JsonNode cp = data(method("checkpoints").get(0));
        assertThat(cp.get("id").asText()).isEqualTo("cp-1");
        assertThat(cp.get("parent_id").asText()).isEqualTo("cp-0");
        assertThat(cp.get("source").asText()).isEqualTo("loop");
    }

    @Test
    void toolCallsStreamAsChunkBlocksOfArgumentDeltasThatFinishAsToolCalls() {
        RunFeed p = translator();
        Tag planner = node("planner", "task-p");
        AssistantMessage plan = new AssistantMessage("msg-p", "Let me look.", List.of(new ToolCall("call-1", "search", "{\"q\":\"paris\"}"),
                new ToolCall("call-2", "clock", "{}")), null, "planner");
        p.running();
        p.on(new GraphEvent.TaskStarted(planner, "task-p"));
        p.on(new GraphEvent.Token(planner, "msg-p", "Let me look."));
        p.on(new GraphEvent.ToolCallChunk(planner, "msg-p", 0, "call-1", "search", "{\"q\":"));
        p.on(new GraphEvent.ToolCallChunk(planner, "msg-p", 0, null, null, "\"paris\"}"));
        p.on(new GraphEvent.ToolCallChunk(planner, "msg-p", 1, "call-2", "clock", "{}"));
        p.on(new GraphEvent.ChildEnded(planner, "child-p", "chat_model", "planner", plan, null));
        p.on(new GraphEvent.TaskFinished(planner, "task-p", Update.of(AgentState.MESSAGES, plan)));
        p.end(RunStatus.SUCCESS, null);

        List<JsonNode> m = method("messages").stream().map(ProtocolEventsTest::data).toList();
        assertThat(messageEvents()).containsExactly("message-start",
                "content-block-start", "content-block-delta", "content-block-finish",
                "content-block-start", "content-block-delta", "content-block-delta", "content-block-finish",
                "content-block-start", "content-block-delta", "content-block-finish",
                "message-finish");
        // blocks never interleave: each block's events carry its index, and indexes only grow
        assertThat(m.stream().filter(d -> d.has("index")).map(d -> d.get("index").asInt()).toList())
                .containsExactly(0, 0, 0, 1, 1, 1, 1, 2, 2, 2);
        assertThat(m.get(4).get("content").get("type").asText()).isEqualTo("tool_call_chunk");
        assertThat(m.get(4).get("content").get("id").asText()).isEqualTo("call-1");
        assertThat(m.get(4).get("content").get("name").asText()).isEqualTo("search");
        assertThat(m.get(5).get("delta")).isEqualTo(JsonCodec.MAPPER.createObjectNode().put("type", "tool-call-delta").put("args", "{\"q\":"));
        JsonNode call = m.get(7).get("content");
        assertThat(call.get("type").asText()).isEqualTo("tool_call");
        assertThat(call.get("id").asText()).isEqualTo("call-1");
        assertThat(call.get("args")).isEqualTo(JsonCodec.MAPPER.createObjectNode().put("q", "paris"));
        assertThat(m.get(10).get("content").get("id").asText()).isEqualTo("call-2");
        assertThat(m.get(11).get("reason").asText()).isEqualTo("tool_calls");
        assertThat(m.stream().filter(d -> d.get("event").asText().equals("message-start"))).hasSize(1); // not repeated at the task's end
    }

    @Test
    void toolCallsRunAsToolEventsUnderTheirCallIdInTheirTasksNamespace() {
        RunFeed p = translator();
        Tag first = node("tool_executor", "task-a");
        Tag second = node("tool_executor", "task-b");
        p.running();
        p.on(new GraphEvent.TaskStarted(first, "task-a"));
        p.on(new GraphEvent.TaskStarted(second, "task-b"));
        p.on(new GraphEvent.ChildStarted(first, "child-a", "tool", "search", Map.of("q", "paris"), "call-1"));
        p.on(new GraphEvent.ChildStarted(second, "child-b", "tool", "clock", Map.of(), "call-2"));
        p.on(new GraphEvent.ChildEnded(second, "child-b", "tool", "clock", "12:00", null));
        p.on(new GraphEvent.ChildEnded(first, "child-a", "tool", "search", "no network", "no network"));
        p.end(RunStatus.SUCCESS, null);

        List<RunEvent> tools = method("tools");
        assertThat(tools).extracting(e -> data(e).get("event").asText() + " " + data(e).get("tool_call_id").asText() + " @" + e.ns())
                .containsExactly("tool-started call-1 @tool_executor:task-a", "tool-started call-2 @tool_executor:task-b",
                        "tool-finished call-2 @tool_executor:task-b", "tool-error call-1 @tool_executor:task-a");
        assertThat(data(tools.get(0)).get("tool_name").asText()).isEqualTo("search");
        assertThat(data(tools.get(0)).get("input")).isEqualTo(JsonCodec.MAPPER.createObjectNode().put("q", "paris"));
        assertThat(data(tools.get(2)).get("output").asText()).isEqualTo("12:00");
        assertThat(data(tools.get(3)).get("message").asText()).isEqualTo("no network");
        assertThat(json(tools.get(0)).path("params").get("node").asText()).isEqualTo("tool_executor");
    }

    @Test
    void anInterruptAsksForInputBeforeTheRootInterruptedWhichIsLast() {
        RunFeed p = translator();
        Tag verifier = node("verifier", "task-v");
        p.running();
        p.on(new GraphEvent.TaskStarted(verifier, "task-v"));
        p.on(new GraphEvent.Interrupted(root(2), List.of(new Interrupt("task-v#0", Map.of("question", "Approve?"), "verifier", "task-v", Interrupt.When.DURING)),
                "cp-2"));
        p.end(RunStatus.INTERRUPTED, null);

        List<String> order = seen.stream().map(e -> e.mode() + (e.mode().equals("lifecycle") ? ":" + data(e).get("event").asText() : "")
                + "@" + e.ns()).toList();
        assertThat(order).containsExactly("lifecycle:running@", "tasks@", "lifecycle:started@verifier:task-v",
                "lifecycle:interrupted@verifier:task-v", "input.requested@", "lifecycle:interrupted@");
        JsonNode asked = data(method("input.requested").get(0));
        assertThat(asked.get("interrupt_id").asText()).isEqualTo("task-v#0");
        assertThat(asked.get("payload")).isEqualTo(JsonCodec.MAPPER.createObjectNode().put("question", "Approve?"));
        assertThat(rootTerminals(seen)).containsExactly(seen.get(seen.size() - 1));
    }

    @Test
    void aBreakpointAsksForNoInput() {
        RunFeed p = translator();
        p.running();
        p.on(new GraphEvent.Interrupted(root(2), List.of(
                new Interrupt("task-v#before", Map.of("node", "verifier", "when", "before"), "verifier", "task-v", Interrupt.When.BEFORE),
                new Interrupt("cp-1.after#after", Map.of("node", "planner", "when", "after"), "planner", "cp-1.after", Interrupt.When.AFTER),
                new Interrupt("task-w#0", "Approve?", "writer", "task-w", Interrupt.When.DURING)), "cp-2"));
        p.end(RunStatus.INTERRUPTED, null);

        assertThat(method("input.requested")).extracting(e -> data(e).get("interrupt_id").asText()).containsExactly("task-w#0");
    }

    @Test
    void aResumingRunSaysWhichInterruptsItAnswersRightAfterRunning() {
        RunFeed p = translator();
        p.running();
        p.answered(List.of("task-v#0"));
        p.end(RunStatus.SUCCESS, null);

        assertThat(seen).extracting(RunEvent::mode).containsExactly("lifecycle", "input.answered", "lifecycle");
        assertThat(data(seen.get(1)).get("interrupt_ids").get(0).asText()).isEqualTo("task-v#0");
    }

    /** LangGraph tells a resumed run's starting state as values; the checkpoint is its RunStarted's, told already. */
    @Test
    void theStateAResumedRunStartsFromIsValuesWithNoCheckpointOfItsOwn() {
        RunFeed p = translator();
        p.running();
        p.on(new GraphEvent.RunStarted(root(3), "cp-3"));
        p.on(new GraphEvent.Values(root(3), stateWith(new UserMessage("u-1", "hi")), "cp-3", true));
        p.on(new GraphEvent.Values(root(4), stateWith(new UserMessage("u-1", "hi")), "cp-4"));
        p.end(RunStatus.SUCCESS, null);

        assertThat(method("values")).hasSize(2);
        assertThat(method("checkpoints")).singleElement().satisfies(e -> {
            assertThat(data(e).get("id").asText()).isEqualTo("cp-4");
            assertThat(data(e).get("parent_id").asText()).isEqualTo("cp-3");
        });
    }

    @Test
    void aRunThatFailsBeforeItsGraphStartsStillEndsWithOneFailed() {
        RunFeed p = translator();
        p.running();
        p.end(RunStatus.ERROR, "GraphNotFound: the run's graph is not registered here");
        p.end(RunStatus.SUCCESS, null); // a second end changes nothing

        assertThat(seen).hasSize(2);
        JsonNode failed = data(seen.get(1));
        assertThat(failed.get("event").asText()).isEqualTo("failed");
        assertThat(failed.get("error").asText()).isEqualTo("GraphNotFound: the run's graph is not registered here");
        assertThat(rootTerminals(seen)).containsExactly(seen.get(1));
    }

    @Test
    void aCancelledRunFailsItsOpenTaskAndEndsInterruptedAndNothingComesAfter() {
        RunFeed p = translator();
        Tag gen = node("generator", "task-g");
        p.running();
        p.on(new GraphEvent.TaskStarted(gen, "task-g"));
        p.on(new GraphEvent.Token(gen, "msg-g", "Hel"));
        p.end(RunStatus.INTERRUPTED, null);
        p.on(new GraphEvent.Token(gen, "msg-g", "lo")); // late: the node was still running when the run was cancelled
        p.on(new GraphEvent.TaskFinished(gen, "task-g", Update.none()));

        RunEvent last = seen.get(seen.size() - 1);
        assertThat(data(last).get("event").asText()).isEqualTo("interrupted");
        assertThat(last.ns()).isEmpty();
        assertThat(rootTerminals(seen)).containsExactly(last);
        RunEvent nodeEnd = seen.get(seen.size() - 2);
        assertThat(nodeEnd.ns()).isEqualTo("generator:task-g");
        assertThat(data(nodeEnd).get("event").asText()).isEqualTo("failed");
        assertThat(messageEvents()).containsExactly("message-start", "content-block-start", "content-block-delta", "error");
    }

    @Test
    void aFailedNodeFailsItsNamespaceAndTheRunEndsFailedWithTheError() {
        RunFeed p = translator();
        Tag gen = node("generator", "task-g");
        p.running();
        p.on(new GraphEvent.TaskStarted(gen, "task-g"));
        p.on(new GraphEvent.ChildStarted(gen, "child-g", "chat_model", "generator", Map.of()));
        p.on(new GraphEvent.Token(gen, "msg-g", "Hel"));
        p.on(new GraphEvent.ChildEnded(gen, "child-g", "chat_model", "generator", null, "the provider hung up"));
        p.on(new GraphEvent.RunFailed(root(1), "node_failed", "node generator failed: the provider hung up"));
        p.end(RunStatus.ERROR, "node_failed: node generator failed: the provider hung up");

        assertThat(messageEvents()).containsExactly("message-start", "content-block-start", "content-block-delta", "error");
        assertThat(data(method("messages").get(3)).get("message").asText()).isEqualTo("the provider hung up");
        List<RunEvent> lifecycle = method("lifecycle");
        assertThat(lifecycle).extracting(e -> data(e).get("event").asText()).containsExactly("running", "started", "failed", "failed");
        assertThat(data(lifecycle.get(2)).get("error").asText()).contains("the provider hung up");
        assertThat(data(lifecycle.get(3)).get("error").asText()).startsWith("node_failed");
    }

    @Test
    void customEventsAreNamedChannelsAndReasoningIsABlockOfItsMessage() {
        RunFeed p = translator();
        Tag planner = node("planner", "task-p");
        Tag verifier = node("verifier", "task-v");
        p.running();
        p.on(new GraphEvent.Reasoning(planner, "msg-p", "Think"));
        p.on(new GraphEvent.Reasoning(planner, "msg-p", "ing"));
        p.on(new GraphEvent.Token(planner, "msg-p", "Answer"));
        p.on(new GraphEvent.ChildEnded(planner, "child-p", "chat_model", "planner",
                new AssistantMessage("msg-p", "Answer", List.of(), "Thinking", "planner"), null));
        p.on(new GraphEvent.Custom(verifier, "planning_retry", Map.of("attempt", 1)));
        p.on(new GraphEvent.Custom(verifier, null, List.of(1, 2)));
        p.end(RunStatus.SUCCESS, null);

        List<JsonNode> m = method("messages").stream().map(ProtocolEventsTest::data).toList();
        assertThat(m.get(1).get("content").get("type").asText()).isEqualTo("reasoning");
        assertThat(m.get(2).get("delta")).isEqualTo(JsonCodec.MAPPER.createObjectNode().put("type", "reasoning-delta").put("reasoning", "Think"));
        assertThat(m.get(4).get("content")).isEqualTo(JsonCodec.MAPPER.createObjectNode().put("type", "reasoning").put("reasoning", "Thinking"));
        assertThat(m.get(5).get("content").get("type").asText()).isEqualTo("text");
        RunEvent retry = method("custom:planning_retry").get(0);
        assertThat(data(retry).get("name").asText()).isEqualTo("planning_retry");
        assertThat(data(retry).get("payload").get("attempt").asInt()).isEqualTo(1);
        assertThat(data(method("custom").get(0)).has("name")).isFalse();
        assertThat(data(method("custom").get(0)).get("payload").size()).isEqualTo(2);
    }

    @Test
    void stateEventsWrittenWhenReadAreWhatTheyWereWhenLogged() {
        // a clock that moves on every reading: an event's JSON written late must still carry its entry's time
        java.util.concurrent.atomic.AtomicLong clock = new java.util.concurrent.atomic.AtomicLong(1_795_451_320_019L);
        ThreadLogs moving = ServiceLogs.of(Duration.ofMinutes(10), Duration.ofMinutes(2), 1 << 20, 1 << 24, () -> clock.addAndGet(7));
        List<RunEvent> late = new ArrayList<>();
        List<String> atOnce = new ArrayList<>();
        new ProtocolEventLogs(moving).log(THREAD).subscribeThread(-1L, new RunEventListener() {
            @Override
            public void onEvent(RunEvent event) {
                late.add(event);
                if (!event.mode().equals("values") && !event.mode().equals("updates") && !event.mode().equals("tasks")) {
                    return;
                }
                atOnce.add(event.data());
            }

            @Override
            public void onEnd() {
            }
        });
        chatTurn(new RunFeed(moving, THREAD, RUN, 1L, Set.of()), "msg-1");
        // the same run translated again, as a replay does, read at once
        List<RunEvent> replayed = new ArrayList<>();
        new ProtocolEventLogs(moving).log(THREAD).subscribeThread(-1L, Collecting.into(replayed));

        List<RunEvent> state = late.stream().filter(e -> List.of("values", "updates", "tasks").contains(e.mode())).toList();
        assertThat(state).extracting(RunEvent::data).containsExactlyElementsOf(atOnce);
        assertThat(late).extracting(RunEvent::data).containsExactlyElementsOf(replayed.stream().map(RunEvent::data).toList());
        RunEvent values = method(late, "values").get(0);
        assertThat(json(values).path("params").get("timestamp").asLong())
                .isEqualTo(json(method(late, "checkpoints").get(0)).path("params").get("timestamp").asLong());
        assertThat(data(values).get("messages")).hasSize(2);
        RunEvent update = method(late, "updates").get(0);
        RunEvent task = late.get(late.indexOf(update) + 1);
        assertThat(data(task).get("result")).isEqualTo(data(update));
    }

    @Test
    void runsTranslatedInTurnOnOneThreadEachGetTheirOwnFrames() {
        // the translators share a thread's builders: each event must be whole before the next run's starts
        List<RunEvent> other = new ArrayList<>();
        logs.log("t-2").subscribeThread(-1L, Collecting.into(other));
        RunFeed a = translator();
        RunFeed b = new RunFeed(store, "t-2", "r-2", 100L, Set.of());
        a.running();
        b.running();
        for (int i = 0; i < 3; i++) {
            a.on(new GraphEvent.Token(node("model", "task-1"), "msg-a", "a" + i + " "));
            b.on(new GraphEvent.Token(new Tag("r-2", "t-2", "", "model", 1, "task-2"), "msg-b", "b" + i + "\n"));
        }
        a.end(RunStatus.SUCCESS, null);
        b.end(RunStatus.SUCCESS, null);

        assertThat(method("messages").stream().filter(e -> data(e).get("event").asText().equals("content-block-delta"))
                .map(e -> data(e).get("delta").get("text").asText())).containsExactly("a0 ", "a1 ", "a2 ");
        assertThat(other.stream().filter(e -> e.mode().equals("messages") && data(e).get("event").asText().equals("content-block-delta"))
                .map(e -> data(e).get("delta").get("text").asText())).containsExactly("b0\n", "b1\n", "b2\n");
        assertThat(other).allSatisfy(e -> assertThat(json(e).get("seq").asLong()).isEqualTo(e.seq()).isGreaterThanOrEqualTo(100L));
        assertThat(seen).allSatisfy(e -> assertThat(json(e).get("seq").asLong()).isEqualTo(e.seq()).isLessThan(100L));
    }

    private static List<RunEvent> method(List<RunEvent> events, String method) {
        return events.stream().filter(e -> e.mode().equals(method)).toList();
    }

    @Test
    void anAiMessageWrittenWithoutStreamingComesWholeAtItsTasksEnd() {
        RunFeed p = translator();
        Tag ingress = node("ingress", "task-i");
        AssistantMessage refusal = new AssistantMessage("msg-r", "I cannot help with that.", List.of(), null, "ingress");
        p.running();
        p.on(new GraphEvent.TaskStarted(ingress, "task-i"));
        p.on(new GraphEvent.TaskFinished(ingress, "task-i", Update.of(AgentState.MESSAGES, refusal)
                .set(AgentState.MESSAGES, new UserMessage("u-2", "not a message of the stream"))));
        p.end(RunStatus.SUCCESS, null);

        assertThat(messageEvents()).containsExactly("message-start", "content-block-start", "content-block-delta", "content-block-finish",
                "message-finish");
        assertThat(data(method("messages").get(0)).get("id").asText()).isEqualTo("msg-r");
        assertThat(data(method("messages").get(3)).get("content").get("text").asText()).isEqualTo("I cannot help with that.");
    }

    @Test
    void aSubgraphsTasksNestUnderItsNodesNamespace() {
        RunFeed p = translator();
        Tag inner = new Tag(RUN, THREAD, "outer:task-o", "model", 1, "task-i");
        p.running();
        p.on(new GraphEvent.TaskStarted(node("outer", "task-o"), "task-o"));
        p.on(new GraphEvent.TaskStarted(inner, "task-i"));
        p.on(new GraphEvent.Token(inner, "msg-i", "x"));
        p.end(RunStatus.INTERRUPTED, null);

        assertThat(json(method("messages").get(0)).path("params").get("namespace").toString()).isEqualTo("[\"outer:task-o\",\"model:task-i\"]");
        assertThat(method("messages").get(0).ns()).isEqualTo("outer:task-o|model:task-i");
        // both tasks fail when the run is stopped, the inner one first
        assertThat(method("lifecycle").stream().filter(e -> data(e).get("event").asText().equals("failed")).map(RunEvent::ns))
                .containsExactly("outer:task-o|model:task-i", "outer:task-o");
    }

    @Test
    void textIsEscapedIntoOneLineOfJsonThatReadsBackTheSame() {
        RunFeed p = translator();
        String nasty = "line\nbreak \"quoted\" back\\slash tab\t \u0001 \u2028 é 🙂";
        p.running();
        p.on(new GraphEvent.Token(node("model", "task-1"), "msg-1", nasty));
        p.end(RunStatus.SUCCESS, null);

        RunEvent delta = method("messages").get(2);
        assertThat(delta.data()).doesNotContain("\n").doesNotContain("\u2028");
        assertThat(data(delta).get("delta").get("text").asText()).isEqualTo(nasty);
    }

    @Test
    void eachDeltaSaysWhereItsTextLiesSoThatASlowSubscribersDeltasOfOneBlockMerge() {
        RunFeed p = translator();
        p.running();
        p.on(new GraphEvent.Token(node("model", "task-1"), "msg-1", "say \"hi\""));
        p.on(new GraphEvent.Token(node("model", "task-1"), "msg-1", " twice"));
        p.on(new GraphEvent.ToolCallChunk(node("model", "task-1"), "msg-1", 0, "call-1", "calc", "{\"x\""));
        p.end(RunStatus.SUCCESS, null);

        List<RunEvent> deltas = method("messages").stream().filter(e -> data(e).get("event").asText().equals("content-block-delta")).toList();
        assertThat(deltas).hasSize(3).allSatisfy(e -> assertThat(e.text()).isNotNull());
        RunEvent first = deltas.get(0);
        assertThat(first.data().substring(first.text().start(), first.text().end())).isEqualTo("say \\\"hi\\\"");
        assertThat(first.text().key()).isEqualTo(deltas.get(1).text().key()); // one block: mergeable
        assertThat(deltas.get(2).text().key()).isNotEqualTo(first.text().key()); // the tool call's block: not with the text
        RunEvent args = deltas.get(2);
        assertThat(args.data().substring(args.text().start(), args.text().end())).isEqualTo("{\\\"x\\\"");
    }

    @Test
    void eachFormatNumbersTheRunsOfOneThreadWithOneIncreasingSeq() {
        RunEventLogs classic = new RunEventLogs(store);
        List<RunEvent> all = new ArrayList<>();
        long first = 1;
        for (String runId : List.of("r-1", "r-2")) {
            RunFeed p = translator(runId, first); // the first subscribes to the protocol's frames
            p.running();
            AssistantMessage answer = new AssistantMessage("m-" + runId, "hi", List.of(), null, "generator");
            for (GraphEvent e : List.<GraphEvent>of(new GraphEvent.TaskStarted(node("model", "t-" + runId), "t-" + runId),
                    new GraphEvent.Token(node("model", "t-" + runId), answer.id(), "hi"),
                    new GraphEvent.TaskFinished(node("model", "t-" + runId), "t-" + runId, Update.of(AgentState.MESSAGES, answer)))) {
                p.on(e);
            }
            p.end(RunStatus.SUCCESS, null);
            first += RunExecutor.SEQ_BLOCK; // the next run's block, as the thread store reserves them
        }
        classic.log(THREAD).subscribeThread(-1L, Collecting.into(all));

        assertThat(seen).isNotEmpty();
        assertThat(seen).extracting(RunEvent::seq).isSorted().doesNotHaveDuplicates();
        assertThat(all).extracting(RunEvent::mode).contains("metadata", "messages", "updates", "end");
        assertThat(all).extracting(RunEvent::seq).isSorted().doesNotHaveDuplicates();
        assertThat(seen.get(seen.size() - 1).seq()).isGreaterThan(RunExecutor.SEQ_BLOCK);
        assertThat(all.get(all.size() - 1).seq()).isGreaterThan(RunExecutor.SEQ_BLOCK);
        assertThat(rootTerminals(seen)).hasSize(2);
    }

    @Test
    void aLogOverItsBoundKeepsTheQuestionsAndTheEndAndAReplaySaysWhatWasDropped() {
        ThreadLogs tiny = ServiceLogs.of(Duration.ofMinutes(10), Duration.ofMinutes(2), 4_000, 1 << 24, () -> 0L);
        ProtocolEventLogs small = new ProtocolEventLogs(tiny);
        RunFeed p = new RunFeed(tiny, THREAD, RUN, 1, Set.of());
        Tag verifier = node("verifier", "task-v");
        p.running();
        p.on(new GraphEvent.TaskStarted(verifier, "task-v"));
        for (int i = 0; i < 400; i++) { // ~28 bytes a token in the log: well past its 4,000-byte bound
            p.on(new GraphEvent.Token(verifier, "msg-v", "token " + i));
        }
        p.on(new GraphEvent.Interrupted(root(2), List.of(new Interrupt("task-v#0", "Approve?", "verifier", "task-v", Interrupt.When.DURING)), "cp-2"));
        p.end(RunStatus.INTERRUPTED, null);

        List<RunEvent> replay = new ArrayList<>();
        small.log(THREAD).subscribeThread(-1L, Collecting.into(replay));

        RunEvent notice = replay.get(0);
        assertThat(notice.mode()).isEqualTo("error");
        JsonNode error = json(notice);
        assertThat(error.get("type").asText()).isEqualTo("error");
        assertThat(error.get("id").isNull()).isTrue();
        assertThat(error.get("error").asText()).isEqualTo("unknown_error");
        assertThat(error.get("message").asText()).contains("dropped");
        assertThat(replay).extracting(RunEvent::mode).contains("input.requested");
        assertThat(data(replay.get(replay.size() - 1)).get("event").asText()).isEqualTo("interrupted");
        assertThat(replay.size()).isLessThan(100);
    }
}
