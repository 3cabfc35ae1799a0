package io.conduit.agui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.checkpoint.JsonCodec;
import io.conduit.runs.ProtocolRunFollower;
import io.conduit.runs.RunEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One run's events in AG-UI, translated from the thread protocol's log ({@code ProtocolEvents}: lifecycle, messages
 * content blocks, updates, values, custom, input.requested), in order, one protocol event at a time:
 * <ul>
 * <li>root {@code running} → RUN_STARTED; a task's {@code started}/{@code completed}|{@code failed}|{@code interrupted}
 * → STEP_STARTED/STEP_FINISHED named after its node (parallel tasks of one node share one step);</li>
 * <li>a message's text block → TEXT_MESSAGE_START/CONTENT/END, its reasoning block → REASONING_START,
 * REASONING_MESSAGE_START/CONTENT/END, REASONING_END, its tool-call block → TOOL_CALL_START/ARGS (the argument
 * deltas as streamed)/END; a task update's tool message answering one of those calls → TOOL_CALL_RESULT;</li>
 * <li>root values → STATE_SNAPSHOT (every channel but messages); custom events → CUSTOM;</li>
 * <li>the root terminal: whatever is still open is closed, then MESSAGES_SNAPSHOT and STATE_SNAPSHOT, then
 * RUN_FINISHED (outcome {@code interrupt} with the {@code input.requested} interrupts, or {@code cancelled} for a
 * stopped run) or RUN_ERROR for a failed one. Nothing follows it.</li>
 * </ul>
 * Optional fields are omitted, never null. Not thread-safe: fed by one drain.
 */
final class AgUiEvents {

    /** What is open in one namespace (a task's): the message and its block. */
    private static final class Open {
        String messageId;
        String kind;
        String toolCallId;
    }

    private final String threadId;
    private final String runId;
    private final Map<String, Open> open = new HashMap<>();
    /** Open steps by node name: how many of its tasks run. */
    private final LinkedHashMap<String, Integer> steps = new LinkedHashMap<>();
    private final Map<String, String> stepOfNamespace = new HashMap<>();
    private final List<ObjectNode> interrupts = new ArrayList<>();
    /** The tool calls this run streamed: their results are told. */
    private final Set<String> calls = new HashSet<>();
    private JsonNode lastValues;
    private boolean started;
    private boolean ended;

    AgUiEvents(String threadId, String runId) {
        this.threadId = threadId;
        this.runId = runId;
    }

    boolean ended() {
        return ended;
    }

    /** The AG-UI events one event of the run stands for (a protocol event, or {@link ProtocolRunFollower#STOPPED}). */
    List<ObjectNode> on(RunEvent e) {
        return ProtocolRunFollower.STOPPED.equals(e.mode()) ? endWithout(e.data()) : on(e.data());
    }

    /** {@link #on(RunEvent)} as SSE: one {@code data:} frame per AG-UI event, LF-framed. */
    String frames(RunEvent e) {
        StringBuilder b = new StringBuilder();
        for (ObjectNode event : on(e)) {
            b.append("data: ").append(event).append("\n\n");
        }
        return b.toString();
    }

    /** The AG-UI events one protocol event (its whole JSON) stands for; none after the run's end. */
    List<ObjectNode> on(String protocolEventJson) {
        List<ObjectNode> out = new ArrayList<>(2);
        if (ended) {
            return out;
        }
        JsonNode e;
        try {
            e = JsonCodec.MAPPER.readTree(protocolEventJson);
        } catch (Exception x) {
            return out;
        }
        if (!"event".equals(e.path("type").asText())) {
            return out; // a notice (a replay that lost events): the snapshots at the end carry the truth
        }
        String method = e.path("method").asText();
        JsonNode params = e.path("params");
        JsonNode data = params.path("data");
        String ns = namespace(params.path("namespace"));
        switch (method) {
            case "lifecycle" -> lifecycle(ns, data, out);
            case "messages" -> message(ns, data, out);
            case "updates" -> toolResults(data, out);
            case "values" -> {
                if (ns.isEmpty()) {
                    lastValues = data;
                    out.add(stateSnapshot(data));
                }
            }
            case "input.requested" -> interrupt(data);
            default -> {
                if (method.equals("custom") || method.startsWith("custom:")) {
                    ObjectNode c = event("CUSTOM").put("name", data.path("name").asText(method.equals("custom") ? "custom" : method.substring(7)));
                    c.set("value", data.has("payload") ? data.get("payload") : JsonCodec.MAPPER.nullNode());
                    out.add(c);
                }
            }
        }
        return out;
    }

