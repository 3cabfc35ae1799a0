package io.conduit.runs;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ToolCall;
import io.conduit.graph.GraphEvent;
import io.conduit.graph.Interrupt;
import io.conduit.graph.Update;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A run's events as LangGraph's thread protocol sends them ("protocol v2", ../shared/design/thread-protocol.md §5),
 * written to the thread's protocol log. Fed the same engine events as {@link LangGraphEvents}, for every run whichever
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
 * Each event's JSON is built once, by hand, into a reused builder (the token path makes no tree); {@link #emit} is
 * the one place events are made. Calls are serialized: the engine's events and the executor's end may come from
 * different threads.
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

    private static final String CHAT_MODEL = "chat_model";
    private static final String TOOL = "tool";
    private static final int TEXT_BLOCK = 0;
    private static final int REASONING_BLOCK = 1;
    private static final int TOOL_BLOCK = 2;

    /** A namespace: its log key ({@code a:1|b:2}), its JSON array, and for a task's, the node and the message open in it. */
    private static final class Namespace {
        final String key;
        final String json;
        final String node;
        Message open;

        Namespace(String key, String json, String node) {
            this.key = key;
            this.json = json;
            this.node = node;
        }
    }

    /** A message being streamed: its blocks so far, the open one, and the tool calls already finished. */
    private static final class Message {
        final String id;
        int blocks;
        Block block;
        boolean toolCalls;
        Set<Integer> finishedCalls;

        Message(String id) {
            this.id = id;
        }
    }

    private static final class Block {
        final int index;
        final int kind;
        final int call;
        final String callId;
        final String name;
        /** Names the block's deltas, which a slow subscriber's outbox may merge. */
        final String key;
        final StringBuilder text = new StringBuilder();

        Block(String messageId, int index, int kind, int call, String callId, String name) {
            this.key = messageId + '#' + index;
            this.index = index;
            this.kind = kind;
            this.call = call;
            this.callId = callId;
            this.name = name;
        }
    }

    private final Consumer<RunEvent> out;
    private final String runId;
    private final String graphName;
    private final EventSeq seq;
    /** When the entry being translated was logged: its events' timestamp. */
    private long now;
    private final Map<String, Namespace> graphs = new HashMap<>();
    private final Map<String, Namespace> tasks = new HashMap<>();
    private final LinkedHashMap<String, Namespace> openTasks = new LinkedHashMap<>();
    private final Map<String, String> lastCheckpoint = new HashMap<>();
    private final Set<String> streamed = new HashSet<>();
    private final Map<String, String> toolCallOfChild = new HashMap<>();
    private final Map<String, String> customMethods = new HashMap<>();
    private final StringBuilder data = new StringBuilder(256);
    private final StringBuilder event = new StringBuilder(512);
    private boolean ended;

    ProtocolEvents(Consumer<RunEvent> out, RunNotice.Began began) {
        this.out = out;
        this.runId = began.run().runId();
        this.graphName = began.graphId();
        this.seq = new EventSeq(began.firstSeq());
    }

    @Override
    public void on(Object entry, long atMillis) {
        now = atMillis;
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
        StringBuilder d = data().append("{\"event\":\"running\",\"graph_name\":");
        ProtocolJson.quote(d, graphName).append('}');
        emit(LIFECYCLE, graph(""), null, d);
    }

    /** The run resumes these interrupts (a {@code Command(resume)}): {@code input.answered}. */
    private void answered(List<String> interruptIds) {
        if (ended || interruptIds.isEmpty()) {
            return;
        }
        StringBuilder d = data().append("{\"interrupt_ids\":[");
        for (int i = 0; i < interruptIds.size(); i++) {
            ProtocolJson.quote(i == 0 ? d : d.append(','), interruptIds.get(i));
        }
        emit(INPUT_ANSWERED, graph(""), null, d.append("]}"));
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
        StringBuilder d = data().append("{\"event\":\"").append(outcome).append("\",\"graph_name\":");
        ProtocolJson.quote(d, graphName);
        if ("failed".equals(outcome)) {
            ProtocolJson.quote(d.append(",\"error\":"), error == null ? "the run failed" : error);
        }
        emit(LIFECYCLE, graph(""), null, d.append('}'));
        ended = true;
    }

    private void on(GraphEvent e) {
        if (ended) {
            return;
        }
        GraphEvent.Tag tag = e.tag();
        switch (e) {
            case GraphEvent.Token t -> text(task(tag), t.messageId(), TEXT_BLOCK, t.text());
            case GraphEvent.Reasoning r -> text(task(tag), r.messageId(), REASONING_BLOCK, r.text());
            case GraphEvent.ToolCallChunk c -> toolCallChunk(task(tag), c);
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
        Namespace ns = task(tag);
        openTasks.put(taskId, ns);
        StringBuilder d = data().append("{\"id\":");
        ProtocolJson.quote(d, taskId).append(",\"name\":");
        ProtocolJson.quote(d, tag.node()).append(",\"input\":null,\"triggers\":[");
        ProtocolJson.quote(d, "branch:to:" + tag.node()).append("]}");
        emit(TASKS, graph(tag.ns()), null, d);
        lifecycle(ns, "started", null);
    }

    private void taskFinished(GraphEvent.Tag tag, String taskId, Update update) {
        Namespace ns = task(tag);
        if (ns.open != null) {
            finishMessage(ns, null);
        }
        for (Update.Write w : update.writes()) {
            if (w.value() instanceof AssistantMessage m && !streamed.contains(m.id())) {
                whole(ns, m);
            }
        }
        String values = WireState.update(update, ProtocolJson::message).toString();
        emit(UPDATES, graph(tag.ns()), tag.node(), data().append(values));
        StringBuilder d = data().append("{\"id\":");
        ProtocolJson.quote(d, taskId).append(",\"name\":");
        ProtocolJson.quote(d, tag.node()).append(",\"error\":null,\"result\":").append(values).append(",\"interrupts\":[]}");
        emit(TASKS, graph(tag.ns()), null, d);
        openTasks.remove(taskId);
        lifecycle(ns, "completed", null);
    }

    private void closeTask(Namespace ns, String how, String error) {
        if (ns.open != null) {
            messageError(ns, error == null ? "the message was not finished" : error);
        }
        lifecycle(ns, how, error);
    }

    private void lifecycle(Namespace ns, String how, String error) {
        StringBuilder d = data().append("{\"event\":\"").append(how).append("\",\"graph_name\":");
        ProtocolJson.quote(d, ns.node);
        if (error != null) {
            ProtocolJson.quote(d.append(",\"error\":"), error);
        }
        emit(LIFECYCLE, ns, null, d.append('}'));
    }

    // ---- state

    private void values(GraphEvent.Tag tag, GraphEvent.Values v) {
        Namespace ns = graph(tag.ns());
        String parent = lastCheckpoint.put(tag.ns(), v.checkpointId());
        StringBuilder d = data().append("{\"id\":");
        ProtocolJson.quote(d, v.checkpointId()).append(",\"parent_id\":");
        ProtocolJson.quote(d, parent).append(",\"step\":").append(tag.step()).append(",\"source\":\"loop\"}");
        emit(CHECKPOINTS, ns, null, d);
        emit(VALUES, ns, null, data().append(WireState.values(v.state(), ProtocolJson::message).toString()));
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
            StringBuilder d = data().append("{\"interrupt_id\":");
            ProtocolJson.quote(d, x.id()).append(",\"payload\":").append(ProtocolJson.write(x.value())).append('}');
            emit(INPUT_REQUESTED, graph(tag.ns()), null, d);
        }
    }

    // ---- work inside nodes

    private void childStarted(GraphEvent.Tag tag, GraphEvent.ChildStarted c) {
        if (!TOOL.equals(c.kind())) {
            return; // a model call shows as its message, from its first chunk
        }
        String callId = c.callId() != null ? c.callId() : c.childId();
        toolCallOfChild.put(c.childId(), callId);
        StringBuilder d = data().append("{\"event\":\"tool-started\",\"tool_call_id\":");
        ProtocolJson.quote(d, callId).append(",\"tool_name\":");
        ProtocolJson.quote(d, c.name()).append(",\"input\":").append(ProtocolJson.write(c.input())).append('}');
        emit(TOOLS, task(tag), tag.node(), d);
    }

    private void childEnded(GraphEvent.Tag tag, GraphEvent.ChildEnded c) {
        Namespace ns = task(tag);
        if (CHAT_MODEL.equals(c.kind())) {
            if (ns.open == null) {
                return;
            }
            if (c.error() != null) {
                messageError(ns, c.error());
            } else {
                finishMessage(ns, c.output() instanceof AssistantMessage m && m.id().equals(ns.open.id) ? m : null);
            }
            return;
        }
        if (!TOOL.equals(c.kind())) {
            return;
        }
        String callId = toolCallOfChild.remove(c.childId());
        StringBuilder d = data();
        if (c.error() == null) {
            d.append("{\"event\":\"tool-finished\",\"tool_call_id\":");
            ProtocolJson.quote(d, callId != null ? callId : c.childId()).append(",\"output\":").append(ProtocolJson.write(c.output()));
        } else {
            d.append("{\"event\":\"tool-error\",\"tool_call_id\":");
            ProtocolJson.quote(d, callId != null ? callId : c.childId()).append(",\"message\":");
            ProtocolJson.quote(d, c.error());
        }
        emit(TOOLS, ns, tag.node(), d.append('}'));
    }

    private void custom(GraphEvent.Tag tag, GraphEvent.Custom c) {
        String name = c.name() == null || c.name().isEmpty() ? null : c.name();
        String method = name == null ? CUSTOM : customMethods.computeIfAbsent(name, n -> CUSTOM + ":" + n);
        StringBuilder d = data().append('{');
        if (name != null) {
            ProtocolJson.quote(d.append("\"name\":"), name).append(',');
        }
        d.append("\"payload\":").append(ProtocolJson.write(c.payload())).append('}');
        emit(method, graph(tag.ns()), tag.node(), d);
    }

    // ---- messages

    private void text(Namespace ns, String messageId, int kind, String text) {
        Message m = message(ns, messageId);
        Block b = block(ns, m, kind, -1, null, null);
        b.text.append(text);
        StringBuilder d = data().append("{\"event\":\"content-block-delta\",\"index\":").append(b.index)
                .append(kind == TEXT_BLOCK ? ",\"delta\":{\"type\":\"text-delta\",\"text\":" : ",\"delta\":{\"type\":\"reasoning-delta\",\"reasoning\":");
        emitDelta(ns, b, d, text);
    }

    private void toolCallChunk(Namespace ns, GraphEvent.ToolCallChunk c) {
        Message m = message(ns, c.messageId());
        m.toolCalls = true;
        if (m.finishedCalls != null && m.finishedCalls.contains(c.index())) {
            return; // the rest of a call whose block another call's closed: the message in state has it whole
        }
        Block b = block(ns, m, TOOL_BLOCK, c.index(), c.callId(), c.name());
        String args = c.argsDelta();
        if (args == null || args.isEmpty()) {
            return;
        }
        b.text.append(args);
        StringBuilder d = data().append("{\"event\":\"content-block-delta\",\"index\":").append(b.index)
                .append(",\"delta\":{\"type\":\"tool-call-delta\",\"args\":");
        emitDelta(ns, b, d, args);
    }

    /** The message open in the namespace, started if it is another one (the one open before finishes first). */
    private Message message(Namespace ns, String id) {
        Message m = ns.open;
        if (m != null && m.id.equals(id)) {
            return m;
        }
        if (m != null) {
            finishMessage(ns, null);
        }
        m = new Message(id);
        ns.open = m;
        streamed.add(id);
        StringBuilder d = data().append("{\"event\":\"message-start\",\"role\":\"ai\",\"id\":");
        ProtocolJson.quote(d, id);
        emit(MESSAGES, ns, null, d.append('}'));
        return m;
    }

    /** The message's open block if it is this one, else a new one (the open one finishes first: blocks never interleave). */
    private Block block(Namespace ns, Message m, int kind, int call, String callId, String name) {
        Block b = m.block;
        if (b != null && b.kind == kind && b.call == call) {
            return b;
        }
        if (b != null) {
            finishBlock(ns, m, null);
        }
        b = new Block(m.id, m.blocks++, kind, call, callId, name);
        m.block = b;
        StringBuilder d = data().append("{\"event\":\"content-block-start\",\"index\":").append(b.index).append(",\"content\":");
        switch (kind) {
            case TEXT_BLOCK -> d.append("{\"type\":\"text\",\"text\":\"\"}");
            case REASONING_BLOCK -> d.append("{\"type\":\"reasoning\",\"reasoning\":\"\"}");
            default -> {
                ProtocolJson.quote(d.append("{\"type\":\"tool_call_chunk\",\"id\":"), callId).append(",\"name\":");
                ProtocolJson.quote(d, name).append(",\"args\":\"\"}");
            }
        }
        emit(MESSAGES, ns, null, d.append('}'));
        return b;
    }

    /** Finishes the open block; a tool call's arguments are the final message's when it is known, else what streamed. */
    private void finishBlock(Namespace ns, Message m, AssistantMessage done) {
        Block b = m.block;
        m.block = null;
        StringBuilder d = data().append("{\"event\":\"content-block-finish\",\"index\":").append(b.index).append(",\"content\":");
        switch (b.kind) {
            case TEXT_BLOCK -> ProtocolJson.quote(d.append("{\"type\":\"text\",\"text\":"), b.text.toString());
            case REASONING_BLOCK -> ProtocolJson.quote(d.append("{\"type\":\"reasoning\",\"reasoning\":"), b.text.toString());
            default -> {
                if (m.finishedCalls == null) {
                    m.finishedCalls = new HashSet<>();
                }
                m.finishedCalls.add(b.call);
                String id = b.callId;
                String name = b.name;
                String argsText = b.text.toString();
                ToolCall whole = done != null && b.call < done.toolCalls().size() ? done.toolCalls().get(b.call) : null;
                if (whole != null) {
                    id = whole.id();
                    name = whole.name();
                    argsText = whole.arguments();
                }
                JsonNode args = ProtocolJson.args(argsText);
                if (args != null) {
                    ProtocolJson.quote(d.append("{\"type\":\"tool_call\",\"id\":"), id).append(",\"name\":");
                    ProtocolJson.quote(d, name).append(",\"args\":").append(args.toString());
                } else {
                    ProtocolJson.quote(d.append("{\"type\":\"invalid_tool_call\",\"id\":"), id).append(",\"name\":");
                    ProtocolJson.quote(d, name).append(",\"args\":");
                    ProtocolJson.quote(d, argsText).append(",\"error\":\"the arguments are not JSON\"");
                }
            }
        }
        emit(MESSAGES, ns, null, d.append("}}"));
    }

    private void finishMessage(Namespace ns, AssistantMessage done) {
        Message m = ns.open;
        if (m.block != null) {
            finishBlock(ns, m, done);
        }
        ns.open = null;
        boolean calls = done != null ? done.hasToolCalls() : m.toolCalls;
        StringBuilder d = data().append("{\"event\":\"message-finish\",\"reason\":\"").append(calls ? "tool_calls" : "stop").append('"');
        emit(MESSAGES, ns, null, UsageJson.append(d, "usage", done == null ? null : done.usage()).append('}'));
    }

    private void messageError(Namespace ns, String message) {
        ns.open = null;
        StringBuilder d = data().append("{\"event\":\"error\",\"message\":");
        ProtocolJson.quote(d, message);
        emit(MESSAGES, ns, null, d.append('}'));
    }

    /** An AI message written without being streamed (a refusal, a scripted answer): all of it at once. */
    private void whole(Namespace ns, AssistantMessage m) {
        if (m.content() != null && !m.content().isEmpty()) {
            text(ns, m.id(), TEXT_BLOCK, m.content());
        }
        for (int i = 0; i < m.toolCalls().size(); i++) {
            ToolCall c = m.toolCalls().get(i);
            toolCallChunk(ns, new GraphEvent.ToolCallChunk(null, m.id(), i, c.id(), c.name(), c.arguments()));
        }
        if (ns.open == null || !ns.open.id.equals(m.id())) {
            message(ns, m.id()); // nothing to show: still a message, so clients learn its id
        }
        finishMessage(ns, m);
    }

    // ---- namespaces

    /** The namespace of a graph (the root, or a subgraph's {@code node:task|...}). */
    private Namespace graph(String key) {
        Namespace ns = graphs.get(key);
        if (ns == null) {
            StringBuilder json = new StringBuilder("[");
            if (!key.isEmpty()) {
                String[] segments = key.split("\\|");
                for (int i = 0; i < segments.length; i++) {
                    ProtocolJson.quote(i == 0 ? json : json.append(','), segments[i]);
                }
            }
            ns = new Namespace(key, json.append(']').toString(), graphName);
            graphs.put(key, ns);
        }
        return ns;
    }

    /** The namespace of the task an event happened in ({@code <node>:<task id>} below its graph's). */
    private Namespace task(GraphEvent.Tag tag) {
        if (tag.node() == null || tag.taskId() == null) {
            return graph(tag.ns());
        }
        Namespace ns = tasks.get(tag.taskId());
        if (ns == null) {
            String segment = tag.node() + ":" + tag.taskId();
            Namespace parent = graph(tag.ns());
            String json = parent.json.length() == 2 ? "[" + ProtocolJson.quote(new StringBuilder(), segment) + "]"
                    : parent.json.substring(0, parent.json.length() - 1) + "," + ProtocolJson.quote(new StringBuilder(), segment) + "]";
            ns = new Namespace(tag.ns().isEmpty() ? segment : tag.ns() + "|" + segment, json, tag.node());
            tasks.put(tag.taskId(), ns);
        }
        return ns;
    }

    // ---- the one place events are made

    private StringBuilder data() {
        data.setLength(0);
        return data;
    }

    /**
     * Writes one event: its whole wire JSON, its seq (also its {@code event_id}) from the run's counter shared with the
     * classic events, its method as the log's mode and its namespace as the log's ns.
     */
    private void emit(String method, Namespace ns, String node, CharSequence payload) {
        emit(method, ns, node, payload, null, 0, 0);
    }

    /**
     * A block's delta: {@code head} ends where the delta's JSON string starts. The event carries where the string's
     * body lies ({@link TextDelta}), so that a slow subscriber's consecutive deltas of one block can be merged.
     */
    private void emitDelta(Namespace ns, Block b, StringBuilder head, String text) {
        int start = head.length() + 1;
        ProtocolJson.quote(head, text);
        int end = head.length() - 1;
        emit(MESSAGES, ns, null, head.append("}}"), b.key, start, end);
    }

    /** {@code key}, {@code start}, {@code end}: the text delta within {@code payload}, when {@code key} is not null. */
    private void emit(String method, Namespace ns, String node, CharSequence payload, String key, int start, int end) {
        long s = seq.next();
        StringBuilder b = event;
        b.setLength(0);
        b.append("{\"type\":\"event\",\"event_id\":\"").append(s).append("\",\"seq\":").append(s).append(",\"method\":");
        ProtocolJson.quote(b, method).append(",\"params\":{\"namespace\":").append(ns.json).append(",\"timestamp\":").append(now);
        if (node != null) {
            ProtocolJson.quote(b.append(",\"node\":"), node);
        }
        b.append(",\"data\":");
        int at = b.length();
        b.append(payload).append("}}");
        out.accept(new RunEvent(s, runId, method, ns.key, b.toString(), key == null ? null : new TextDelta(key, at + start, at + end)));
    }
}
