package io.conduit.api;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * The test profile of the slow-consumer tests (classic SSE and the thread protocol's WebSocket share the outbox):
 * bounds small enough that a client that stops reading reaches them after a few kilobytes, the server's kernel send
 * buffer fixed small so that its backlog reaches the outbox at all, and the model paced lightly so that a client
 * that keeps up is never behind by the first bound. One profile, so Quarkus starts once for both tests.
 */
public class SmallOutboxes implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("conduit.delivery.coalesce-bytes", "65536",
                "conduit.delivery.max-queued-bytes", "69632",
                "conduit.delivery.socket-queue-bytes", "4096",
                "conduit.test.http-send-buffer-bytes", "4096",
                "conduit.simulator.inter-token-delay", "2ms",
                // a classic SSE client dropped for being slow that has not read its error a heartbeat later is hung up
                // on: not while a test reads (the WebSocket does not use this heartbeat)
                "conduit.runs.heartbeat", "10m");
    }
}
