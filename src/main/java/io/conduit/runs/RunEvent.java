package io.conduit.runs;

/**
 * One event of a run's stream, as a thread's event log keeps it: {@code seq} is unique and increasing for the
 * thread's whole life (across runs, restarts, and both logs: see {@link EventSeq}); {@code ns} the namespace
 * ({@code ""} at the root, segments joined by {@code |}); {@code data} the single-line JSON sent as is.
 * <ul>
 * <li>In the classic log ({@link RunEventLogs}) {@code mode} is the stream mode ({@code values}, {@code messages},
 * {@code updates}, ... and {@code metadata}, {@code error}, {@code end}) and {@code data} the payload.</li>
 * <li>In the protocol log ({@link ProtocolEventLogs}) {@code mode} is the event's {@code method} ({@code lifecycle},
 * {@code messages}, {@code custom:<name>}, {@code input.requested}, ...) and {@code data} the whole event
 * ({@code {"type":"event","event_id":...}}); {@code error} marks the notice of a replay that lost events (not an
 * event: a protocol error message, sent to every subscriber).</li>
 * </ul>
 */
public record RunEvent(long seq, String runId, String mode, String ns, String data) {

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
                || "lifecycle".equals(mode) && ns.isEmpty() && !data.contains(ROOT_RUNNING);
    }

    /**
     * Kept when a log sheds events to bound memory: the run's end, and the questions it asks ({@code input.requested}),
     * without which a client could not answer its interrupts.
     */
    public boolean kept() {
        return terminal() || "input.requested".equals(mode);
    }
}
