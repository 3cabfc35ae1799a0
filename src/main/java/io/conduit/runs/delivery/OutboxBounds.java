package io.conduit.runs.delivery;

/**
 * The two bounds of a subscriber's outbox, in bytes of queued live events (a replay is not counted: the log holds
 * those events anyway). Past {@code coalesceBytes}, consecutive text deltas of one message are merged; past
 * {@code maxBytes}, the subscriber is disconnected as a slow consumer.
 */
public record OutboxBounds(long coalesceBytes, long maxBytes) {

    public OutboxBounds {
        if (coalesceBytes < 0 || maxBytes <= coalesceBytes) {
            throw new IllegalArgumentException("outbox bounds need 0 <= coalesce-bytes < max-queued-bytes, got "
                    + coalesceBytes + " and " + maxBytes);
        }
    }
}