    /** The run's end when the log had none (a run stopped before it started): RUN_ERROR, or nothing if it had one. */
    List<ObjectNode> endWithout(String message) {
        List<ObjectNode> out = new ArrayList<>();
        if (!ended) {
            ended = true;
            out.add(runError("run_stopped", message));
        }
        return out;
    }

    // ---- lifecycle: the run and its steps

    private void lifecycle(String ns, JsonNode data, List<ObjectNode> out) {
        String how = data.path("event").asText();
        if (ns.isEmpty()) {
            switch (how) {
                case "running" -> {
                    if (!started) {
                        started = true;
                        out.add(event("RUN_STARTED").put("threadId", threadId).put("runId", runId));
                    }
                }
                case "completed" -> finish(out, outcome("success"));
                case "interrupted" -> {
                    if (interrupts.isEmpty()) {
                        finish(out, outcome("cancelled"));
                    } else {
                        ObjectNode o = outcome("interrupt");
                        o.putArray("interrupts").addAll(interrupts);
                        finish(out, o);
                    }
                }
                case "failed" -> {
                    closeAll(out);
                    ended = true;
                    out.add(runError("run_failed", data.path("error").asText("the run failed")));
                }
                default -> {
                }
            }
            return;
        }
        if ("started".equals(how)) {
            String node = data.path("graph_name").asText();
            stepOfNamespace.put(ns, node);
            if (steps.merge(node, 1, Integer::sum) == 1) {
                out.add(event("STEP_STARTED").put("stepName", node));
            }
        } else if ("completed".equals(how) || "failed".equals(how) || "interrupted".equals(how)) {
            closeMessage(ns, out);
            String node = stepOfNamespace.remove(ns);
            if (node != null) {
                finishStep(node, out);
            }
        }
    }

    private void finishStep(String node, List<ObjectNode> out) {
        Integer left = steps.computeIfPresent(node, (k, n) -> n == 1 ? null : n - 1);
        if (left == null) {
            out.add(event("STEP_FINISHED").put("stepName", node));
        }
    }

    private void finish(List<ObjectNode> out, ObjectNode outcome) {
        closeAll(out);
        if (lastValues != null) {
            ObjectNode m = event("MESSAGES_SNAPSHOT");
            m.set("messages", AgUiMessages.of(lastValues.path("messages")));
            out.add(m);
            out.add(stateSnapshot(lastValues));
        }
        ObjectNode f = event("RUN_FINISHED").put("threadId", threadId).put("runId", runId);
        f.set("outcome", outcome);
        out.add(f);
        ended = true;
    }

    /** Closes every open message block and step, so that RUN_FINISHED finds nothing open. */
    private void closeAll(List<ObjectNode> out) {
        for (String ns : new ArrayList<>(open.keySet())) {
            closeMessage(ns, out);
        }
        for (String node : new ArrayList<>(steps.sequencedKeySet().reversed())) {
            out.add(event("STEP_FINISHED").put("stepName", node));
        }
        steps.clear();
        stepOfNamespace.clear();
    }

    // ---- messages

    private void message(String ns, JsonNode data, List<ObjectNode> out) {
        switch (data.path("event").asText()) {
            case "message-start" -> {
                closeMessage(ns, out);
                open.computeIfAbsent(ns, k -> new Open()).messageId = data.path("id").asText();
            }
            case "content-block-start" -> blockStart(ns, data.path("content"), out);
            case "content-block-delta" -> blockDelta(ns, data.path("delta"), out);
            case "content-block-finish" -> closeBlock(ns, out);
            case "message-finish", "error" -> closeMessage(ns, out);
            default -> {
            }
        }
    }

    private void blockStart(String ns, JsonNode content, List<ObjectNode> out) {
        Open o = open.get(ns);
        if (o == null) {
            return;
        }
        closeBlock(ns, out);
        String type = content.path("type").asText();
        switch (type) {
            case "text" -> out.add(event("TEXT_MESSAGE_START").put("messageId", o.messageId).put("role", "assistant"));
            case "reasoning" -> {
                out.add(event("REASONING_START").put("messageId", reasoningId(o)));
                out.add(event("REASONING_MESSAGE_START").put("messageId", reasoningId(o)).put("role", "reasoning"));
            }
            case "tool_call_chunk" -> {
                o.toolCallId = content.path("id").isTextual() ? content.get("id").asText() : o.messageId + "-call";
                calls.add(o.toolCallId);
                out.add(event("TOOL_CALL_START").put("toolCallId", o.toolCallId).put("toolCallName", content.path("name").asText("tool"))
                        .put("parentMessageId", o.messageId));
            }
            default -> {
                return;
            }
        }
        o.kind = type;
    }

