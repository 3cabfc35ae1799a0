package io.conduit.aisdk;

import io.conduit.runs.ServingConfig;
import io.conduit.runs.events.EventView;
import io.conduit.runs.events.RunEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Duration;

/**
 * The AI SDK's UI message stream as a format of the threads' logs ({@link UiMessageStream}): a run is translated into
 * it once for all the clients that read it. Its frames are replayed as long as the thread protocol's (a chat resumed
 * with {@code GET …/stream} finds a run that just ended).
 */
@ApplicationScoped
public class UiStreamFormat {

    static final String NAME = "aisdk";

    /**
     * What a replay says of a run whose entries were dropped to bound memory: the stream's {@code start}, then an
     * {@code error} part (the stream goes on with what was kept: an interrupt's question and the end).
     */
    static final EventView.DroppedNotice NOTICE = (runId, through) -> new RunEvent(through, runId, UiMessageParts.PART, "",
            UiMessageParts.start(runId) + "data: {\"type\":\"error\",\"errorText\":"
                    + UiMessageParts.quote(new StringBuilder(), "events of run " + runId + " up to seq " + through
                    + " were dropped to bound memory; read the thread's state instead") + "}\n\n");

    @Produces
    @Singleton
    EventView uiMessageStream(ServingConfig config) {
        return view(config.protocolRetention());
    }

    /** The format, its frames replayed for {@code retention} after their run's end. */
    static EventView view(Duration retention) {
        return new EventView(NAME, UiMessageStream::new, NOTICE, retention);
    }
}
