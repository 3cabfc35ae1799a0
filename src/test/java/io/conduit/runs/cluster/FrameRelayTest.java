package io.conduit.runs.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.api.RunEventLogs;
import io.conduit.runs.cluster.FrameExchange.Frame;
import io.conduit.runs.cluster.FrameExchange.Watch;
import io.conduit.runs.events.FrameLogs;
import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.ThreadLog;
import io.conduit.runs.events.ThreadLogs;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The owner's side: a thread's frames are relayed while another process watches it, and only then. */
class FrameRelayTest {

    private static final String CLASSIC = RunEventLogs.NAME;
    private final List<Frame> written = new ArrayList<>();
    private final ThreadLogs logs = FrameLogs.of(Duration.ofMinutes(5), 1 << 20, 1 << 24);
    private FrameRelay relay;

    @BeforeEach
    void relay() {
        FrameExchange writes = new RemoteFramesTestTable() {
            @Override
            public Uni<Void> append(List<Frame> frames) {
                written.addAll(frames);
                return Uni.createFrom().voidItem();
            }
        };
        relay = new FrameRelay(logs, new FrameBatcher(writes, (ms, task) -> task.run(), 0, 100, n -> { }), "me");
        logs.link(new SharedLogs(relay, new RemoteFrames(logs, writes, "me", Duration.ofSeconds(30), System::currentTimeMillis)));
    }

    @Test
    void aWatchedThreadsRunIsRelayedFromItsFirstFrameAndItsEndFollows() {
        ThreadLog log = FrameLogs.begin(logs, "t", "r1");
        log.append("r1", frame(10));
        relay.watch(new Watch("t", CLASSIC, "other"));
        log.append("r1", frame(11));
        log.end("r1", System.currentTimeMillis());
        assertThat(written).extracting(f -> f.event() == null ? "end " + f.endedRunId() : f.format() + " " + f.event().seq())
                .containsExactly(CLASSIC + " 10", CLASSIC + " 11", "end r1");
    }

    @Test
    void aRunThatEndedBeforeTheWatchCameIsRelayedWithItsEnd() {
        ThreadLog log = FrameLogs.begin(logs, "t", "r1");
        log.append("r1", frame(10));
        log.end("r1", System.currentTimeMillis());
        relay.watch(new Watch("t", CLASSIC, "other"));
        assertThat(written).extracting(f -> f.event() == null ? "end " + f.endedRunId() : f.format() + " " + f.event().seq())
                .containsExactly(CLASSIC + " 10", "end r1");
    }

    @Test
    void aRunBeginningOnAWatchedThreadIsRelayedAndALapsedWatchStopsIt() {
        relay.watch(new Watch("t", CLASSIC, "other")); // before this process holds the thread
        ThreadLog log = FrameLogs.begin(logs, "t", "r1");
        log.append("r1", frame(10));
        relay.reload(List.of(), relay.mark());
        log.append("r1", frame(11));
        log.end("r1", System.currentTimeMillis());
        assertThat(written).extracting(f -> f.event() == null ? -1L : f.event().seq()).containsExactly(10L);
    }

    @Test
    void aReadOfTheWatchesOvertakenByAWatchsNoticeDoesNotStopItsRelay() {
        ThreadLog log = FrameLogs.begin(logs, "t", "r1");
        long mark = relay.mark(); // the periodic read of the watches goes out, and is answered from before the watch
        relay.watch(new Watch("t", CLASSIC, "other")); // the watch is recorded, and its notice comes first
        log.append("r1", frame(10));
        relay.reload(List.of(), mark);
        log.append("r1", frame(11));
        relay.reload(List.of(), relay.mark()); // a read from after the notice that lacks it: the watch lapsed
        log.append("r1", frame(12));
        assertThat(written).extracting(f -> f.event() == null ? -1L : f.event().seq()).containsExactly(10L, 11L);
    }

    @Test
    void nothingIsWrittenForWatchesOfThisProcessOrOfFormatsItDoesNotHave() {
        ThreadLog log = FrameLogs.begin(logs, "t", "r1");
        relay.watch(new Watch("t", CLASSIC, "me"));
        relay.watch(new Watch("t", "no-such-format", "other"));
        log.append("r1", frame(10));
        log.end("r1", System.currentTimeMillis());
        assertThat(written).isEmpty();
    }

    private static RunEvent frame(long seq) {
        return new RunEvent(seq, "r1", "values", "", "{}");
    }

    /** A table that refuses everything but what a test overrides. */
    private abstract static class RemoteFramesTestTable implements FrameExchange {
        @Override
        public Uni<Rows> after(List<Cursor> cursors, int limit) {
            return Uni.createFrom().item(new Rows(List.of(), java.util.Map.of()));
        }

        @Override
        public Uni<List<Frame>> since(java.util.Map<String, Long> since, int limit) {
            return Uni.createFrom().item(List.of());
        }

        @Override
        public Uni<Void> watch(Watch watch, Duration ttl) {
            return Uni.createFrom().voidItem();
        }

        @Override
        public Uni<Void> renew(List<Watch> held, List<Watch> gone, Duration ttl) {
            return Uni.createFrom().voidItem();
        }

        @Override
        public Uni<List<Watch>> watches() {
            return Uni.createFrom().item(List.of());
        }

        @Override
        public Uni<Integer> expire(Duration retention) {
            return Uni.createFrom().item(0);
        }

        @Override
        public Uni<Void> claimed(String threadId, String runId, String origin) {
            return Uni.createFrom().voidItem();
        }

        @Override
        public void onClaimed(java.util.function.Consumer<Claim> claim) {
        }

        @Override
        public void onResumed(Runnable resumed) {
        }

        @Override
        public void onAppended(java.util.function.Consumer<Appended> batch) {
        }

        @Override
        public void onWatch(java.util.function.Consumer<Watch> watch) {
        }
    }
}