    private void blockDelta(String ns, JsonNode delta, List<ObjectNode> out) {
        Open o = open.get(ns);
        if (o == null || o.kind == null) {
            return;
        }
        switch (o.kind) {
            case "text" -> out.add(event("TEXT_MESSAGE_CONTENT").put("messageId", o.messageId).put("delta", delta.path("text").asText()));
            case "reasoning" -> out.add(event("REASONING_MESSAGE_CONTENT").put("messageId", reasoningId(o)).put("delta", delta.path("reasoning").asText()));
            default -> out.add(event("TOOL_CALL_ARGS").put("toolCallId", o.toolCallId).put("delta", delta.path("args").asText()));
        }
    }

    private void closeBlock(String ns, List<ObjectNode> out) {
        Open o = open.get(ns);
        if (o == null || o.kind == null) {
            return;
        }
        switch (o.kind) {
            case "text" -> out.add(event("TEXT_MESSAGE_END").put("messageId", o.messageId));
            case "reasoning" -> {
                out.add(event("REASONING_MESSAGE_END").put("messageId", reasoningId(o)));
                out.add(event("REASONING_END").put("messageId", reasoningId(o)));
            }
            default -> out.add(event("TOOL_CALL_END").put("toolCallId", o.toolCallId));
        }
        o.kind = null;
        o.toolCallId = null;
    }

    private void closeMessage(String ns, List<ObjectNode> out) {
        closeBlock(ns, out);
        open.remove(ns);
    }

    /** A reasoning message's own id: the AI message's id is its text's. */
    private static String reasoningId(Open o) {
        return o.messageId + "-reasoning";
    }

    // ---- tools, interrupts, state

    /**
     * A task's update: each tool message it writes answering a call this run streamed is that call's result, under
     * the tool message's own id (so that MESSAGES_SNAPSHOT finds it where the client put it).
     */
    private void toolResults(JsonNode update, List<ObjectNode> out) {
        for (JsonNode m : update.path("messages")) {
            String callId = m.path("tool_call_id").asText(null);
            if ("tool".equals(m.path("type").asText()) && callId != null && calls.contains(callId)) {
                out.add(event("TOOL_CALL_RESULT").put("messageId", m.path("id").asText()).put("toolCallId", callId)
                        .put("content", AgUiMessages.text(m.get("content"))).put("role", "tool"));
            }
        }
    }

    private void interrupt(JsonNode data) {
        JsonNode payload = data.get("payload");
        ObjectNode i = JsonCodec.MAPPER.createObjectNode().put("id", data.path("interrupt_id").asText()).put("reason", "input_required");
        if (payload != null && payload.isTextual()) {
            i.put("message", payload.asText());
        } else if (payload != null && payload.path("question").isTextual()) {
            i.put("message", payload.get("question").asText());
        }
        if (payload != null && !payload.isNull()) {
            i.putObject("metadata").set("payload", payload);
        }
        interrupts.add(i);
    }

    private ObjectNode stateSnapshot(JsonNode values) {
        ObjectNode snapshot = values.isObject() ? ((ObjectNode) values).deepCopy() : JsonCodec.MAPPER.createObjectNode();
        snapshot.remove("messages"); // MESSAGES_SNAPSHOT carries them
        ObjectNode s = event("STATE_SNAPSHOT");
        s.set("snapshot", snapshot);
        return s;
    }

    // ---- shapes

    private static ObjectNode event(String type) {
        return JsonCodec.MAPPER.createObjectNode().put("type", type);
    }

    private static ObjectNode outcome(String type) {
        return JsonCodec.MAPPER.createObjectNode().put("type", type);
    }

    static ObjectNode runError(String code, String message) {
        return event("RUN_ERROR").put("message", message).put("code", code);
    }

    private static String namespace(JsonNode ns) {
        if (!ns.isArray() || ns.isEmpty()) {
            return "";
        }
        StringBuilder b = new StringBuilder();
        for (JsonNode s : ns) {
            b.append(b.isEmpty() ? "" : "|").append(s.asText());
        }
        return b.toString();
    }

}
