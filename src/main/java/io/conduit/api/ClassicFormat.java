package io.conduit.api;

import io.conduit.runs.ServingConfig;
import io.conduit.runs.events.EventView;
import io.conduit.runs.events.ThreadLogs;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** The Agent Server's classic stream as a wire format of the threads' logs, and the logs as it reads them. */
@ApplicationScoped
public class ClassicFormat {

    /** The format, its frames replayed for {@code conduit.runs.stream-retention} after their run's end. */
    @Produces
    @Singleton
    EventView classic(ServingConfig config) {
        return RunEventLogs.view(config.streamRetention());
    }

    @Produces
    @Singleton
    RunEventLogs classicLogs(ThreadLogs logs) {
        return new RunEventLogs(logs);
    }
}
