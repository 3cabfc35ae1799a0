package io.conduit.aisdk;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import io.conduit.runs.events.RunEvent;
import java.util.function.Consumer;

/**
 * Writes a run's UI message stream parts ({@code data: {"type":...}} SSE frames) as the frames of the AI SDK's
 * format: the parts of one entry are gathered into one frame, numbered from the run's first seq; a text, reasoning
 * or tool-input delta is a frame of its own whose text's place is given ({@link io.conduit.runs.events.TextDelta}), so a
 * slow client's outbox merges consecutive deltas of one part into one. The {@code start} part comes before any other.
 * A frame's mode says what a replay of a shed run must keep ({@link RunEvent#kept}): an interrupt's question and
 * the end.
 */
final class UiMessageParts {

    /** An ordinary frame. */
    static final String PART = "part";
    /** The frame of a {@code data-interrupt} part: kept for a replay, as the protocol's {@code input.requested} is. */
    static final String ASKED = "input.requested";
    /** The frame that ends the stream ({@code finish} or {@code abort}, then {@code [DONE]}): kept for a replay. */
    static final String END = "end";

    private final String runId;
    private final Consumer<RunEvent> sink;
    private final StringBuilder out = new StringBuilder(256);
    private long seq;
    private boolean started;
    /** The head of the last delta's frame and what it was for: a part's deltas share it. */
    private String deltaType;
    private String deltaId;
    private String deltaHead;

    UiMessageParts(String runId, long firstSeq, Consumer<RunEvent> sink) {
        this.runId = runId;
        this.seq = firstSeq;
        this.sink = sink;
    }

    /** The {@code start} part, once: its message id is the run's. */
    void start() {
        if (!started) {
            started = true;
            out.append(start(runId));
        }
    }

    /** The {@code start} frame of run {@code runId}. */
    static String start(String runId) {
        return "data: {\"type\":\"start\",\"messageId\":" + quote(new StringBuilder(), runId) + "}\n\n";
    }

    /** Opens a part (after {@code start}); the caller appends its fields ({@link #field}), then {@link #close}. */
    StringBuilder part(String type) {
        start();
        out.append("data: {\"type\":");
        return quote(out, type);
    }

    /** {@code ,"name":} then the string {@code value}. */
    StringBuilder field(String name, String value) {
        out.append(",\"").append(name).append("\":");
        return quote(out, value);
    }

    /** {@code ,"name":} then {@code json} as it is (JSON already). */
    StringBuilder raw(String name, String json) {
        return out.append(",\"").append(name).append("\":").append(json);
    }

    void close() {
        out.append("}\n\n");
    }

    /** The stream's last line. */
    void done() {
        out.append("data: [DONE]\n\n");
    }

    /** A part with no fields. */
    void empty(String type) {
        part(type);
        close();
    }

    /**
     * A delta part, {@code {"type":type, idField:id, textField:text}}, as a frame of its own; {@code key} names the
     * part whose deltas may be merged. An empty text makes no part.
     */
    void delta(String type, String idField, String id, String textField, String key, String text) {
        if (text.isEmpty()) {
            return;
        }
        start();
        flush(PART);
        if (!type.equals(deltaType) || !id.equals(deltaId)) {
            StringBuilder head = new StringBuilder(64).append("data: {\"type\":");
            quote(head, type).append(",\"").append(idField).append("\":");
            quote(head, id).append(",\"").append(textField).append("\":\"");
            deltaType = type;
            deltaId = id;
            deltaHead = head.toString();
        }
        sink.accept(RunEvent.withText(seq++, runId, PART, "", key, deltaHead, text, "\"}\n\n"));
    }

    /** What was written since the last frame, as one frame of this mode (none when nothing was). */
    void flush(String mode) {
        if (!out.isEmpty()) {
            sink.accept(new RunEvent(seq++, runId, mode, "", out.toString()));
            out.setLength(0);
        }
    }

    /** Appends {@code s} as a JSON string. */
    static StringBuilder quote(StringBuilder b, String s) {
        b.append('"');
        JsonStringEncoder.getInstance().quoteAsString(s == null ? "" : s, b);
        return b.append('"');
    }
}
