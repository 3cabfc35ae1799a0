package io.conduit.stream;

import io.conduit.graph.GraphEvent;
import io.conduit.graph.Interrupt;
import io.conduit.graph.Update;
import io.conduit.runs.RunStatus;
import io.conduit.runs.events.MessageBlocks;
import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.RunNotice;
import io.conduit.runs.events.RunTranslator;
import io.conduit.runs.events.WrittenOnce;
import io.conduit.runs.wire.ProtocolJson;
import io.conduit.runs.wire.WireState;
import io.conduit.stream.ProtocolFrames.Namespace;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A run's events as LangGraph's thread protocol sends them ("protocol v2", ../shared/design/thread-protocol.md §5),
 * written to the thread's protocol log. Fed the same engine events as the classic stream's translator ({@code api.LangGraphEvents}), for every run whichever
 * API started it, plus the run's start ({@link #running}), a resume's answers ({@link #answered}) and its recorded end
 * ({@link #end}). What a client can rely on:
 * <ul>
 * <li>the root {@code lifecycle} {@code running} first, and exactly one root terminal ({@code completed},
 * {@code interrupted}, {@code failed}) last: nothing is written after it;</li>
 * <li>each task in its own namespace {@code <node>:<task id>}, {@code started} then {@code completed},
 * {@code interrupted} or {@code failed};</li>
 * <li>messages as {@code message-start} (its id the AI message's id in state), content blocks that never interleave
 * (text, reasoning, tool-call chunks with argument deltas), {@code message-finish}; an AI message that was written
 * without streaming comes whole at its task's end;</li>
 * <li>{@code input.requested} for each interrupt before the root {@code interrupted}.</li>
 * </ul>
 * The messages' state is {@link MessageBlocks}'s, shared with the formats that read the same shape, and
 * {@link ProtocolMessages} writes their events; {@link ProtocolFrames} is where every event is made. Calls are
 * serialized: the engine's events and the executor's end may come from different threads.
 */
final class ProtocolEvents implements RunTranslator {

    static final String LIFECYCLE = "lifecycle";
    static final String MESSAGES = "messages";
    static final String VALUES = "values";
    static final String UPDATES = "updates";
    static final String TOOLS = "tools";
    static final String CHECKPOINTS = "checkpoints";
    static final String TASKS = "tasks";
    static final String CUSTOM = "custom";
    static final String INPUT_REQUESTED = "input.requested";
    static final String INPUT_ANSWERED = "input.answered";

    private static final String TOOL = "tool";

    private final ProtocolFrames frames;
    private final String graphName;
    private final LinkedHashMap<String, Namespace> openTasks = new LinkedHashMap<>();
    private final Map<String, String> lastCheckpoint = new HashMap<>();
    private final MessageBlocks<Namespace> blocks;
    private final Map<String, String> toolCallOfChild = new HashMap<>();
    private final Map<String, String> customMethods = new HashMap<>();
    private boolean ended;

    ProtocolEvents(Consumer<RunEvent> out, RunNotice.Began began) {
        this.frames = new ProtocolFrames(out, began);
        this.graphName = began.graphId();
        this.blocks = new MessageBlocks<>(new ProtocolMessages(frames));
    }

    @Override
    public void on(Object entry, long atMillis) {
        frames.at(atMillis);
        switch (entry) {
            case GraphEvent e -> on(e);
            case RunNotice.Began b -> {
                if (b.executed()) {
                    running();
                } else {
                    ended = true; // it ended before it began: the protocol says nothing of it
                }
            }
            case RunNotice.Answered a -> answered(a.interruptIds());
            case RunNotice.Ended end -> end(end.status(), end.error());
            case RunNotice.Said said -> {
                // said by the root terminal's error (Ended)
            }
            default -> throw new IllegalArgumentException("not a log entry: " + entry);
        }
    }

    /** The run started: the root {@code running}, its first event. */
    private void running() {
        if (ended) {
            return;
        }
        StringBuilder d = frames.data().append("{\"event\":\"running\",\"graph_name\":");
        ProtocolJson.quote(d, graphName).append('}');
        frames.emit(LIFECYCLE, frames.graph(""), null, d);
    }

    /** The run resumes these interrupts (a {@code Command(resume)}): {@code input.answered}. */
    private void answered(List<String> interruptIds) {
        if (ended || interruptIds.isEmpty()) {
            return;
        }
        StringBuilder d = frames.data().append("{\"interrupt_ids\":[");
        for (int i = 0; i < interruptIds.size(); i++) {
            ProtocolJson.quote(i == 0 ? d : d.append(','), interruptIds.get(i));
        }
        frames.emit(INPUT_ANSWERED, frames.graph(""), null, d.append("]}"));
    }

    /**
     * The run ended as recorded: open tasks fail (a cancel or a timeout stopped them), then the root terminal event,
     * the run's last. {@code error} is said with {@code failed}.
     */
    private void end(RunStatus status, String error) {
        if (ended) {
            return;
        }
        for (Namespace ns : new ArrayList<>(openTasks.sequencedValues().reversed())) {
            closeTask(ns, "failed", status == RunStatus.TIMEOUT || status == RunStatus.ERROR ? error : "the run was stopped");
        }
        openTasks.clear();
        String outcome = switch (status) {
            case SUCCESS -> "completed";
            case ERROR, TIMEOUT -> "failed";
            default -> "interrupted";
        };
        StringBuilder d = frames.data().append("{\"event\":\"").append(outcome).append("\",\"graph_name\":");
        ProtocolJson.quote(d, graphName);
        if ("failed".equals(outcome)) {
            ProtocolJson.quote(d.append(",\"error\":"), error == null ? "the run failed" : error);
        }
        frames.emit(LIFECYCLE, frames.graph(""), null, d.append('}'));
        ended = true;
    }

    private void on(GraphEvent e) {
        if (ended) {
            return;
        }
        GraphEvent.Tag tag = e.tag();
        switch (e) {
            case GraphEvent.Token t -> blocks.text(frames.task(tag), t.messageId(), t.text());
            case GraphEvent.Reasoning r -> blocks.reasoning(frames.task(tag), r.messageId(), r.text());
            case GraphEvent.ToolCallChunk c -> blocks.toolCallChunk(frames.task(tag), c);
            case GraphEvent.TaskStarted t -> taskStarted(tag, t.taskId());
            case GraphEvent.TaskFinished t -> taskFinished(tag, t.taskId(), t.update());
            case GraphEvent.Values v -> values(tag, v);
            case GraphEvent.RunStarted r -> lastCheckpoint.put(tag.ns(), r.checkpointId());
            case GraphEvent.ChildStarted c -> childStarted(tag, c);
            case GraphEvent.ChildEnded c -> childEnded(tag, c);
            case GraphEvent.Custom c -> custom(tag, c);
            case GraphEvent.Interrupted i -> interrupted(tag, i);
            case GraphEvent.RunFailed f -> {
                for (Namespace ns : new ArrayList<>(openTasks.sequencedValues().reversed())) {
                    closeTask(ns, "failed", f.message());
                }
                openTasks.clear();
            }
            case GraphEvent.RunFinished f -> {
                // nothing of its own: the root terminal event comes with the run's recorded end
            }
        }
    }

    // ---- tasks

    private void taskStarted(GraphEvent.Tag tag, String taskId) {
        Namespace ns = frames.task(tag);
        openTasks.put(taskId, ns);
        StringBuilder d = frames.data().append("{\"id\":");
        ProtocolJson.quote(d, taskId).append(",\"name\":");
        ProtocolJson.quote(d, tag.node()).append(",\"input\":null,\"triggers\":[");
        ProtocolJson.quote(d, "branch:to:" + tag.node()).append("]}");
        frames.emit(TASKS, frames.graph(tag.ns()), null, d);
        lifecycle(ns, "started", null);
    }

    private void taskFinished(GraphEvent.Tag tag, String taskId, Update update) {
        Namespace ns = frames.task(tag);
        blocks.taskFinished(ns, update);
        // written once if either event is read (an update's values are immutable, as the state's are)
        Supplier<String> values = new WrittenOnce(() -> WireState.updateJson(update, ProtocolJson::message));
        frames.emitLater(UPDATES, frames.graph(tag.ns()), tag.node(), values);
        frames.emitLater(TASKS, frames.graph(tag.ns()), null, () -> {
            StringBuilder d = new StringBuilder(128).append("{\"id\":");
            ProtocolJson.quote(d, taskId).append(",\"name\":");
            ProtocolJson.quote(d, tag.node()).append(",\"error\":null,\"result\":").append(values.get()).append(",\"interrupts\":[]}");
            return d.toString();
        });
        openTasks.remove(taskId);
        lifecycle(ns, "completed", null);
    }

    private void closeTask(Namespace ns, String how, String error) {
        blocks.taskStopped(ns, error == null ? "the message was not finished" : error);
        lifecycle(ns, how, error);
    }

    private void lifecycle(Namespace ns, String how, String error) {
        StringBuilder d = frames.data().append("{\"event\":\"").append(how).append("\",\"graph_name\":");
        ProtocolJson.quote(d, ns.node);
        if (error != null) {
            ProtocolJson.quote(d.append(",\"error\":"), error);
        }
        frames.emit(LIFECYCLE, ns, null, d.append('}'));
    }

    // ---- state

    private void values(GraphEvent.Tag tag, GraphEvent.Values v) {
        Namespace ns = frames.graph(tag.ns());
        String parent = lastCheckpoint.put(tag.ns(), v.checkpointId());
        // the state a resumed run starts from is a checkpoint told already (by RunStarted): its values, no checkpoint
        if (!v.start()) {
            StringBuilder d = frames.data().append("{\"id\":");
            ProtocolJson.quote(d, v.checkpointId()).append(",\"parent_id\":");
            ProtocolJson.quote(d, parent).append(",\"step\":").append(tag.step()).append(",\"source\":\"loop\"}");
            frames.emit(CHECKPOINTS, ns, null, d);
        }
        frames.emitLater(VALUES, ns, null, () -> WireState.valuesJson(v.state(), ProtocolJson::message));
    }

    private void interrupted(GraphEvent.Tag tag, GraphEvent.Interrupted i) {
        for (Namespace ns : new ArrayList<>(openTasks.sequencedValues().reversed())) {
            closeTask(ns, "interrupted", null);
        }
        openTasks.clear();
        for (Interrupt x : i.interrupts()) {
            if (!x.answerable()) {
                continue; // a breakpoint asks nothing: the run is continued, not answered
            }
            StringBuilder d = frames.data().append("{\"interrupt_id\":");
            ProtocolJson.quote(d, x.id()).append(",\"payload\":").append(ProtocolJson.write(x.value())).append('}');
            frames.emit(INPUT_REQUESTED, frames.graph(tag.ns()), null, d);
        }
    }

    // ---- work inside nodes

    private void childStarted(GraphEvent.Tag tag, GraphEvent.ChildStarted c) {
        if (!TOOL.equals(c.kind())) {
            return; // a model call shows as its message, from its first chunk
        }
        String callId = c.callId() != null ? c.callId() : c.childId();
        toolCallOfChild.put(c.childId(), callId);
        StringBuilder d = frames.data().append("{\"event\":\"tool-started\",\"tool_call_id\":");
        ProtocolJson.quote(d, callId).append(",\"tool_name\":");
        ProtocolJson.quote(d, c.name()).append(",\"input\":").append(ProtocolJson.write(c.input())).append('}');
        frames.emit(TOOLS, frames.task(tag), tag.node(), d);
    }

    private void childEnded(GraphEvent.Tag tag, GraphEvent.ChildEnded c) {
        Namespace ns = frames.task(tag);
        if (MessageBlocks.modelCall(c.kind())) {
            blocks.modelEnded(ns, c);
            return;
        }
        if (!TOOL.equals(c.kind())) {
            return;
        }
        String callId = toolCallOfChild.remove(c.childId());
        StringBuilder d = frames.data();
        if (c.error() == null) {
            d.append("{\"event\":\"tool-finished\",\"tool_call_id\":");
            ProtocolJson.quote(d, callId != null ? callId : c.childId()).append(",\"output\":").append(ProtocolJson.write(c.output()));
        } else {
            d.append("{\"event\":\"tool-error\",\"tool_call_id\":");
            ProtocolJson.quote(d, callId != null ? callId : c.childId()).append(",\"message\":");
            ProtocolJson.quote(d, c.error());
        }
        frames.emit(TOOLS, ns, tag.node(), d.append('}'));
    }

    private void custom(GraphEvent.Tag tag, GraphEvent.Custom c) {
        String name = c.name() == null || c.name().isEmpty() ? null : c.name();
        String method = name == null ? CUSTOM : customMethods.computeIfAbsent(name, n -> CUSTOM + ":" + n);
        StringBuilder d = frames.data().append('{');
        if (name != null) {
            ProtocolJson.quote(d.append("\"name\":"), name).append(',');
        }
        d.append("\"payload\":").append(ProtocolJson.write(c.payload())).append('}');
        frames.emit(method, frames.graph(tag.ns()), tag.node(), d);
    }
}
