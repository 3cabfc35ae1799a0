package io.conduit.aisdk;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.checkpoint.JsonCodec;
import io.conduit.runs.ProtocolRunFollower;
import io.conduit.runs.RunEvent;
import io.conduit.runs.TextDelta;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * One run, read from the thread's protocol log ({@link io.conduit.runs.ProtocolEventLogs}), as the Vercel AI SDK's UI
 * message stream v1: one assistant UI message per run (its id is the run's), in SSE frames {@code data: <part>}, ended
 * by {@code data: [DONE]}. Only parts that ai 6 and ai 7 both accept, with only the keys both schemas name:
 * <ul>
 * <li>{@code start} at the run's start; {@code start-step}/{@code finish-step} around each model call, a step running
 * on until the next model call begins, so the server tools' outputs land in the step that asked for them;</li>
 * <li>text and reasoning blocks as {@code text-*}/{@code reasoning-*}; a tool call's block as {@code tool-input-start},
 * {@code tool-input-delta} per argument delta, {@code tool-input-available} (or {@code tool-input-error} when its
 * arguments are not JSON), then the tool's {@code tool-output-available}/{@code tool-output-error}, all with
 * {@code providerExecuted: true} (the server ran them: a client's {@code onToolCall} is not asked to);</li>
 * <li>custom events as {@code data-<name>} parts; an interrupt as {@code data-interrupt} {@code {id, value}};</li>
 * <li>the end: {@code finish} ({@code stop}; {@code other} after an interrupt), {@code error} then {@code finish}
 * ({@code error}) for a failed run, {@code abort} for a cancelled one.</li>
 * </ul>
 * Fed in seq order, one call at a time (the frame function of the response's {@link io.conduit.runs.delivery.SseSubscriber},
 * on the connection's context). Text deltas are copied from the protocol event as escaped JSON, without parsing
 * (their place is the event's {@link TextDelta}); the few other events per message are parsed.
 */
final class UiMessageStream {

    private static final int TEXT = 0;
    private static final int REASONING = 1;
    private static final int TOOL = 2;

    /** The block open in a message: the UI part it became, or for a tool call, the call. */
    private static final class Block {
        final int kind;
        final String partId;
        String callId;
        final String name;
        /** A tool call whose id is not known yet: its argument deltas wait for it. */
        StringBuilder waiting;

        Block(int kind, String partId, String callId, String name) {
            this.kind = kind;
            this.partId = partId;
            this.callId = callId;
            this.name = name;
        }
    }

    /** The message open in a namespace. */
    private static final class Message {
        final String id;
        Block block;

        Message(String id) {
            this.id = id;
        }
    }

    private final String messageId;
    private final Map<String, Message> open = new HashMap<>();
    private final Set<String> calls = new HashSet<>();
    private final StringBuilder out = new StringBuilder(256);
    private boolean started;
    private boolean stepOpen;
    private int openMessages;
    private boolean asked;
    private boolean ended;

    /** {@code messageId}: the assistant UI message's id (the run's). */
    UiMessageStream(String messageId) {
        this.messageId = messageId;
    }

    /** The protocol events this stream translates (the others never enter the subscriber's outbox). */
    static boolean wanted(RunEvent e) {
        String mode = e.mode();
        return switch (mode) {
            case "messages", "tools" -> e.ns().indexOf('|') < 0; // the root graph and its tasks, not subgraphs
            case "lifecycle", "custom" -> e.ns().isEmpty();
            case "input.requested", "error", ProtocolRunFollower.STOPPED -> true;
            default -> mode.startsWith("custom:") && e.ns().isEmpty();
        };
    }

    /** Whether the run's end has been translated (nothing is written after it). */
    boolean ended() {
        return ended;
    }

    /** The SSE frames for one protocol event: none, one or several. */
    String frames(RunEvent e) {
        out.setLength(0);
        if (ended) {
            return "";
        }
        if (e.text() != null) {
            TextDelta d = e.text();
            delta(e.ns(), e.data().substring(d.start(), d.end()));
            return out.toString();
        }
        switch (e.mode()) {
            case ProtocolRunFollower.STOPPED -> end("abort", null);
            case "error" -> notice(parse(e.data()));
            default -> event(e, parse(e.data()).path("params").path("data"));
        }
        return out.toString();
    }

    private void event(RunEvent e, JsonNode data) {
        String mode = e.mode();
        switch (mode) {
            case "lifecycle" -> lifecycle(data);
            case "messages" -> message(e.ns(), data);
            case "tools" -> tool(data);
            case "input.requested" -> {
                asked = true;
                String id = data.path("interrupt_id").asText();
                part("data-interrupt").append(",\"id\":");
                quote(id).append(",\"data\":{\"id\":");
                quote(id).append(",\"value\":").append(json(data.path("payload"))).append('}');
                close();
            }
            default -> { // custom, custom:<name>
                String name = data.hasNonNull("name") ? data.get("name").asText() : "custom";
                part("data-" + name).append(",\"data\":").append(json(data.path("payload")));
                close();
            }
        }
    }

    private void lifecycle(JsonNode data) {
        switch (data.path("event").asText()) {
            case "running" -> start();
            case "completed" -> end("stop", null);
            case "failed" -> end("error", data.path("error").asText("the run failed"));
            case "interrupted" -> end(asked ? "other" : "abort", null);
            default -> {
            }
        }
    }

    // ---- messages

    private void message(String ns, JsonNode data) {
        switch (data.path("event").asText()) {
            case "message-start" -> {
                if (stepOpen && openMessages == 0) {
                    empty("finish-step");
                    stepOpen = false;
                }
                if (!stepOpen) {
                    empty("start-step");
                    stepOpen = true;
                }
                openMessages++;
                open.put(ns, new Message(data.path("id").asText()));
            }
            case "content-block-start" -> blockStart(open.get(ns), data.path("index").asInt(), data.path("content"));
            case "content-block-delta" -> {
                JsonNode delta = data.path("delta");
                String text = delta.path("text").asText(delta.path("reasoning").asText(delta.path("args").asText("")));
                delta(ns, escape(text));
            }
            case "content-block-finish" -> blockFinish(open.get(ns), data.path("content"));
            case "message-finish" -> messageEnd(ns, null);
            case "error" -> messageEnd(ns, data.path("message").asText("the model call failed"));
            default -> {
            }
        }
    }

    private void blockStart(Message m, int index, JsonNode content) {
        if (m == null) {
            return;
        }
        String partId = m.id + "-" + index;
        switch (content.path("type").asText()) {
            case "text" -> {
                m.block = new Block(TEXT, partId, null, null);
                part("text-start").append(",\"id\":");
                quote(partId);
                close();
            }
            case "reasoning" -> {
                m.block = new Block(REASONING, partId, null, null);
                part("reasoning-start").append(",\"id\":");
                quote(partId);
                close();
            }
            default -> {
                Block b = new Block(TOOL, partId, content.hasNonNull("id") ? content.get("id").asText() : null, content.path("name").asText());
                m.block = b;
                if (b.callId != null) {
                    toolInputStart(b);
                } else {
                    b.waiting = new StringBuilder();
                }
            }
        }
    }

    /** A delta of the namespace's open block; {@code escaped}: its text as the body of a JSON string. */
    private void delta(String ns, String escaped) {
        Message m = open.get(ns);
        Block b = m == null ? null : m.block;
        if (b == null || escaped.isEmpty()) {
            return;
        }
        switch (b.kind) {
            case TEXT -> part("text-delta").append(",\"id\":");
            case REASONING -> part("reasoning-delta").append(",\"id\":");
            default -> {
                if (b.waiting != null) {
                    b.waiting.append(escaped);
                    return;
                }
                part("tool-input-delta").append(",\"toolCallId\":");
            }
        }
        quote(b.kind == TOOL ? b.callId : b.partId).append(b.kind == TOOL ? ",\"inputTextDelta\":\"" : ",\"delta\":\"").append(escaped).append('"');
        close();
    }

    private void blockFinish(Message m, JsonNode content) {
        Block b = m == null ? null : m.block;
        if (b == null) {
            return;
        }
        m.block = null;
        switch (b.kind) {
            case TEXT -> endPart("text-end", b.partId);
            case REASONING -> endPart("reasoning-end", b.partId);
            default -> {
                String id = content.hasNonNull("id") ? content.get("id").asText() : b.callId;
                if (id == null) {
                    return; // a call with no id cannot be named to the client
                }
                if (!id.equals(b.callId)) {
                    b.callId = id;
                    toolInputStart(b);
                }
                if (b.waiting != null && !b.waiting.isEmpty()) {
                    part("tool-input-delta").append(",\"toolCallId\":");
                    quote(id).append(",\"inputTextDelta\":\"").append(b.waiting).append('"');
                    close();
                }
                if ("tool_call".equals(content.path("type").asText())) {
                    toolPart("tool-input-available", id).append(",\"toolName\":");
                    quote(b.name).append(",\"input\":").append(json(content.path("args"))).append(",\"providerExecuted\":true");
                } else {
                    toolPart("tool-input-error", id).append(",\"toolName\":");
                    quote(b.name).append(",\"input\":").append(json(content.path("args"))).append(",\"providerExecuted\":true,\"errorText\":");
                    quote(content.path("error").asText("the arguments are not JSON"));
                }
                close();
            }
        }
    }

    private void toolInputStart(Block b) {
        calls.add(b.callId);
        toolPart("tool-input-start", b.callId).append(",\"toolName\":");
        quote(b.name).append(",\"providerExecuted\":true");
        close();
    }

    /** The message ends; {@code error}: why it ended unfinished (its open block ends with it). */
    private void messageEnd(String ns, String error) {
        Message m = open.remove(ns);
        if (m == null) {
            return;
        }
        openMessages--;
        Block b = m.block;
        if (b == null) {
            return;
        }
        switch (b.kind) {
            case TEXT -> endPart("text-end", b.partId);
            case REASONING -> endPart("reasoning-end", b.partId);
            default -> {
                if (b.callId != null && b.waiting == null) {
                    toolPart("tool-input-error", b.callId).append(",\"toolName\":");
                    quote(b.name).append(",\"input\":null,\"providerExecuted\":true,\"errorText\":");
                    quote(error == null ? "the tool call was not finished" : error);
                    close();
                }
            }
        }
    }

    // ---- server tools

    private void tool(JsonNode data) {
        String id = data.path("tool_call_id").asText();
        if (!calls.contains(id)) {
            return; // a call the client was never shown
        }
        switch (data.path("event").asText()) {
            case "tool-finished" -> {
                toolPart("tool-output-available", id).append(",\"output\":").append(json(data.path("output"))).append(",\"providerExecuted\":true");
                close();
            }
            case "tool-error" -> {
                toolPart("tool-output-error", id).append(",\"errorText\":");
                quote(data.path("message").asText("the tool failed")).append(",\"providerExecuted\":true");
                close();
            }
            default -> {
            }
        }
    }

    // ---- start and end

    private void start() {
        if (!started) {
            started = true;
            out.append("data: {\"type\":\"start\",\"messageId\":");
            quote(messageId);
            close();
        }
    }

    /** The log lost events this stream needed (memory bounds): said as an error, the stream goes on. */
    private void notice(JsonNode error) {
        part("error").append(",\"errorText\":");
        quote(error.path("message").asText("events of this run were dropped"));
        close();
    }

    /** {@code how}: a finish reason, or {@code abort}; {@code error}: the run's failure, said before the finish. */
    private void end(String how, String error) {
        for (String ns : Set.copyOf(open.keySet())) {
            messageEnd(ns, error == null ? "the run stopped" : error);
        }
        if (stepOpen) {
            empty("finish-step");
            stepOpen = false;
        }
        if (error != null) {
            part("error").append(",\"errorText\":");
            quote(error);
            close();
        }
        if ("abort".equals(how)) {
            part("abort").append(",\"reason\":\"the run was cancelled\"");
        } else {
            part("finish").append(",\"finishReason\":\"").append(how).append('"');
        }
        close();
        out.append("data: [DONE]\n\n");
        ended = true;
    }

    // ---- writing parts

    /** Opens a part's frame (the {@code start} part first, if it was not sent); the caller appends fields, then {@link #close}. */
    private StringBuilder part(String type) {
        start();
        out.append("data: {\"type\":");
        return quote(type);
    }

    private StringBuilder toolPart(String type, String callId) {
        part(type).append(",\"toolCallId\":");
        return quote(callId);
    }

    private void endPart(String type, String id) {
        part(type).append(",\"id\":");
        quote(id);
        close();
    }

    private void empty(String type) {
        part(type);
        close();
    }

    private void close() {
        out.append("}\n\n");
    }

    private StringBuilder quote(String s) {
        return out.append('"').append(escape(s)).append('"');
    }

    private static String escape(String s) {
        return new String(JsonStringEncoder.getInstance().quoteAsString(s == null ? "" : s));
    }

    /** A value as JSON ({@code null} when absent). */
    private static String json(JsonNode n) {
        return n.isMissingNode() ? "null" : n.toString();
    }

    private static JsonNode parse(String json) {
        try {
            return JsonCodec.MAPPER.readTree(json);
        } catch (Exception e) {
            return com.fasterxml.jackson.databind.node.MissingNode.getInstance(); // the log's own JSON: never happens
        }
    }
}
