package io.conduit.completions;

import io.conduit.runs.ServingConfig;
import io.conduit.runs.events.EventView;
import io.conduit.runs.events.RunEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Duration;

/**
 * Chat completions as a format of the threads' logs: a run's answer in pieces ({@link RunReading}), translated once
 * for the requests that read it and framed by each ({@link ChunkStream}, {@link WholeCompletion}). Replayed as long
 * as the classic stream.
 */
@ApplicationScoped
public class CompletionFormat {

    static final String NAME = "completions";

    /** A replay of a run whose entries were dropped to bound memory fails the answer, which can no longer be whole. */
    static final EventView.DroppedNotice NOTICE = (runId, through) -> new RunEvent(through, runId, RunReading.FAILED, "",
            "EventsDropped: the events of run " + runId + " up to " + through + " were dropped to bound memory; read the run's state instead");

    @Produces
    @Singleton
    EventView completions(ServingConfig config) {
        return view(config.streamRetention());
    }

    /** The format, its frames replayed for {@code retention} after their run's end. */
    static EventView view(Duration retention) {
        return new EventView(NAME, RunReading::new, NOTICE, retention);
    }
}
