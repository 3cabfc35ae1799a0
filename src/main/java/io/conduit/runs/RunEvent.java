package io.conduit.runs;

/**
 * One event of a run's stream, as the thread's event log keeps it: {@code seq} is unique and increasing for the
 * thread's whole life (across runs and restarts); {@code mode} is the stream mode ({@code values}, {@code messages},
 * {@code updates}, ... and {@code metadata}, {@code error}, {@code end}); {@code ns} the subgraph namespace
 * ({@code ""} at the root); {@code data} the single-line JSON payload.
 */
public record RunEvent(long seq, String runId, String mode, String ns, String data) {

    /** The SSE event name: the mode, then the namespace's segments ({@code mode|ns}) for subgraph events. */
    public String name() {
        return ns.isEmpty() ? mode : mode + "|" + ns;
    }

    public boolean terminal() {
        return "end".equals(mode) || "error".equals(mode);
    }
}
