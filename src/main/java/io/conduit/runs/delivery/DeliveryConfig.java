package io.conduit.runs.delivery;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How events reach each subscriber of a stream, on every transport: {@code conduit.delivery.*}. */
@ConfigMapping(prefix = "conduit.delivery")
public interface DeliveryConfig {

    /**
     * Bytes of events waiting for one subscriber past which consecutive text deltas of one message are merged into
     * one event (the last one's id; every character still comes exactly once).
     */
    @WithDefault("262144")
    long coalesceBytes();

    /**
     * Bytes of events waiting for one subscriber (after merging) past which it is disconnected as a slow consumer
     * ({@code slow_consumer}); it reconnects with its last event id and loses nothing. Bounds each subscriber's memory.
     */
    @WithDefault("4194304")
    long maxQueuedBytes();

    /**
     * Bytes a stream's socket may buffer before the outbox holds events back (Vert.x's write queue size): small, so
     * that a slow client's backlog waits in the outbox, where it is merged and bounded.
     */
    @WithDefault("65536")
    int socketQueueBytes();

    default OutboxBounds bounds() {
        return new OutboxBounds(coalesceBytes(), maxQueuedBytes());
    }
}
