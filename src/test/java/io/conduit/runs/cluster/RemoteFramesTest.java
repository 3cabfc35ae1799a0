package io.conduit.runs.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.api.RunEventLogs;
import io.conduit.runs.cluster.FrameExchange.Frame;
import io.conduit.runs.cluster.FrameExchange.Watch;
import io.conduit.runs.events.FrameLogs;
import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.RunEventListener;
import io.conduit.runs.events.ThreadLogs;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The watcher's side, over a table kept in a list: watches recorded and given up, rows read in order into the log. */
class RemoteFramesTest {

    private static final String CLASSIC = RunEventLogs.NAME;
    private final Table table = new Table();
    private final ThreadLogs logs = FrameLogs.of(Duration.ofMinutes(5), 1 << 20, 1 << 24);
    private final RemoteFrames remote = new RemoteFrames(logs, table, "me", Duration.ofSeconds(30), System::currentTimeMillis);
    private final List<Long> got = new ArrayList<>();

    @Test
    void aWatchIsRecordedOnceReadsTheRowsOfOtherProcessesAndIsGivenUpWithItsLastClient() {
        table.add("t", "other", 10);
        table.add("t", "me", 11); // relayed by this process for the others: its own clients had it live
        remote.watching("t", CLASSIC);
        remote.watching("t", CLASSIC);
        assertThat(table.watches).containsExactly(new Watch("t", CLASSIC, "me"));
        follow();
        table.add("t", "other", 12);
        remote.appended(List.of("t", "u"));
        assertThat(got).containsExactly(12L);

        remote.unwatched("t", CLASSIC);
        remote.unwatched("t", CLASSIC);
        remote.renew();
        assertThat(table.gone).containsExactly(new Watch("t", CLASSIC, "me"));
        assertThat(table.held).isEmpty();
        table.add("t", "other", 13);
        remote.appended(List.of("t"));
        assertThat(got).as("no longer read").containsExactly(12L);
    }

    @Test
    void whenTheTablesIdsStartAgainTheThreadIsReadFromItsFirstRow() {
        remote.watching("t", CLASSIC);
        table.add("t", "other", 10);
        table.add("t", "other", 11);
        remote.appended(List.of("t"));
        follow();
        table.rows.clear(); // a database crash empties the unlogged table and its sequence
        table.add("t", "other", 12);
        remote.appended(List.of("t"));
        assertThat(got).containsExactly(12L);
        remote.renew();
        assertThat(table.held).as("the watch is recorded again at each renewal").containsExactly(new Watch("t", CLASSIC, "me"));
    }

    @Test
    void oneWakeUpNamingManyWatchedThreadsReadsThemAllInOneQuery() {
        for (String t : List.of("a", "b", "c")) {
            remote.watching(t, CLASSIC);
        }
        table.reads.clear();
        table.add("a", "other", 5);
        table.add("b", "other", 6);
        table.add("c", "other", 7);
        remote.appended(List.of("a", "b", "c", "unwatched"));
        assertThat(table.reads).as("threads per read").containsExactly(3);
        for (String t : List.of("a", "b", "c")) {
            follow(t, 0);
        }
        assertThat(got).containsExactlyInAnyOrder(5L, 6L, 7L);
    }

    private void follow() {
        follow("t", 11);
    }

    private void follow(String thread, long afterSeq) {
        logs.log(CLASSIC, thread).subscribeRun("r", afterSeq, new RunEventListener() {
            @Override
            public void onEvent(RunEvent event) {
                got.add(event.seq());
            }

            @Override
            public void onEnd() {
            }
        });
    }

    /** The table, in a list; every call completes at once. */
    private static final class Table implements FrameExchange {
        final List<Frame> rows = new ArrayList<>();
        final List<Watch> watches = new ArrayList<>();
        final List<Watch> held = new ArrayList<>();
        final List<Watch> gone = new ArrayList<>();
        /** The threads each read asked for. */
        final List<Integer> reads = new ArrayList<>();
        private long nextId = 1;

        void add(String thread, String origin, long seq) {
            if (rows.isEmpty()) {
                nextId = 1;
            }
            rows.add(new Frame(nextId++, thread, CLASSIC, origin, new RunEvent(seq, "r", "values", "", "{}"), null));
        }


        @Override
        public Uni<Void> append(List<Frame> frames) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Uni<Rows> after(List<Cursor> cursors, int limit) {
            reads.add(cursors.size());
            List<Frame> frames = new ArrayList<>();
            Map<String, Long> newest = new HashMap<>();
            for (Cursor c : cursors) {
                rows.stream().filter(f -> f.threadId().equals(c.threadId()) && f.id() > c.afterId()).limit(limit).forEach(frames::add);
                newest.put(c.threadId(), rows.stream().filter(f -> f.threadId().equals(c.threadId())).mapToLong(Frame::id).max().orElse(0));
            }
            return Uni.createFrom().item(new Rows(frames, newest));
        }

        @Override
        public Uni<Void> watch(Watch watch, Duration ttl) {
            watches.add(watch);
            return Uni.createFrom().voidItem();
        }

        @Override
        public Uni<Void> renew(List<Watch> held, List<Watch> gone, Duration ttl) {
            this.held.clear();
            this.held.addAll(held);
            this.gone.addAll(gone);
            return Uni.createFrom().voidItem();
        }

        @Override
        public Uni<List<Watch>> watches() {
            return Uni.createFrom().item(watches);
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
        public void onClaimed(Consumer<Claim> claim) {
        }

        @Override
        public void onAppended(Consumer<List<String>> threads) {
        }

        @Override
        public void onWatch(Consumer<Watch> watch) {
        }
    }
}
