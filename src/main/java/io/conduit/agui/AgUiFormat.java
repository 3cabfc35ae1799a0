package io.conduit.agui;

import io.conduit.runs.ServingConfig;
import io.conduit.runs.events.EventView;
import io.conduit.runs.events.RunEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Duration;

/**
 * AG-UI as a wire format of the threads' logs ({@value #NAME}): a run is translated into AG-UI events
 * ({@link AgUiEvents}) once, when a client of the format reads it, and each transport writes the frames as they are.
 * A frame's data is the event's JSON, which the WebSocket sends as one text frame and SSE wraps in {@code data: }.
 */
@ApplicationScoped
public class AgUiFormat {

    static final String NAME = "agui";

    /**
     * The format, kept as long as the thread protocol's: AG-UI has no replay, but the run a request submits may end
     * before the request subscribes to it.
     */
    @Produces
    @Singleton
    EventView agUi(ServingConfig config) {
        return view(config.protocolRetention());
    }

    static EventView view(Duration retention) {
        return new EventView(NAME, (began, sink) -> new AgUiEvents(sink, began), AgUiFormat::dropped, retention);
    }

    /**
     * What a client gets in place of a run's events that were shed to bound memory (it subscribed after): AG-UI has no
     * notice and a client cannot resume, so the run ends for it with a RUN_ERROR saying what to read instead.
     */
    static RunEvent dropped(String runId, long through) {
        return new RunEvent(through, runId, AgUiFrames.RUN_ERROR, "", AgUiFrames.runError("events_dropped",
                "the events of run " + runId + " were dropped to bound memory; read the thread's state instead").toString());
    }

    /** A frame as SSE: one {@code data:} line, LF-framed. */
    static String sse(RunEvent frame) {
        return "data: " + frame.data() + "\n\n";
    }
}
