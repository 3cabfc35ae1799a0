package io.conduit.api;

import io.conduit.runs.events.EventView;
import io.conduit.runs.events.FormatLogs;
import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.ThreadLogs;
import io.conduit.stream.ProtocolEventLogs;
import java.time.Duration;

/**
 * The threads' logs as the Agent Server's classic stream reads them ({@link LangGraphEvents}): {@code metadata},
 * {@code values}, {@code messages}, ... and {@code end}. A view of {@link ThreadLogs}, whose entries the thread
 * protocol's view ({@link ProtocolEventLogs}) reads too.
 */
public final class RunEventLogs extends FormatLogs {

    public static final String NAME = "classic";

    private static final String DROPPED = "{\"error\":\"EventsDropped\"";

    /** The classic log's notice: an SSE {@code error} event. */
    public static final EventView.DroppedNotice CLASSIC_NOTICE = (runId, through) -> new RunEvent(through, runId, "error", "",
            DROPPED + ",\"message\":\"the events of run " + runId + " up to " + through
                    + " were dropped to bound memory; read the run's state instead\"}");

    /** Whether a classic frame is that notice, not an error the run ended with. */
    static boolean droppedNotice(RunEvent event) {
        return "error".equals(event.mode()) && event.data().startsWith(DROPPED);
    }

    public RunEventLogs(ThreadLogs logs) {
        super(logs, NAME);
    }

    /** The classic stream's format, its frames replayed for {@code retention} after their run's end. */
    public static EventView view(Duration retention) {
        return new EventView(NAME, (began, sink) -> new LangGraphEvents(sink, began), CLASSIC_NOTICE, retention);
    }

    /** Runs this process holds and has not seen end (see {@link ThreadLogs#openRuns}). */
    public int openRuns() {
        return entries().openRuns();
    }
}
