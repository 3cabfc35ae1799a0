package io.conduit.runs.events;

import io.conduit.api.RunEventLogs;
import io.conduit.stream.ProtocolEventLogs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/** Logs read as the classic stream and the thread protocol (and any more formats), as the service makes them. */
public final class ServiceLogs {

    private ServiceLogs() {
    }

    public static ThreadLogs of(Duration classicRetention, Duration protocolRetention, long maxRunBytes, long maxTotalBytes) {
        return of(classicRetention, protocolRetention, maxRunBytes, maxTotalBytes, System::currentTimeMillis);
    }

    public static ThreadLogs of(Duration classicRetention, Duration protocolRetention, long maxRunBytes, long maxTotalBytes, LongSupplier clock) {
        return of(classicRetention, protocolRetention, List.of(), maxRunBytes, maxTotalBytes, clock);
    }

    public static ThreadLogs of(Duration classicRetention, Duration protocolRetention, List<EventView> more, long maxRunBytes,
                                long maxTotalBytes, LongSupplier clock) {
        List<EventView> views = new ArrayList<>(List.of(RunEventLogs.view(classicRetention), ProtocolEventLogs.view(protocolRetention)));
        views.addAll(more);
        return new ThreadLogs(views, maxRunBytes, maxTotalBytes, clock);
    }
}
