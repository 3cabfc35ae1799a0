package io.conduit.runs;

import io.vertx.sqlclient.ClosedConnectionException;
import io.vertx.sqlclient.DatabaseException;
import java.io.IOException;
import java.util.Set;

/**
 * Whether a store failed because the database could not be reached (down, restarting, the network cut), not because
 * of the statement: such a failure says nothing about what was asked, and the same write later will likely work. The
 * worker waits out such failures; the API answers them 503; the checkpointer retries them a few times.
 */
public final class StoreUnavailable {

    /** Server shutting down or terminating the backend (57P01..57P03); class 08 is connection exceptions. */
    private static final Set<String> LOST = Set.of("57P01", "57P02", "57P03");

    private StoreUnavailable() {
    }

    /** Whether {@code failure}, or any cause of it, is the connection refused or lost. */
    public static boolean is(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ClosedConnectionException || t instanceof IOException) {
                return true; // closed by the server, reset by the peer, refused while the server restarts
            }
            if (t instanceof io.vertx.core.impl.NoStackTraceThrowable && t.getMessage() != null
                    && t.getMessage().startsWith("Connection is not active now")) {
                return true; // a statement given to a pooled connection the server had just closed (Vert.x has no type for it)
            }
            if (t instanceof DatabaseException d && d.getSqlState() != null
                    && (d.getSqlState().startsWith("08") || LOST.contains(d.getSqlState()))) {
                return true;
            }
        }
        return false;
    }
}
