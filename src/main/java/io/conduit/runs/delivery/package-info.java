/**
 * Delivery of a thread's run events to one subscriber at the pace its socket allows, for every transport (classic
 * SSE, the thread protocol's SSE and WebSocket): a bounded {@link io.conduit.runs.delivery.Outbox} per subscriber,
 * filled by the event log without ever blocking it, drained on the connection's context by an
 * {@link io.conduit.runs.delivery.OutboxDrain} as the socket takes more; and the per-replica limits on open streams.
 * Nothing here knows a transport: they plug in through {@link io.conduit.runs.delivery.OutboxDrain.Sink}.
 */
package io.conduit.runs.delivery;
