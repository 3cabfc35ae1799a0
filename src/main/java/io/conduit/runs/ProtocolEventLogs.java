package io.conduit.runs;

import java.time.Duration;

/**
 * The thread protocol's event logs ("protocol v2", see docs/architecture.md): per thread, every run's events as the
 * protocol sends them ({@link ProtocolEvents}), whichever API started the run. The same kind of log as the classic one
 * ({@link RunEventLogs}), kept apart because its events have another shape and another retention (long enough for the
 * SDK to reconnect after the run's end); their seqs come from the same counter, so they never collide. Transports
 * subscribe with {@code log(threadId).subscribeThread(afterSeq, listener)}: replay, then live, across runs.
 */
public final class ProtocolEventLogs {

    /**
     * What a replay sends when the log had to drop events it needs (memory bounds): the protocol's error message with
     * no command id, which the SDK hands to {@code thread.onError} (its SSE transport; its WebSocket transport drops
     * it). {@code unknown_error} because the protocol has no closer code; the message says what to do.
     */
    static final RunEventLogs.DroppedNotice NOTICE = (runId, through) -> new RunEvent(through, runId, "error", "",
            "{\"type\":\"error\",\"id\":null,\"error\":\"unknown_error\",\"message\":\"events of run " + runId + " up to seq "
                    + through + " were dropped to bound memory; read the thread's state (state.get) instead\"}");

    private final RunEventLogs logs;

    public ProtocolEventLogs(Duration retention, long maxRunBytes, long maxTotalBytes) {
        this.logs = new RunEventLogs(retention, maxRunBytes, maxTotalBytes, NOTICE);
    }

    /** The thread's log, made if this process holds none (to subscribe before a run starts). */
    public ThreadEventLog log(String threadId) {
        return logs.log(threadId);
    }

    /** The thread's log if this process holds one, else null. */
    public ThreadEventLog find(String threadId) {
        return logs.find(threadId);
    }

    ThreadEventLog begin(String threadId, String runId) {
        return logs.begin(threadId, runId);
    }

    /** Forgets a deleted thread's events. */
    public void forget(String threadId) {
        logs.forget(threadId);
    }

    /** Drops what is past retention, then sheds the largest logs while over the total bound. Run it periodically. */
    public void sweep(long nowMillis) {
        logs.sweep(nowMillis);
    }

    public long bytes() {
        return logs.bytes();
    }
}
