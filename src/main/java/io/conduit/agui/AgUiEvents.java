package io.conduit.agui;

import static io.conduit.agui.AgUiFrames.event;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.agent.message.ToolMessage;
import io.conduit.graph.GraphEvent;
import io.conduit.graph.Interrupt;
import io.conduit.graph.Update;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.RunStatus;
import io.conduit.runs.events.MessageBlocks;
import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.RunNotice;
import io.conduit.runs.events.RunTranslator;
import io.conduit.runs.wire.WireState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One run's events in AG-UI, translated from its log's entries (the engine's events and the worker's notices), the
 * run seen as the thread protocol sees it (its messages are {@link MessageBlocks}', as the protocol's are):
 * <ul>
 * <li>the run's start → RUN_STARTED; a task → STEP_STARTED/STEP_FINISHED named after its node (parallel tasks of one
 * node share one step);</li>
 * <li>the AI messages' blocks → TEXT_MESSAGE_*, REASONING_*, TOOL_CALL_START/ARGS/END ({@link AgUiMessageEvents});
 * a tool message a task writes answering one of those calls → TOOL_CALL_RESULT;</li>
 * <li>root values → STATE_SNAPSHOT (every channel but messages); custom events → CUSTOM;</li>
 * <li>the run's end: whatever is still open is closed, then MESSAGES_SNAPSHOT and STATE_SNAPSHOT, then RUN_FINISHED
 * (outcome {@code interrupt} with the questions asked, or {@code cancelled} for a stopped run) or RUN_ERROR for a
 * failed one; a run stopped before it began is one RUN_ERROR {@code run_stopped} saying why. Nothing follows.</li>
 * </ul>
 * Each AG-UI event is one frame ({@link AgUiFrames}); the text and argument deltas carry where their text lies
 * ({@link io.conduit.runs.events.TextDelta}), so a slow client's outbox merges them. Deterministic, as every translator: fed
 * the same entries, it writes the same frames.
 */
final class AgUiEvents implements RunTranslator {

    /** Why a run that never began ended, when nothing said. */
    static final String STOPPED_BEFORE_START = "the run was stopped before it started";

    private final AgUiFrames frames;
    private final AgUiMessageEvents messages;
    private final MessageBlocks<String> blocks;
    private final String threadId;
    private final String runId;
    private final String graphName;
    /** The namespace of each task, by task id: {@code <node>:<task id>} below its graph's, as the protocol names it. */
    private final Map<String, String> taskNamespaces = new HashMap<>();
    /** The namespaces of the tasks running, in start order: a failure, an interrupt or the end stops them last first. */
    private final LinkedHashMap<String, String> openTasks = new LinkedHashMap<>();
    /** Open steps by node name: how many of its tasks run. */
    private final LinkedHashMap<String, Integer> steps = new LinkedHashMap<>();
    private final Map<String, String> stepOfNamespace = new HashMap<>();
    private final List<ObjectNode> interrupts = new ArrayList<>();
    private ObjectNode lastValues;
    private boolean executed;
    private boolean ended;

    AgUiEvents(Consumer<RunEvent> out, RunNotice.Began began) {
        this.threadId = began.run().threadId();
        this.runId = began.run().runId();
        this.graphName = began.graphId();
        this.frames = new AgUiFrames(out, runId, began.firstSeq());
        this.messages = new AgUiMessageEvents(frames);
        this.blocks = new MessageBlocks<>(messages);
    }

    @Override
    public void on(Object entry, long atMillis) {
        if (ended) {
            return;
        }
        switch (entry) {
            case GraphEvent e -> {
                if (executed) {
                    on(e);
                }
            }
            case RunNotice.Began b -> {
                if (b.executed()) {
                    executed = true;
                    frames.emit(event("RUN_STARTED").put("threadId", threadId).put("runId", runId));
                }
            }
            case RunNotice.Said said -> {
                if (!executed) { // why a run that never began ended; a run that did ends with its Ended
                    stopped(said.message());
                }
            }
            case RunNotice.Ended end -> {
                if (executed) {
                    end(end.status(), end.error());
                } else {
                    stopped(STOPPED_BEFORE_START);
                }
            }
            case RunNotice.Answered a -> {
                // AG-UI has no event for it: the resume was the client's own request
            }
            default -> throw new IllegalArgumentException("not a log entry: " + entry);
        }
    }

