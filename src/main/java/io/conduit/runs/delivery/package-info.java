/**
 * Delivery of a thread's run events to one subscriber at the pace its socket allows, for every transport (classic
 * SSE, the thread protocol's SSE and WebSocket): a bounded {@link io.conduit.runs.delivery.Outbox} per subscriber,
 * filled by the event log without ever blocking it, drained on the connection's context by an
 * {@link io.conduit.runs.delivery.OutboxDrain} as the socket takes more; and the per-replica limits on open streams.
 * Nothing here knows how a transport writes: they plug in through {@link io.conduit.runs.delivery.OutboxDrain.Sink}
 * (only their names are listed, {@link io.conduit.runs.delivery.StreamTransport}, to count open streams apart).
 */
package io.conduit.runs.delivery;
