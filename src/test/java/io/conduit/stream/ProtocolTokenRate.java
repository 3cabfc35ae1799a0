package io.conduit.stream;

import io.conduit.api.RunEventLogs;
import io.conduit.graph.GraphEvent;
import io.conduit.runs.MultitaskStrategy;
import io.conduit.runs.Run;
import io.conduit.runs.RunSpec;
import io.conduit.runs.RunStatus;
import io.conduit.runs.StreamMode;
import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.RunEventListener;
import io.conduit.runs.events.RunNotice;
import io.conduit.runs.events.ThreadEventLog;
import io.conduit.runs.events.ThreadLog;
import io.conduit.runs.events.ServiceLogs;
import io.conduit.runs.events.ThreadLogs;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;

/**
 * A harness, not a test: how many token events per second one core turns into thread-protocol events (and, for
 * comparison, into the classic {@code messages} events), written to a bounded log with one live subscriber. Run with
 * {@code ./mvnw -B -Pbench test-compile exec:java -Dbench.main=io.conduit.stream.ProtocolTokenRate}.
 */
public final class ProtocolTokenRate {

    private ProtocolTokenRate() {
    }

    public static void main(String[] args) {
        int tokens = Integer.getInteger("bench.tokens", 2_000_000);
        for (int round = 0; round < 3; round++) {
            System.out.printf("round %d: protocol %,.0f tokens/s, classic messages %,.0f tokens/s%n", round,
                    rate(tokens, true), rate(tokens, false));
        }
    }

    private static double rate(int tokens, boolean protocol) {
        ThreadLogs logs = ServiceLogs.of(Duration.ofMinutes(2), Duration.ofMinutes(2), 8L << 30, 256L << 30);
        ThreadLog log = logs.begin("t", "r");
        Run run = new Run("r", "t", "a", RunStatus.RUNNING, Map.of(), MultitaskStrategy.ENQUEUE, RunSpec.NONE, Instant.EPOCH, Instant.EPOCH, Instant.EPOCH, null);
        log.append("r", new RunNotice.Began(1, run, "agent", Set.of(StreamMode.MESSAGES_TUPLE), true));
        long[] bytes = {0};
        ThreadEventLog view = protocol ? new ProtocolEventLogs(logs).log("t") : new RunEventLogs(logs).log("t");
        view.subscribeThread(null, new RunEventListener() {
            @Override
            public void onEvent(RunEvent event) {
                bytes[0] += event.data().length();
            }

            @Override
            public void onEnd() {
            }
        });
        GraphEvent.Tag tag = new GraphEvent.Tag("r", "t", "", "generator", 3, "0193a2b4-5c6d-7e8f-9a0b-1c2d3e4f5a6b");
        GraphEvent.Token token = new GraphEvent.Token(tag, "0193a2b4-5c6d-7e8f-9a0b-000000000001", " word");
        long start = System.nanoTime();
        for (int i = 0; i < tokens; i++) {
            log.append("r", token);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        if (bytes[0] == 0) {
            throw new IllegalStateException("nothing was delivered");
        }
        return tokens / seconds;
    }
}