    private void on(GraphEvent e) {
        GraphEvent.Tag tag = e.tag();
        switch (e) {
            case GraphEvent.Token t -> blocks.text(task(tag), t.messageId(), t.text());
            case GraphEvent.Reasoning r -> blocks.reasoning(task(tag), r.messageId(), r.text());
            case GraphEvent.ToolCallChunk c -> blocks.toolCallChunk(task(tag), c);
            case GraphEvent.ChildEnded c -> {
                if (MessageBlocks.modelCall(c.kind())) {
                    blocks.modelEnded(task(tag), c);
                }
            }
            case GraphEvent.TaskStarted t -> taskStarted(tag, t.taskId());
            case GraphEvent.TaskFinished t -> taskFinished(tag, t.taskId(), t.update());
            case GraphEvent.Values v -> {
                if (tag.ns().isEmpty()) {
                    lastValues = WireState.protocolValues(v.state());
                    frames.emit(stateSnapshot(lastValues));
                }
            }
            case GraphEvent.Custom c -> custom(c);
            case GraphEvent.Interrupted i -> {
                stopTasks();
                for (Interrupt x : i.interrupts()) {
                    if (x.answerable()) { // a breakpoint asks nothing
                        interrupts.add(interrupt(x));
                    }
                }
            }
            case GraphEvent.RunFailed f -> stopTasks();
            case GraphEvent.RunStarted r -> {
            }
            case GraphEvent.ChildStarted c -> {
            }
            case GraphEvent.RunFinished f -> {
                // the run's end comes with its recorded end (Ended)
            }
        }
    }

    // ---- the run's end

    private void end(RunStatus status, String error) {
        stopTasks();
        switch (status) {
            case SUCCESS -> finish(outcome("success"));
            case ERROR, TIMEOUT -> {
                closeAll();
                ended = true;
                frames.emit(runError("run_failed", error == null ? "the run failed" : error));
            }
            default -> {
                if (interrupts.isEmpty()) {
                    finish(outcome("cancelled"));
                } else {
                    ObjectNode o = outcome("interrupt");
                    o.putArray("interrupts").addAll(interrupts);
                    finish(o);
                }
            }
        }
    }

    /** A run that ended before it began: one RUN_ERROR, saying why. */
    private void stopped(String why) {
        ended = true;
        frames.emit(runError("run_stopped", why));
    }

    private void finish(ObjectNode outcome) {
        closeAll();
        if (lastValues != null) {
            ObjectNode m = event("MESSAGES_SNAPSHOT");
            m.set("messages", AgUiMessages.of(lastValues.path("messages")));
            frames.emit(m);
            frames.emit(stateSnapshot(lastValues));
        }
        ObjectNode f = event(AgUiFrames.RUN_FINISHED).put("threadId", threadId).put("runId", runId);
        f.set("outcome", outcome);
        ended = true;
        frames.emit(f);
    }

    /** Closes every open block and step, so that the run's last event finds nothing open. */
    private void closeAll() {
        blocks.forEachOpen((ns, block) -> {
            if (block != null) {
                messages.close(block);
            }
        });
        for (String node : new ArrayList<>(steps.sequencedKeySet().reversed())) {
            frames.emit(event("STEP_FINISHED").put("stepName", node));
        }
        steps.clear();
        stepOfNamespace.clear();
    }

    // ---- tasks: steps

