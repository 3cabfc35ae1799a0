package io.conduit.stream;

import io.conduit.runs.events.EventView;
import io.conduit.runs.events.FormatLogs;
import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.ThreadLogs;
import java.time.Duration;

/**
 * The threads' logs as LangGraph's thread protocol reads them ("protocol v2", see docs/architecture.md): per thread,
 * every run's events as the protocol sends them ({@link ProtocolEvents}), whichever API started the run. A view of
 * {@link ThreadLogs}, with a retention of its own (long enough for the SDK to reconnect after the run's end).
 * Transports subscribe with {@code log(threadId).subscribeThread(afterSeq, listener)}: replay, then live, across runs.
 */
public final class ProtocolEventLogs extends FormatLogs {

    public static final String NAME = "protocol";

    /**
     * What a replay sends when the log had to drop events it needs (memory bounds): the protocol's error message with
     * no command id, which the SDK hands to {@code thread.onError} (its SSE transport; its WebSocket transport drops
     * it). {@code unknown_error} because the protocol has no closer code; the message says what to do.
     */
    public static final EventView.DroppedNotice NOTICE = (runId, through) -> new RunEvent(through, runId, "error", "",
            "{\"type\":\"error\",\"id\":null,\"error\":\"unknown_error\",\"message\":\"events of run " + runId + " up to seq "
                    + through + " were dropped to bound memory; read the thread's state (state.get) instead\"}");

    public ProtocolEventLogs(ThreadLogs logs) {
        super(logs, NAME);
    }

    /** The protocol's format, its frames replayed for {@code retention} after their run's end. */
    public static EventView view(Duration retention) {
        return new EventView(NAME, (began, sink) -> new ProtocolEvents(sink, began), NOTICE, retention);
    }
}
