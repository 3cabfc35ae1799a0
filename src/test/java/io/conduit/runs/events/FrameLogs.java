package io.conduit.runs.events;

import io.conduit.api.RunEventLogs;
import io.conduit.stream.ProtocolEventLogs;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * Logs whose entries are frames already ({@link RunEvent}s), passed through as the classic and protocol formats: for
 * tests of what reads a log (followers, outboxes) with frames written by hand.
 */
public final class FrameLogs {

    private FrameLogs() {
    }

    public static ThreadLogs of(Duration retention, long maxRunBytes, long maxTotalBytes) {
        return new ThreadLogs(List.of(view(ProtocolEventLogs.NAME, ProtocolEventLogs.NOTICE, retention),
                view(RunEventLogs.NAME, RunEventLogs.CLASSIC_NOTICE, retention)), maxRunBytes, maxTotalBytes, System::currentTimeMillis);
    }

    /** Opens the run's segment with its (frameless) start. */
    public static ThreadLog begin(ThreadLogs logs, String threadId, String runId) {
        ThreadLog log = logs.begin(threadId, runId);
        log.append(runId, new RunNotice.Began(0, null, "g", Set.of(), true));
        return log;
    }

    private static EventView view(String name, EventView.DroppedNotice notice, Duration retention) {
        return new EventView(name, (began, sink) -> (entry, at) -> {
            if (entry instanceof RunEvent e) {
                sink.accept(e);
            }
        }, notice, retention);
    }
}
