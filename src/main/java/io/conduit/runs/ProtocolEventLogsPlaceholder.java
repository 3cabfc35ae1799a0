package io.conduit.runs;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import java.time.Duration;

/** PLACEHOLDER until branch p1 lands (its ProtocolEventLogs bean replaces this producer). */
@ApplicationScoped
class ProtocolEventLogsPlaceholder {

    @Produces
    @ApplicationScoped
    ProtocolEventLogs protocolLogs() {
        return new ProtocolEventLogs(new RunEventLogs(Duration.ofMinutes(2), 8L << 20, 256L << 20));
    }
}
