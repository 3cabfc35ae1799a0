package io.conduit.runs.events;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.util.function.Supplier;

/**
 * One event of a run's stream, as a thread's event log keeps it: {@code seq} is unique and increasing for the
 * thread's whole life (across runs, restarts, and both logs: see {@link EventSeq}); {@code ns} the namespace
 * ({@code ""} at the root, segments joined by {@code |}); {@code data} the single-line JSON sent as is.
 * <ul>
 * <li>In the classic log ({@code api.RunEventLogs}) {@code mode} is the stream mode ({@code values}, {@code messages},
 * {@code updates}, ... and {@code metadata}, {@code error}, {@code end}) and {@code data} the payload.</li>
 * <li>In the protocol log ({@code stream.ProtocolEventLogs}) {@code mode} is the event's {@code method} ({@code lifecycle},
 * {@code messages}, {@code custom:<name>}, {@code input.requested}, ...) and {@code data} the whole event
 * ({@code {"type":"event","event_id":...}}); {@code error} marks the notice of a replay that lost events (not an
 * event: a protocol error message, sent to every subscriber).</li>
 * </ul>
 * {@code text}, when set, locates a text fragment in {@code data} that a slow subscriber's outbox may merge with the
 * next fragments of the same message.
 *
 * <p>An event made by {@link #withText} keeps its parts (a frame shared by every token of a message, and the token's
 * escaped text) and joins them only when {@link #data()} is asked for: a log holds a token in some 100 bytes instead
 * of the whole frame, and a token nobody reads is never joined. An event made by {@link #later} writes its data the
 * first time it is asked for: a state event (the whole state as JSON, after every step) that no subscriber's filter
 * lets through costs no JSON at all.
 */
public final class RunEvent {

    /** The seq of an event sent to one client that is not in any log (a join's final values): it goes without an id. */
    public static final long UNNUMBERED = -1;

    private final long seq;
    private final String runId;
    private final String mode;
    private final String ns;
    /** The whole data, or null when it is kept in parts. */
    private final String data;
    private final String before;
    private final String escaped;
    private final String after;
    private final TextDelta text;
    /** The data of an event made by {@link #later}, written when first asked for; null for any other. */
    private final WrittenOnce writer;

    public RunEvent(long seq, String runId, String mode, String ns, String data) {
        this(seq, runId, mode, ns, data, null);
    }

    public RunEvent(long seq, String runId, String mode, String ns, String data, TextDelta text) {
        this(seq, runId, mode, ns, within(data, text), null, null, null, text, null);
    }

    /** One of three forms: {@code data} whole; or {@code before}, {@code escaped} and {@code after}; or a {@code writer}. */
    private RunEvent(long seq, String runId, String mode, String ns, String data, String before, String escaped, String after,
                     TextDelta text, WrittenOnce writer) {
        this.seq = seq;
        this.runId = runId;
        this.mode = mode;
        this.ns = ns;
        this.data = data;
        this.before = before;
        this.escaped = escaped;
        this.after = after;
        this.text = text;
        this.writer = writer;
    }

    private static String within(String data, TextDelta text) {
        if (text != null && text.end() > data.length()) {
            throw new IllegalArgumentException("the text delta lies outside the event's data");
        }
        return data;
    }

    /**
     * An event whose data {@code writer} writes when first asked for (then kept). The writer must give the same text
     * whenever and on whichever thread it is called: it may read only immutable values.
     */
    public static RunEvent later(long seq, String runId, String mode, String ns, Supplier<String> writer) {
        return new RunEvent(seq, runId, mode, ns, null, null, null, null, null, new WrittenOnce(writer));
    }

    /**
     * An event whose data is {@code before + <text as a JSON string body> + after}: {@code before} ends with the
     * string's opening quote, {@code after} starts with its closing one. {@code key} names the message (and block)
     * the text belongs to: fragments with the same key, run, mode and namespace may be merged.
     */
    public static RunEvent withText(long seq, String runId, String mode, String ns, String key, String before, String text, String after) {
        String escaped = new String(JsonStringEncoder.getInstance().quoteAsString(text));
        return new RunEvent(seq, runId, mode, ns, null, before, escaped, after,
                new TextDelta(key, before.length(), before.length() + escaped.length()), null);
    }

