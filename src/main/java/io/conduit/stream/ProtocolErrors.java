package io.conduit.stream;

import io.conduit.graph.GraphException;
import io.conduit.runs.InvalidInputException;
import io.conduit.runs.LimitExceededException;
import io.conduit.runs.NotFoundException;
import io.conduit.runs.ThreadBusyException;
import io.conduit.runs.ThreadGraphMismatchException;
import io.conduit.runs.UnknownCheckpointException;
import io.conduit.runs.submission.RunSubmission;
import org.jboss.logging.Logger;

/** Failures of a command as the protocol's error codes: what the client got wrong, never a stack trace. */
final class ProtocolErrors {

    private static final Logger LOG = Logger.getLogger(ProtocolErrors.class);

    private ProtocolErrors() {
    }

    /** {@code [code, message]}. */
    static String[] of(Throwable t) {
        Throwable e = t instanceof java.util.concurrent.CompletionException && t.getCause() != null ? t.getCause() : t;
        return switch (e) {
            case ProtocolException p -> new String[]{p.code(), p.getMessage()};
            case InvalidInputException i -> new String[]{"invalid_argument", i.getMessage()};
            case RunSubmission.BadRequest b -> new String[]{"invalid_argument", b.getMessage()};
            case UnknownCheckpointException c -> new String[]{"no_such_checkpoint", c.getMessage()};
            case NotFoundException n -> new String[]{"invalid_argument", n.getMessage()};
            // the protocol has no code for "at capacity": the message says which limit and when to retry
            case LimitExceededException l -> new String[]{"unknown_error", l.getMessage() + " (" + l.code() + "; retry after "
                    + l.retryAfterSeconds() + " s)"};
            case ThreadGraphMismatchException m -> new String[]{"invalid_argument", m.getMessage()};
            case ThreadBusyException b -> new String[]{"invalid_argument", b.getMessage() + " (multitask strategy reject)"};
            case GraphException g -> switch (g.code()) {
                case INVALID_REQUEST, NO_PENDING_INTERRUPT, RESUME_REQUIRED, UNKNOWN_CHANNEL, UNKNOWN_TARGET, CONFLICT ->
                        new String[]{"invalid_argument", g.getMessage()};
                case UNKNOWN_THREAD -> new String[]{"no_such_run", g.getMessage()};
                default -> unknown(g);
            };
            default -> unknown(e);
        };
    }

    private static String[] unknown(Throwable e) {
        LOG.warnf(e, "a protocol command failed");
        return new String[]{"unknown_error", "the server failed to handle the command"};
    }
}