    private void taskStarted(GraphEvent.Tag tag, String taskId) {
        String ns = task(tag);
        openTasks.put(taskId, ns);
        String node = tag.node() != null && tag.taskId() != null ? tag.node() : graphName;
        stepOfNamespace.put(ns, node);
        if (steps.merge(node, 1, Integer::sum) == 1) {
            frames.emit(event("STEP_STARTED").put("stepName", node));
        }
    }

    private void taskFinished(GraphEvent.Tag tag, String taskId, Update update) {
        String ns = task(tag);
        blocks.taskFinished(ns, update);
        toolResults(update);
        openTasks.remove(taskId);
        taskEnded(ns);
    }

    /** The running tasks stop, last first (a failure, an interrupt, the run's end): their messages close unfinished. */
    private void stopTasks() {
        for (String ns : new ArrayList<>(openTasks.sequencedValues().reversed())) {
            blocks.taskStopped(ns, "the task stopped");
            taskEnded(ns);
        }
        openTasks.clear();
    }

    private void taskEnded(String ns) {
        String node = stepOfNamespace.remove(ns);
        if (node != null && steps.computeIfPresent(node, (k, n) -> n == 1 ? null : n - 1) == null) {
            frames.emit(event("STEP_FINISHED").put("stepName", node));
        }
    }

    /** The namespace of the task an event happened in, named as the protocol names it; its graph's outside a task. */
    private String task(GraphEvent.Tag tag) {
        if (tag.node() == null || tag.taskId() == null) {
            return tag.ns();
        }
        return taskNamespaces.computeIfAbsent(tag.taskId(),
                id -> tag.ns().isEmpty() ? tag.node() + ":" + id : tag.ns() + "|" + tag.node() + ":" + id);
    }

    // ---- tools, interrupts, state

    /**
     * A task's update: each tool message it adds to {@code messages} answering a call this run streamed is that call's
     * result, under the tool message's own id (so that MESSAGES_SNAPSHOT finds it where the client put it).
     */
    private void toolResults(Update update) {
        for (Update.Write w : update.writes()) {
            if (w.value() instanceof ToolMessage m && m.toolCallId() != null && messages.streamed(m.toolCallId())
                    && "messages".equals(w.channel().name()) && w.channel().storesWrites()) {
                frames.emit(event("TOOL_CALL_RESULT").put("messageId", String.valueOf(m.id())).put("toolCallId", m.toolCallId())
                        .put("content", m.content() == null ? "" : m.content()).put("role", "tool"));
            }
        }
    }

    private static ObjectNode interrupt(Interrupt x) {
        JsonNode payload = WireState.protocolValue(x.value());
        ObjectNode i = JsonCodec.MAPPER.createObjectNode().put("id", String.valueOf(x.id())).put("reason", "input_required");
        if (payload.isTextual()) {
            i.put("message", payload.asText());
        } else if (payload.path("question").isTextual()) {
            i.put("message", payload.get("question").asText());
        }
        if (!payload.isNull()) {
            i.putObject("metadata").set("payload", payload);
        }
        return i;
    }

    private void custom(GraphEvent.Custom c) {
        ObjectNode e = event("CUSTOM").put("name", c.name() == null || c.name().isEmpty() ? "custom" : c.name());
        e.set("value", WireState.protocolValue(c.payload()));
        frames.emit(e);
    }

    private static ObjectNode stateSnapshot(ObjectNode values) {
        ObjectNode snapshot = JsonCodec.MAPPER.createObjectNode().setAll(values);
        snapshot.remove("messages"); // MESSAGES_SNAPSHOT carries them
        ObjectNode s = event("STATE_SNAPSHOT");
        s.set("snapshot", snapshot);
        return s;
    }

    private static ObjectNode outcome(String type) {
        return JsonCodec.MAPPER.createObjectNode().put("type", type);
    }

    /** A RUN_ERROR, for what the transports say themselves (a run that cannot start, a slow consumer). */
    static ObjectNode runError(String code, String message) {
        return AgUiFrames.runError(code, message);
    }
}