    public long seq() {
        return seq;
    }

    public String runId() {
        return runId;
    }

    public String mode() {
        return mode;
    }

    public String ns() {
        return ns;
    }

    /** The single-line JSON sent as is (joined from its parts on each call when it was made by {@link #withText}). */
    public String data() {
        if (data != null) {
            return data;
        }
        return writer != null ? writer.get() : before + escaped + after;
    }

    /** The length of {@link #data()}, without joining it (an event made by {@link #later} writes its data). */
    public int length() {
        if (data != null) {
            return data.length();
        }
        return writer != null ? data().length() : before.length() + escaped.length() + after.length();
    }

    /**
     * The characters this event holds of its own, which is what a log's memory bound counts: its data, or, when kept
     * in parts, only its text (the frame around it is one per message, shared by its tokens).
     */
    public int retained() {
        return data != null || writer != null ? length() : escaped.length();
    }

    public TextDelta text() {
        return text;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RunEvent e && seq == e.seq && runId.equals(e.runId) && mode.equals(e.mode) && ns.equals(e.ns)
                && data().equals(e.data()) && java.util.Objects.equals(text, e.text);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(seq, runId, mode, ns, data());
    }

    @Override
    public String toString() {
        return "RunEvent[seq=" + seq + ", runId=" + runId + ", mode=" + mode + ", ns=" + ns + ", data=" + data() + "]";
    }

    /**
     * Stands for the text in a JSON document given to {@link #withTextIn}: put it where the text goes (as the value
     * of a string field), serialize once, and the text's place is found without parsing. A private-use character
     * pair that Jackson writes as it is and no id or name holds.
     */
    public static final String TEXT_SLOT = "\uE000text\uE000";

    /**
     * {@link #withText} from a JSON document serialized with {@link #TEXT_SLOT} as the text's value: the slot must
     * occur exactly once (else {@link IllegalArgumentException}).
     */
    public static RunEvent withTextIn(long seq, String runId, String mode, String ns, String key, String jsonWithSlot, String text) {
        return withText(seq, runId, mode, ns, key, TextFrame.cut(jsonWithSlot), text);
    }

    /** {@link #withText} in a frame cut once ({@link TextFrame#cut}), for texts that share it (a message's tokens). */
    public static RunEvent withText(long seq, String runId, String mode, String ns, String key, TextFrame frame, String text) {
        return withText(seq, runId, mode, ns, key, frame.before(), text, frame.after());
    }

    /** The JSON before and after a text's place: a document serialized once with {@link #TEXT_SLOT}, cut there. */
    public record TextFrame(String before, String after) {

        /** Cuts at the slot, which must occur exactly once (else {@link IllegalArgumentException}). */
        public static TextFrame cut(String jsonWithSlot) {
            int at = jsonWithSlot.indexOf(TEXT_SLOT);
            if (at < 0 || jsonWithSlot.indexOf(TEXT_SLOT, at + 1) >= 0) {
                throw new IllegalArgumentException("the text slot must occur exactly once in " + jsonWithSlot);
            }
            return new TextFrame(jsonWithSlot.substring(0, at), jsonWithSlot.substring(at + TEXT_SLOT.length()));
        }
    }

    /** The start of a protocol root lifecycle event's data, at the fixed place {@link ProtocolEvents} writes it. */
    private static final String ROOT_RUNNING = "\"data\":{\"event\":\"running\"";

    /** The SSE event name: the mode, then the namespace's segments ({@code mode|ns}) for subgraph events. */
    public String name() {
        return ns.isEmpty() ? mode : mode + "|" + ns;
    }

    /**
     * The run's end: classic {@code end} and {@code error}, and the protocol's root terminal lifecycle event
     * ({@code completed}, {@code interrupted} or {@code failed}).
     */
    public boolean terminal() {
        return "end".equals(mode) || "error".equals(mode)
                || "lifecycle".equals(mode) && ns.isEmpty() && !data().contains(ROOT_RUNNING);
    }

    /**
     * Kept when a log sheds events to bound memory: the run's end, and the questions it asks ({@code input.requested}),
     * without which a client could not answer its interrupts.
     */
    public boolean kept() {
        return terminal() || "input.requested".equals(mode);
    }
}
