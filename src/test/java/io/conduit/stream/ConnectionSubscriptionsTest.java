package io.conduit.stream;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.events.FrameLogs;
import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.ThreadLogs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A WebSocket connection's subscriptions to a thread, on a log that also holds other replicas' relayed frames. */
class ConnectionSubscriptionsTest {

    private static final EventFilter MESSAGES = EventFilter.parse(JsonCodec.MAPPER.createObjectNode().set("channels",
            JsonCodec.MAPPER.createArrayNode().add("messages")), true);
    private final ThreadLogs logs = FrameLogs.of(Duration.ofMinutes(5), 1 << 20, 1 << 24);
    private final List<Long> sent = new ArrayList<>();
    private final EventSink sink = new EventSink() {
        @Override
        public void answer(String json) {
        }

        @Override
        public void replay(RunEvent e) {
            sent.add(e.seq());
        }

        @Override
        public void event(RunEvent e) {
            sent.add(e.seq());
        }
    };

    /**
     * A client reconnects with its last seq to a replica that never had the thread; a replica relaying the same run
     * then replays it from its start (a drained replica, still up, answering the new watch). The client had those
     * frames: only the ones after its seq are sent. Before, the connection's live follower had no seq of its own, and
     * the client got the run again from seq 1 after 126 (a flaky ReplicaDrainTest).
     */
    @Test
    void relayedFramesUpToTheSubscriptionsSinceAreNotSentAgain() {
        ConnectionSubscriptions subscriptions = new ConnectionSubscriptions("t", () -> logs.log(ProtocolEventLogs.NAME, "t"), sink);
        subscriptions.subscribe(JsonNodeFactory.instance.numberNode(1), MESSAGES, 126L);
        for (long seq = 1; seq <= 128; seq++) {
            logs.log("t").appendRemote(ProtocolEventLogs.NAME, new RunEvent(seq, "r1", "messages", "", "{}"));
        }
        assertThat(sent).containsExactly(127L, 128L);
    }

    @Test
    void withoutSinceTheRelayedFramesAreFollowedAsTheyCome() {
        ConnectionSubscriptions subscriptions = new ConnectionSubscriptions("t", () -> logs.log(ProtocolEventLogs.NAME, "t"), sink);
        subscriptions.subscribe(JsonNodeFactory.instance.numberNode(1), MESSAGES, null);
        for (long seq = 1; seq <= 3; seq++) {
            logs.log("t").appendRemote(ProtocolEventLogs.NAME, new RunEvent(seq, "r1", "messages", "", "{}"));
        }
        assertThat(sent).containsExactly(1L, 2L, 3L);
    }
}
