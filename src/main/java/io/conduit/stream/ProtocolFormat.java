package io.conduit.stream;

import io.conduit.runs.ServingConfig;
import io.conduit.runs.events.EventView;
import io.conduit.runs.events.ThreadLogs;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** LangGraph's thread protocol as a wire format of the threads' logs, and the logs as it reads them. */
@ApplicationScoped
public class ProtocolFormat {

    /** The format, its frames replayed for {@code conduit.runs.protocol-retention} after their run's end. */
    @Produces
    @Singleton
    EventView protocol(ServingConfig config) {
        return ProtocolEventLogs.view(config.protocolRetention());
    }

    @Produces
    @Singleton
    ProtocolEventLogs protocolLogs(ThreadLogs logs) {
        return new ProtocolEventLogs(logs);
    }
}
