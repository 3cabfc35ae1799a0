package io.conduit.graph;

/** A failure of a graph or of a run, with a machine-readable code for clients and a sentence for humans. */
public class GraphException extends RuntimeException {

    /** Codes clients can match on. */
    public enum Code {
        /** The graph definition is wrong (compile time). */
        INVALID_GRAPH,
        /** The run took more supersteps than its recursion limit. */
        RECURSION_LIMIT,
        /** A router or a goto named a node the graph does not have. */
        UNKNOWN_TARGET,
        /** A node wrote to a channel the state does not have. */
        UNKNOWN_CHANNEL,
        /** A resume was sent but nothing is waiting for one. */
        NO_PENDING_INTERRUPT,
        /** The thread is waiting for a resume value and the request brought none. */
        RESUME_REQUIRED,
        /** The thread (or checkpoint) does not exist. */
        UNKNOWN_THREAD,
        /** Another run advanced the thread first. */
        CONFLICT,
        /** Stored state could not be read back. */
        STATE_CORRUPTED,
        /** A node failed. */
        NODE_FAILED,
        /** A node took longer than its timeout (see {@link TimedNode}). */
        NODE_TIMEOUT,
        /** The checkpoint store failed. */
        PERSISTENCE_FAILED,
        /** The request itself is malformed. */
        INVALID_REQUEST;

        public String wire() {
            return name().toLowerCase();
        }
    }

    private final Code code;

    public GraphException(Code code, String message) {
        super(message);
        this.code = code;
    }

    public GraphException(Code code, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
    }

    public Code code() {
        return code;
    }
}
