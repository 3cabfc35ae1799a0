package io.conduit.a2a;

import io.conduit.runs.ServingConfig;
import io.conduit.runs.events.EventView;
import io.conduit.runs.events.RunEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Duration;

/**
 * A2A's task events as a format of the threads' logs ({@link A2aEvents}): a run is translated into it once for all the
 * requests that read it. Replayed as long as the classic stream, which {@code tasks/get} reads a finished task from.
 */
@ApplicationScoped
public class A2aFormat {

    static final String NAME = "a2a";

    /**
     * What a replay says of a run whose entries were dropped to bound memory: a status update that says so (the
     * frames kept, the question and the end, follow).
     */
    static final EventView.DroppedNotice NOTICE = (runId, through) -> new RunEvent(through, runId, A2aEvents.STATUS, "",
            "{\"kind\":\"status-update\",\"taskId\":\"" + runId + "\",\"final\":false,\"status\":{\"state\":\"working\",\"message\":"
                    + "{\"kind\":\"message\",\"role\":\"agent\",\"messageId\":\"" + runId + "-dropped\",\"parts\":[{\"kind\":\"text\",\"text\":"
                    + "\"events up to seq " + through + " were dropped to bound memory; read the thread's state instead\"}]}}}");

    @Produces
    @Singleton
    EventView a2a(ServingConfig config) {
        return view(config.streamRetention());
    }

    /** The format, its frames replayed for {@code retention} after their run's end. */
    static EventView view(Duration retention) {
        return new EventView(NAME, A2aEvents::new, NOTICE, retention);
    }
}
