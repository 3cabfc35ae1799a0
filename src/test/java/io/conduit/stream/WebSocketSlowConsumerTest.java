package io.conduit.stream;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.NodeClient;
import io.conduit.api.BlockedThreadWarnings;
import io.conduit.api.SmallOutboxes;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The WebSocket's backpressure judged by a raw client (npm ws, scenario {@code slow} of
 * src/test/js/thread-protocol-ws.mjs): a client that stops reading mid-run beside one that keeps up has its text
 * deltas merged, then is closed with 4408 {@code slow_consumer}; the fast one gets the log's events unchanged; the
 * slow one resubscribes after the last event it got and has every character exactly once. Asserted on events, never
 * on time. As in {@code SlowConsumerTest} (classic SSE, the same outbox), the server's kernel send buffer is fixed
 * small so that the slow client's backlog reaches the outbox after a few kilobytes, and the model is paced lightly so
 * that the fast reader is never behind by the first bound.
 */
@QuarkusTest
@TestProfile(SmallOutboxes.class)
class WebSocketSlowConsumerTest {

    @RegisterExtension
    static final BlockedThreadWarnings EVENT_LOOPS = new BlockedThreadWarnings();

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    @Test
    void theSlowSocketIsMergedThenClosedTheFastOneGetsEverythingAndTheSlowOneResumesExactlyOnce() throws Exception {
        NodeClient.run("thread-protocol-ws.mjs", 60, "http://localhost:" + port, "overlap"); // the paths taken once: a first load is not a block
        EVENT_LOOPS.watch();
        JsonNode summary = NodeClient.run("thread-protocol-ws.mjs", 180, "http://localhost:" + port, "slow", "tick ".repeat(1500).trim());
        assertThat(summary.path("merged").asLong()).isPositive();
        assertThat(summary.path("afterReconnect").asInt()).isPositive();
    }
}
