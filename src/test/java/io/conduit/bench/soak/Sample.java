package io.conduit.bench.soak;

import java.util.List;

/**
 * One sample of the soak: per replica its heap after a full GC, open file descriptors and RSS; the database's
 * connections (the servers', not the client's) and its two cluster tables; and what the clients had counted by then.
 */
record Sample(double minute, List<Replica> replicas, long dbConnections, long frameRows, long frameBytes,
              long watchRows, long watchBytes, long conversations, long tokens, long lost, long repeated, long errors) {

    /** One replica's process seen from outside; -1 where it could not be read. */
    record Replica(long heapAfterGcKb, long fds, long rssKb) {
    }
}
