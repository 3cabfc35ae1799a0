package io.conduit.runs.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.runs.cluster.FrameExchange.Frame;
import io.conduit.runs.events.RunEvent;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** Group commit: one write at a time; what arrives meanwhile goes in the next one, in order. */
class FrameBatcherTest {

    private final List<List<Frame>> writes = new ArrayList<>();
    private final List<UniEmitter<? super Void>> inFlight = new ArrayList<>();
    private final List<Runnable> timers = new ArrayList<>();

    private final FrameBatcher batcher = new FrameBatcher(new Writes(), (ms, task) -> timers.add(task), 5, 3, n -> { });

    @Test
    void framesWaitForTheLingerThenGoInOneWrite() {
        batcher.add(frame(1));
        batcher.add(frame(2));
        assertThat(writes).isEmpty();
        assertThat(timers).hasSize(1);
        timers.removeFirst().run();
        assertThat(writes).hasSize(1);
        assertThat(seqs(writes.getFirst())).containsExactly(1L, 2L);
    }

    @Test
    void framesArrivingDuringAWriteGoTogetherOnceItReturnsAtMostTheBatchEach() {
        batcher.add(frame(1));
        timers.removeFirst().run();
        for (long s = 2; s <= 6; s++) {
            batcher.add(frame(s));
        }
        assertThat(timers).as("no linger while a write is in flight").isEmpty();
        inFlight.removeFirst().complete(null);
        assertThat(writes).hasSize(2);
        assertThat(seqs(writes.get(1))).containsExactly(2L, 3L, 4L);
        inFlight.removeFirst().complete(null);
        assertThat(seqs(writes.get(2))).containsExactly(5L, 6L);
        inFlight.removeFirst().complete(null);
        assertThat(writes).hasSize(3);
    }

    @Test
    void aFailedWriteDoesNotStopTheNextOnes() {
        batcher.add(frame(1));
        timers.removeFirst().run();
        batcher.add(frame(2));
        inFlight.removeFirst().fail(new IllegalStateException("database gone"));
        assertThat(seqs(writes.get(1))).containsExactly(2L);
    }

    @Test
    void aWriteRefusedWhileTheDatabaseIsOutOfReachIsTriedAgainFirstInLine() {
        batcher.add(frame(1));
        timers.removeFirst().run();
        batcher.add(frame(2));
        inFlight.removeFirst().fail(new java.net.ConnectException("Connection refused"));
        assertThat(writes).as("nothing written until the backoff is over").hasSize(1);
        batcher.add(frame(3));
        timers.removeFirst().run();
        assertThat(seqs(writes.get(1))).containsExactly(1L, 2L, 3L);
        inFlight.removeFirst().complete(null);
        batcher.add(frame(4));
        timers.removeFirst().run();
        assertThat(seqs(writes.get(2))).as("written once, after the retry").containsExactly(4L);
    }

    @Test
    void framesKeptForTheDatabaseAreBounded() {
        FrameBatcher small = new FrameBatcher(new Writes(), (ms, task) -> timers.add(task), 5, 3, 2, n -> { });
        small.add(frame(1));
        small.add(frame(2));
        timers.removeFirst().run();
        small.add(frame(3));
        inFlight.removeFirst().fail(new java.net.ConnectException("Connection refused"));
        assertThat(seqs(writes.get(1))).as("past the bound the failed write is dropped").containsExactly(3L);
    }

    private static Frame frame(long seq) {
        return Frame.of("t", "classic", "me", new RunEvent(seq, "r", "values", "", "{}"));
    }

    private static List<Long> seqs(List<Frame> frames) {
        return frames.stream().map(f -> f.event().seq()).toList();
    }

    /** Records each write and leaves it in flight until the test completes it. */
    private final class Writes implements FrameExchange {
        @Override
        public Uni<Void> append(List<Frame> frames) {
            writes.add(List.copyOf(frames));
            return Uni.createFrom().emitter(inFlight::add);
        }

        @Override
        public Uni<Rows> after(List<Cursor> cursors, int limit) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Uni<List<Frame>> since(java.util.Map<String, Long> since, int limit) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Uni<Void> watch(Watch watch, Duration ttl) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Uni<Void> renew(List<Watch> held, List<Watch> gone, Duration ttl) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Uni<List<Watch>> watches() {
            throw new UnsupportedOperationException();
        }

        @Override
        public Uni<Integer> expire(Duration retention) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Uni<Void> claimed(String threadId, String runId, String origin) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void onClaimed(Consumer<Claim> claim) {
        }

        @Override
        public void onResumed(Runnable resumed) {
        }

        @Override
        public void onAppended(Consumer<Appended> batch) {
        }

        @Override
        public void onWatch(Consumer<Watch> watch) {
        }
    }
}
