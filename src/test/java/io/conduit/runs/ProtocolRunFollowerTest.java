package io.conduit.runs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One run followed in its thread's protocol log: its events only, ended by its root end, or stopped by the classic log's end. */
class ProtocolRunFollowerTest {

    private static final String THREAD = "t";
    private final ThreadLogs logs = FrameLogs.of(Duration.ofMinutes(2), 1 << 20, 1 << 24);
    private final ProtocolEventLogs protocol = new ProtocolEventLogs(logs);
    private final RunEventLogs classic = new RunEventLogs(logs);
    private final List<String> seen = new ArrayList<>();
    private int ends;

    private final RunEventListener sink = new RunEventListener() {
        @Override
        public void onEvent(RunEvent e) {
            seen.add(e.runId() + ":" + e.mode());
        }

        @Override
        public void onEnd() {
            ends++;
        }
    };

    private Run run(String id) {
        return new Run(id, THREAD, "a", RunStatus.PENDING, java.util.Map.of(), MultitaskStrategy.ENQUEUE, RunSpec.NONE,
                java.time.Instant.EPOCH, java.time.Instant.EPOCH, java.time.Instant.EPOCH, null);
    }

    private static RunEvent lifecycle(long seq, String runId, String event) {
        return new RunEvent(seq, runId, "lifecycle", "", "{\"type\":\"event\",\"params\":{\"data\":{\"event\":\"" + event + "\"}}}");
    }

    @Test
    void theRunsOwnEventsAfterTheSeqUntilItsRootEnd() {
        ThreadLog log = FrameLogs.begin(logs, THREAD, "r0");
        log.append("r0", new RunEvent(1, "r0", "messages", "", "{}"));
        long before = protocol.log(THREAD).lastSeq();
        FrameLogs.begin(logs, THREAD, "r1");
        Runnable unfollow = ProtocolRunFollower.follow(protocol, classic, run("r1"), before, sink);
        log.append("r1", lifecycle(2, "r1", "running"));
        log.append("r1", new RunEvent(3, "r1", "messages", "model:1", "{}"));
        log.append("r0", new RunEvent(4, "r0", "messages", "", "{}"));
        log.append("r1", new RunEvent(5, "r1", "error", "", "{}")); // a replay's notice of dropped events: not the end
        log.append("r1", lifecycle(6, "r1", "completed"));
        log.append("r1", new RunEvent(7, "r1", "messages", "", "{}"));
        unfollow.run();

        assertThat(seen).containsExactly("r1:lifecycle", "r1:messages", "r1:error", "r1:lifecycle");
        assertThat(ends).isEqualTo(1);
    }

    @Test
    void aRunStoppedBeforeItStartedIsEndedByTheClassicLogWithAStoppedEvent() {
        long before = protocol.log(THREAD).lastSeq();
        ThreadLog segment = logs.begin(THREAD, "r1");
        ProtocolRunFollower.follow(protocol, classic, run("r1"), before, sink);
        segment.end("r1", 0);

        assertThat(seen).containsExactly("r1:" + ProtocolRunFollower.STOPPED);
        assertThat(ends).isEqualTo(1);
    }
}
